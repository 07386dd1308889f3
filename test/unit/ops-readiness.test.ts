/**
 * Readiness as GET /readyz reports it: each dependency up, down (with what failed) or off, checked in
 * parallel under a time limit, and an OpenAI-compatible LLM server asked for its models on loopback.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Embedder } from "../../src/embedding/embedder.js";
import { FolioError } from "../../src/errors.js";
import type { LanguageModel } from "../../src/llm/language-model.js";
import { buildDependencyChecks } from "../../src/observability/dependency-checks.js";
import { createReadinessProbe } from "../../src/observability/readiness.js";
import type { Catalog } from "../../src/stores/catalog.js";
import type { VectorIndex } from "../../src/stores/vector-index.js";

/** Only the calls the checks make; anything else would throw. */
function fakeStores(state: { catalogUp: boolean; vectorsUp: boolean }) {
  const catalog = {
    async getSpace() {
      if (!state.catalogUp) throw new FolioError("catalog_unavailable", "connect ECONNREFUSED 127.0.0.1:5432");
      return null;
    },
  } as unknown as Catalog;
  const vectorIndex = {
    async querySparse() {
      if (!state.vectorsUp) throw new FolioError("vector_store_unavailable", "Qdrant does not answer");
      return [];
    },
  } as unknown as VectorIndex;
  return { catalog, vectorIndex };
}

const embedder = {
  modelId: "bge-small-en-v1.5",
  dimensions: 384,
  embedQuery: async () => [1],
} as unknown as Embedder;

const model = { name: "qwen2.5-1.5b-instruct" } as unknown as LanguageModel;

let llmServer: Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (llmServer ? llmServer.close(() => resolve()) : resolve()));
  llmServer = null;
});

/** An LLM server that answers GET /v1/models with `status` and records the Authorization header. */
async function startModelsServer(status: number, seen: string[]): Promise<string> {
  llmServer = createServer((request, response) => {
    seen.push(`${request.method} ${request.url} ${request.headers.authorization ?? "-"}`);
    response.writeHead(status, { "Content-Type": "application/json" });
    response.end(JSON.stringify({ object: "list", data: [{ id: "qwen" }] }));
  });
  await new Promise<void>((resolve) => llmServer?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(llmServer.address() as AddressInfo).port}`;
}

describe("readiness report", () => {
  it("is ready when every configured dependency answers, and marks absent ones off", async () => {
    const probe = createReadinessProbe(
      buildDependencyChecks({
        ...fakeStores({ catalogUp: true, vectorsUp: true }),
        embedder,
        languageModel: null,
        llm: { kind: "none" },
      }),
    );
    const report = await probe();
    expect(report.ready).toBe(true);
    expect(Object.keys(report.dependencies).sort()).toEqual(["catalog", "embedder", "languageModel", "vectorStore"]);
    expect(report.dependencies.catalog?.status).toBe("up");
    expect(report.dependencies.vectorStore?.status).toBe("up");
    expect(report.dependencies.embedder).toMatchObject({ status: "up", detail: "bge-small-en-v1.5" });
    expect(report.dependencies.languageModel).toEqual({
      status: "off",
      detail: "no LLM configured: answers are extractive",
    });
  });

  it("is not ready while the vector store is down, and names what failed", async () => {
    const state = { catalogUp: true, vectorsUp: false };
    const probe = createReadinessProbe(
      buildDependencyChecks({ ...fakeStores(state), embedder: null, languageModel: null, llm: { kind: "none" } }),
    );
    const down = await probe();
    expect(down.ready).toBe(false);
    expect(down.dependencies.vectorStore).toMatchObject({
      status: "down",
      error: { code: "vector_store_unavailable", message: "Qdrant does not answer" },
    });
    expect(down.dependencies.catalog?.status).toBe("up");
    state.vectorsUp = true;
    expect((await probe()).ready).toBe(true);
  });

  it("fails a check that does not answer in time", async () => {
    const probe = createReadinessProbe({
      checks: [{ name: "catalog", check: () => new Promise(() => {}) }],
      timeoutMs: 50,
    });
    const report = await probe();
    expect(report.ready).toBe(false);
    expect(report.dependencies.catalog).toMatchObject({
      status: "down",
      error: { code: "readiness_timeout", message: "no answer within 50 ms" },
    });
  });

  it("asks an OpenAI-compatible server for its models, with the API key", async () => {
    const seen: string[] = [];
    const baseUrl = await startModelsServer(200, seen);
    const inputs = {
      ...fakeStores({ catalogUp: true, vectorsUp: true }),
      embedder: null,
      languageModel: model,
      llm: { kind: "openai-compatible" as const, baseUrl, model: "qwen", apiKey: "sk-test" },
    };
    const report = await createReadinessProbe(buildDependencyChecks(inputs))();
    expect(report.dependencies.languageModel).toMatchObject({ status: "up", detail: "qwen2.5-1.5b-instruct" });
    expect(seen).toEqual(["GET /v1/models Bearer sk-test"]);
  });

  it("reports an LLM server that refuses, and one that is gone", async () => {
    const baseUrl = await startModelsServer(503, []);
    const inputs = {
      ...fakeStores({ catalogUp: true, vectorsUp: true }),
      embedder: null,
      languageModel: model,
      llm: { kind: "openai-compatible" as const, baseUrl, model: "qwen", apiKey: null },
    };
    const refusing = await createReadinessProbe(buildDependencyChecks(inputs))();
    expect(refusing.ready).toBe(false);
    expect(refusing.dependencies.languageModel).toMatchObject({
      status: "down",
      error: { code: "llm_unavailable", message: "The LLM server answered GET /v1/models with HTTP 503." },
    });
    await new Promise<void>((resolve) => llmServer?.close(() => resolve()));
    llmServer = null;
    const gone = await createReadinessProbe(buildDependencyChecks(inputs))();
    expect(gone.dependencies.languageModel).toMatchObject({ status: "down", error: { code: "llm_unavailable" } });
  });
});
