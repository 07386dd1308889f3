/**
 * A language model behind an OpenAI-compatible HTTP server (vLLM, llama.cpp server, ...): POST
 * /v1/chat/completions with `stream: true`, read as Server-Sent Events (openai-chat-completion.ts).
 * Failures before the first token (429, 5xx, connection refused or cut) are retried with backoff,
 * honouring Retry-After; after the first token nothing is retried, since the asker has already seen part
 * of the answer. Tokens are counted by the server where it can (openai-token-counter.ts).
 */
import type { Logger } from "../logger.js";
import type { ChatMessage, LanguageModel, StreamOptions } from "./language-model.js";
import { type CompletionAttempt, streamCompletionAttempt } from "./openai-chat-completion.js";
import { createServerTokenCounter } from "./openai-token-counter.js";
import { createRequestDeadline } from "./request-deadline.js";
import { backoffDelay } from "./retry-delay.js";

export type OpenAiCompatibleModelOptions = {
  /** The server's base URL, with or without the trailing "/v1" (both `http://vllm:8000` and `http://vllm:8000/v1`). */
  baseUrl: string;
  /** The model id the server knows (vLLM's --served-model-name; any value for llama.cpp server). */
  model: string;
  apiKey: string | null;
  /** The whole request, retries and waits included. */
  timeoutMs?: number;
  /** Tries before giving up with `llm_unavailable`, the first included. */
  maxAttempts?: number;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** What the server's model holds per request; the server does not say so in a standard way. */
  contextTokens?: number;
  /** How many requests the server decodes together, as the operator configured it (informational). */
  parallelSequences?: number;
  logger: Logger;
};

/** The API root ending in /v1, whichever form the operator wrote. */
export function openAiApiRoot(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return trimmed.endsWith("/v1") ? trimmed : `${trimmed}/v1`;
}

export function createOpenAiCompatibleModel(options: OpenAiCompatibleModelOptions): LanguageModel {
  const apiRoot = openAiApiRoot(options.baseUrl);
  const completionsUrl = `${apiRoot}/chat/completions`;
  // llama.cpp server and vLLM both serve /tokenize beside /v1, not under it.
  const tokenizeUrl = `${apiRoot.slice(0, -"/v1".length)}/tokenize`;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxAttempts = options.maxAttempts ?? 3;
  const backoff = { baseMs: options.retryBaseDelayMs ?? 500, maxMs: options.retryMaxDelayMs ?? 8000 };
  const logger = options.logger.child({ llm: options.model });

  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const tokens = createServerTokenCounter({ tokenizeUrl, headers, model: options.model, logger });

  async function* stream(messages: ChatMessage[], streamOptions: StreamOptions = {}): AsyncGenerator<string> {
    const requestTimeoutMs = streamOptions.timeoutMs ?? timeoutMs;
    const deadline = createRequestDeadline({ signal: streamOptions.signal, timeoutMs: requestTimeoutMs });
    const startedAt = Date.now();
    const body = JSON.stringify({
      model: options.model,
      messages: messages.map((message) => ({ role: message.role, content: message.content })),
      stream: true,
      temperature: streamOptions.temperature ?? 0,
      ...(streamOptions.maxTokens === undefined ? {} : { max_tokens: streamOptions.maxTokens }),
      ...(streamOptions.stop?.length ? { stop: streamOptions.stop } : {}),
    });
    const progress = { yielded: false };
    let completed = false;
    try {
      for (let attempt = 1; ; attempt += 1) {
        const result: CompletionAttempt = yield* streamCompletionAttempt(
          { completionsUrl, headers, body },
          deadline.signal,
          progress,
        );
        if (result.outcome === "done") {
          completed = true;
          streamOptions.onFinish?.({ finishReason: result.finishReason });
          return;
        }
        // After the first token a retry would repeat text the asker has already read.
        if (progress.yielded || attempt >= maxAttempts) throw result.error;
        const delayMs = result.retryAfterMs ?? backoffDelay(attempt, backoff);
        if (Date.now() - startedAt + delayMs >= requestTimeoutMs) {
          // Waiting would outlast the request: say the server is unavailable now rather than time out later.
          throw result.error;
        }
        logger.warn(
          { attempt, delayMs, code: result.error.code, reason: result.error.message },
          "retrying the LLM server",
        );
        await sleep(delayMs, deadline.signal);
      }
    } catch (error) {
      throw deadline.stoppedError() ?? error;
    } finally {
      // A reader that stopped early: abort the HTTP request so the server stops generating.
      if (!completed) deadline.cancel();
      deadline.dispose();
    }
  }

  return {
    name: options.model,
    capabilities: {
      parallelSequences: options.parallelSequences ?? 4,
      get exactTokenCounts() {
        return tokens.exact;
      },
    },
    contextTokens: options.contextTokens ?? 8192,
    stream,
    countTokens: (text) => tokens.count(text),
    async close() {},
  };
}

function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
