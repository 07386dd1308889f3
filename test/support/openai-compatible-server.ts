/**
 * A small OpenAI-compatible server on 127.0.0.1 for tests: POST /v1/chat/completions streams the REAL
 * tokens of a local language model (node-llama-cpp) as `chat.completion.chunk` Server-Sent Events,
 * and POST /tokenize answers like llama.cpp server. Faults can be scripted for the next requests
 * (an HTTP status with Retry-After, a connection cut after N chunks, an error event) and every request
 * is recorded, so tests see exactly what the client sent and how often.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ChatMessage, LanguageModel } from "../../src/llm/language-model.js";

export type ScriptedFault =
  | { kind: "status"; status: number; retryAfter?: string; message?: string }
  /** Streams this many content chunks, then destroys the socket without [DONE]. */
  | { kind: "disconnect"; afterChunks: number }
  /** Streams this many content chunks, then an `{"error": ...}` event and the end of the stream. */
  | { kind: "error-event"; afterChunks: number; message: string };

export type RecordedRequest = { path: string; headers: IncomingHttpHeaders; body: Record<string, unknown> };

export type OpenAiCompatibleTestServer = {
  /** Without "/v1", like `http://127.0.0.1:PORT`. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Faults for the next chat requests, in order; requests after them are served normally. */
  scriptFaults(...faults: ScriptedFault[]): void;
  /** Clears recorded requests and any unused faults. */
  reset(): void;
  close(): Promise<void>;
};

export async function startOpenAiCompatibleServer(options: {
  model: LanguageModel;
  /** The model's tokenizer for /tokenize; without it /tokenize answers 404 (like vLLM without it). */
  tokenize?: (text: string) => number[];
}): Promise<OpenAiCompatibleTestServer> {
  const requests: RecordedRequest[] = [];
  let faults: ScriptedFault[] = [];

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) writeJson(response, 500, { error: { message: String(error), type: "server_error" } });
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readJson(request);
    const path = request.url ?? "";
    requests.push({ path, headers: request.headers, body });
    if (request.method === "POST" && path === "/tokenize" && options.tokenize) {
      writeJson(response, 200, { tokens: options.tokenize(String(body.content ?? "")) });
      return;
    }
    if (request.method !== "POST" || path !== "/v1/chat/completions") {
      writeJson(response, 404, { error: { message: `no route ${request.method} ${path}`, type: "not_found" } });
      return;
    }
    const fault = faults.shift();
    if (fault?.kind === "status") {
      if (fault.retryAfter !== undefined) response.setHeader("retry-after", fault.retryAfter);
      writeJson(response, fault.status, {
        error: { message: fault.message ?? `scripted HTTP ${fault.status}`, type: "server_error" },
      });
      return;
    }
    await streamCompletion(response, body, fault);
  }

  async function streamCompletion(
    response: ServerResponse,
    body: Record<string, unknown>,
    fault: ScriptedFault | undefined,
  ): Promise<void> {
    const controller = new AbortController();
    // The client went away (abort, timeout): stop decoding so the model's sequence is freed.
    response.on("close", () => controller.abort());
    const id = `chatcmpl-test-${requests.length}`;
    const created = Math.floor(Date.now() / 1000);
    const modelName = String(body.model ?? "test");
    const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
      `data: ${JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created,
        model: modelName,
        choices: [{ index: 0, delta, finish_reason: finishReason }],
      })}\n\n`;
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    response.write(chunk({ role: "assistant", content: "" }, null));
    let finishReason = "stop";
    let sent = 0;
    try {
      for await (const text of options.model.stream(body.messages as ChatMessage[], {
        signal: controller.signal,
        ...(typeof body.max_tokens === "number" ? { maxTokens: body.max_tokens } : {}),
        ...(typeof body.temperature === "number" ? { temperature: body.temperature } : {}),
        ...(Array.isArray(body.stop) ? { stop: body.stop as string[] } : {}),
        onFinish: (result) => {
          finishReason = result.finishReason;
        },
      })) {
        if (fault && fault.kind !== "status" && sent === fault.afterChunks) {
          if (fault.kind === "disconnect") {
            response.destroy();
            controller.abort();
            return;
          }
          response.end(`data: ${JSON.stringify({ error: { message: fault.message, type: "server_error" } })}\n\n`);
          controller.abort();
          return;
        }
        response.write(chunk({ content: text }, null));
        sent += 1;
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      throw error;
    }
    response.write(chunk({}, finishReason));
    response.end("data: [DONE]\n\n");
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    scriptFaults(...next) {
      faults.push(...next);
    },
    reset() {
      requests.length = 0;
      faults = [];
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString("utf8");
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function writeJson(response: ServerResponse, status: number, payload: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(payload));
}
