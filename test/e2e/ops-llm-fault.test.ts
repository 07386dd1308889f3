/**
 * The LLM server goes away and comes back: a real Folio (embedded stores, LLM_BASE_URL) behind its real
 * HTTP server, with a loopback stand-in for an OpenAI-compatible server (GET /v1/models, streamed
 * POST /v1/chat/completions) that is not listening at first. While it is down, questions get the
 * extractive answer under the "language model is unavailable" note and /readyz fails on the language
 * model; once it listens, /readyz passes and the model's verified answer comes back — no restart.
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LLM_UNAVAILABLE_NOTE } from "../../src/answer/generate/write-verified-answer.js";
import { askConsole, uploadToConsole } from "../support/console-client.js";
import { freePort } from "../support/free-port.js";
import { hasSharedData } from "../support/shared-paths.js";
import { startTestServer, type TestServer } from "../support/start-test-server.js";

const SOURCE_SENTENCE = "Forklift inspections are recorded by the shift supervisor before the morning briefing.";
const MODEL_REPLY = "Forklift inspections are recorded by the shift supervisor before the morning briefing [1].";

if (!hasSharedData) console.warn("ops-llm-fault: skipped — no shared models (../shared) for the embedder.");

/** An OpenAI-compatible server that lists one model and streams MODEL_REPLY word by word. */
function startLlmStandIn(port: number): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    if (request.method === "GET" && request.url === "/v1/models") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ object: "list", data: [{ id: "stand-in", object: "model" }] }));
      return;
    }
    if (request.method === "POST" && request.url === "/v1/chat/completions") {
      const chunk = (delta: Record<string, string>, finish: string | null) =>
        `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(chunk({ role: "assistant", content: "" }, null));
      for (const word of MODEL_REPLY.split(/(?<= )/)) response.write(chunk({ content: word }, null));
      response.write(chunk({}, "stop"));
      response.end("data: [DONE]\n\n");
      return;
    }
    response.writeHead(404, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { message: `no route ${request.url}` } }));
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

describe.skipIf(!hasSharedData)("LLM server down, then back", () => {
  let server: TestServer;
  let llm: Server | null = null;
  let llmPort: number;

  beforeAll(async () => {
    llmPort = await freePort();
    server = await startTestServer({
      environment: {
        LLM_BASE_URL: `http://127.0.0.1:${llmPort}`,
        LLM_MODEL: "stand-in",
        FOLIO_LLM_TIMEOUT_SECONDS: "20",
      },
    });
    const text = ["# Depot rota", "", SOURCE_SENTENCE, "", "Spare batteries for hall 4 are charged overnight."].join(
      "\n",
    );
    const upload = await uploadToConsole(server.url, "rota.md", text);
    expect(await upload.text()).toContain('"status":"ingested"');
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => (llm ? llm.close(() => resolve()) : resolve()));
  });

  it("answers extractively under a note and fails /readyz while the LLM is down, then uses it again", async () => {
    const down = await fetch(`${server.url}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({
      ready: false,
      dependencies: {
        catalog: { status: "up" },
        vectorStore: { status: "up" },
        embedder: { status: "up" },
        languageModel: { status: "down", error: { code: "llm_unavailable" } },
      },
    });
    const fallback = (await askConsole(server.url, "Who records forklift inspections?")).at(-1);
    expect(fallback?.type).toBe("done");
    if (fallback?.type !== "done") return;
    expect(fallback.answer.verification?.outcome).toBe("unavailable");
    expect(fallback.answer.answer).toContain(LLM_UNAVAILABLE_NOTE);
    expect(fallback.answer.citations.map((citation) => citation.file)).toEqual(["rota.md"]);

    llm = await startLlmStandIn(llmPort);
    const up = await fetch(`${server.url}/readyz`);
    expect(up.status).toBe(200);
    const answered = (await askConsole(server.url, "Who records forklift inspections?")).at(-1);
    expect(answered?.type).toBe("done");
    if (answered?.type !== "done") return;
    expect(answered.answer.verification?.outcome).toBe("verified");
    expect(answered.answer.answer).not.toContain(LLM_UNAVAILABLE_NOTE);
    expect(answered.answer.answer).toContain("shift supervisor");
  }, 120_000);
});
