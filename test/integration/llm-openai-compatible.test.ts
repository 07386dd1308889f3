/**
 * The OpenAI-compatible HTTP language model against a local server on 127.0.0.1 that streams REAL
 * SmolLM2 tokens (node-llama-cpp) in the OpenAI wire format: the shared contract, then the HTTP-only
 * cases — retries before the first token (429 with Retry-After, 5xx, connection refused), none after
 * it (a cut connection), error events, refusals, the API key and both forms of the base URL.
 */
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { LanguageModel } from "../../src/llm/language-model.js";
import type { LoadedLlamaModel } from "../../src/llm/llama-cpp-model.js";
import { createOpenAiCompatibleModel } from "../../src/llm/openai-compatible-model.js";
import { silentLogger } from "../../src/logger.js";
import { importLlamaCppModel, llamaCppMissing } from "../support/llama-cpp-runtime.js";
import { type OpenAiCompatibleTestServer, startOpenAiCompatibleServer } from "../support/openai-compatible-server.js";
import { sharedModel } from "../support/shared-paths.js";
import { COUNTING_PROMPT, collectStream, runLanguageModelContract } from "./language-model-contract.js";

const modelPath = sharedModel("SmolLM2-135M-Instruct.Q4_1.gguf");
const skipReason = llamaCppMissing ?? (existsSync(modelPath) ? null : `no ${modelPath} (shared models absent)`);
const { createLlamaCppModel, loadLlamaModelFile } = await importLlamaCppModel();

type Backend = { loaded: LoadedLlamaModel; local: LanguageModel; server: OpenAiCompatibleTestServer };
let starting: Promise<Backend> | null = null;
/** One loaded model and one server for the whole file, started on first use. */
function startBackend(): Promise<Backend> {
  starting ??= (async () => {
    const loaded = await loadLlamaModelFile({ modelPath, gpu: "cpu", threads: 1, logger: silentLogger });
    const local = await createLlamaCppModel({
      loaded,
      parallel: 1,
      queueLimit: 8,
      threads: 1,
      contextTokens: 1024,
      logger: silentLogger,
    });
    const server = await startOpenAiCompatibleServer({
      model: local,
      tokenize: (text) => loaded.model.tokenize(text),
    });
    return { loaded, local, server };
  })();
  return starting;
}

afterAll(async () => {
  if (!starting) return;
  const { loaded, local, server } = await starting;
  await server.close();
  await local.close();
  await loaded.dispose();
});

function connect(server: OpenAiCompatibleTestServer, options: { apiKey?: string; baseUrl?: string } = {}) {
  return createOpenAiCompatibleModel({
    baseUrl: options.baseUrl ?? `${server.baseUrl}/v1`,
    model: "smollm2-135m",
    apiKey: options.apiKey ?? null,
    contextTokens: 1024,
    retryBaseDelayMs: 50,
    retryMaxDelayMs: 200,
    logger: silentLogger,
  });
}

runLanguageModelContract(
  "OpenAI-compatible HTTP",
  async () => {
    const { loaded, server } = await startBackend();
    server.reset();
    return {
      model: connect(server),
      countReferenceTokens: (text) => loaded.model.tokenize(text).length,
      close: async () => {},
    };
  },
  skipReason,
);

describe.skipIf(skipReason !== null)("OpenAI-compatible HTTP language model", () => {
  let server: OpenAiCompatibleTestServer;
  beforeAll(async () => {
    server = (await startBackend()).server;
  });
  beforeEach(() => server.reset());

  it("sends the chat as OpenAI JSON with the API key as a Bearer token", async () => {
    const result = await collectStream(connect(server, { apiKey: "sk-test-123" }), COUNTING_PROMPT, {
      maxTokens: 4,
      stop: ["\n\n"],
    });
    expect(result.error).toBeNull();
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe("Bearer sk-test-123");
    expect(request?.headers.accept).toBe("text/event-stream");
    expect(request?.body).toEqual({
      model: "smollm2-135m",
      messages: COUNTING_PROMPT,
      stream: true,
      temperature: 0,
      max_tokens: 4,
      stop: ["\n\n"],
    });
  });

  it("accepts a base URL without /v1 and sends no Authorization header without a key", async () => {
    const result = await collectStream(connect(server, { baseUrl: `${server.baseUrl}/` }), COUNTING_PROMPT, {
      maxTokens: 3,
    });
    expect(result.error).toBeNull();
    expect(server.requests.map((request) => request.path)).toEqual(["/v1/chat/completions"]);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("waits out a 429's Retry-After, then streams the answer", async () => {
    server.scriptFaults({ kind: "status", status: 429, retryAfter: "1", message: "rate limited" });
    const result = await collectStream(connect(server), COUNTING_PROMPT, { maxTokens: 4 });
    expect(result.error).toBeNull();
    expect(result.finishReason).toBe("length");
    expect(result.text.length).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(2);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(1000);
  });

  it("gives up with llm_unavailable after three 500s, the server's message included", async () => {
    server.scriptFaults(
      { kind: "status", status: 500, message: "out of memory" },
      { kind: "status", status: 502 },
      { kind: "status", status: 503, message: "no slot available" },
    );
    const result = await collectStream(connect(server), COUNTING_PROMPT, { maxTokens: 4 });
    expect(result.error?.code).toBe("llm_unavailable");
    expect(result.error?.retryable).toBe(true);
    expect(result.error?.message).toBe("The LLM server answered HTTP 503: no slot available");
    expect(result.chunks).toEqual([]);
    expect(server.requests).toHaveLength(3);
  });

  it("keeps the partial text of a cut connection and ends with llm_unavailable, without retrying", async () => {
    server.scriptFaults({ kind: "disconnect", afterChunks: 3 });
    const result = await collectStream(connect(server), COUNTING_PROMPT, { maxTokens: 16 });
    expect(result.chunks).toHaveLength(3);
    expect(result.error?.code).toBe("llm_unavailable");
    expect(result.error?.retryable).toBe(true);
    expect(result.error?.message).toMatch(/^The connection to the LLM server broke during the answer/);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a connection cut before the first token", async () => {
    server.scriptFaults({ kind: "disconnect", afterChunks: 0 });
    const result = await collectStream(connect(server), COUNTING_PROMPT, { maxTokens: 4 });
    expect(result.error).toBeNull();
    expect(result.text.length).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(2);
  });

  it("ends with llm_error on an error event mid-stream, after the text so far", async () => {
    server.scriptFaults({ kind: "error-event", afterChunks: 2, message: "context exceeded" });
    const result = await collectStream(connect(server), COUNTING_PROMPT, { maxTokens: 16 });
    expect(result.chunks).toHaveLength(2);
    expect(result.error?.code).toBe("llm_error");
    expect(result.error?.message).toBe("The LLM server reported an error: context exceeded");
    expect(server.requests).toHaveLength(1);
  });

  it("does not retry a refusal (401) and says which setting to check", async () => {
    server.scriptFaults({ kind: "status", status: 401, message: "invalid api key" });
    const result = await collectStream(connect(server, { apiKey: "wrong" }), COUNTING_PROMPT, { maxTokens: 4 });
    expect(result.error?.code).toBe("llm_error");
    expect(result.error?.retryable).toBe(false);
    expect(result.error?.message).toBe(
      "The LLM server refused the request (HTTP 401): invalid api key — check LLM_API_KEY",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("retries a refused connection, then reports llm_unavailable with the socket error", async () => {
    const closedPort = await findClosedPort();
    const model = connect(server, { baseUrl: `http://127.0.0.1:${closedPort}` });
    const result = await collectStream(model, COUNTING_PROMPT, { maxTokens: 4 });
    expect(result.error?.code).toBe("llm_unavailable");
    expect(result.error?.message).toBe(
      `The LLM server at http://127.0.0.1:${closedPort}/v1/chat/completions could not be reached: fetch failed (ECONNREFUSED)`,
    );
  });

  it("estimates tokens at 4 characters each when the server has no /tokenize", async () => {
    const closedPort = await findClosedPort();
    const model = connect(server, { baseUrl: `http://127.0.0.1:${closedPort}` });
    expect(await model.countTokens("twelve chars")).toBe(3);
    expect(await model.countTokens("thirteen char")).toBe(4);
    expect(model.capabilities.exactTokenCounts).toBe(false);
    const counting = connect(server);
    await counting.countTokens("hello");
    expect(counting.capabilities.exactTokenCounts).toBe(true);
  });
});

/** A port nothing listens on: bound, noted, and released. */
async function findClosedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("could not find a port");
  return address.port;
}
