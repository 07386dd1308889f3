/**
 * A language model behind an OpenAI-compatible HTTP server (vLLM, llama.cpp server, ...): POST
 * /v1/chat/completions with `stream: true`, read as Server-Sent Events. Failures before the first
 * token (429, 5xx, connection refused or cut) are retried with backoff, honouring Retry-After; after
 * the first token nothing is retried, since the asker has already seen part of the answer.
 */
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import {
  type ChatMessage,
  type FinishReason,
  type LanguageModel,
  LLM_ERROR_CODES,
  type StreamOptions,
} from "./language-model.js";
import { createRequestDeadline } from "./request-deadline.js";
import { backoffDelay, parseRetryAfter } from "./retry-delay.js";
import { readServerSentEvents } from "./server-sent-events.js";

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

type Attempt =
  | { outcome: "done"; finishReason: FinishReason }
  | { outcome: "retry"; error: FolioError; retryAfterMs: number | null };

/** Characters per token for the estimate when the server cannot count: English text averages about 4. */
const CHARACTERS_PER_TOKEN = 4;
const TOKENIZE_TIMEOUT_MS = 5000;

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
  /** null until the first count: then whether the server answers POST /tokenize. */
  let tokenizeSupported: boolean | null = null;

  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

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
        const result: Attempt = yield* runAttempt(body, deadline.signal, progress);
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

  /** One HTTP request; yields text, returns whether it finished or may be retried; throws what may not. */
  async function* runAttempt(
    body: string,
    signal: AbortSignal,
    progress: { yielded: boolean },
  ): AsyncGenerator<string, Attempt> {
    let response: Response;
    try {
      response = await fetch(completionsUrl, {
        method: "POST",
        headers: { ...headers, accept: "text/event-stream" },
        body,
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      return retry(unavailableError(`The LLM server at ${completionsUrl} could not be reached`, error), null);
    }
    if (!response.ok || !response.body) {
      const detail = serverErrorMessage(await response.text().catch(() => ""));
      const status = response.status;
      if (status === 429 || status >= 500) {
        return retry(
          new FolioError(LLM_ERROR_CODES.unavailable, `The LLM server answered HTTP ${status}: ${detail}`, {
            retryable: true,
            details: { status },
          }),
          parseRetryAfter(response.headers.get("retry-after")),
        );
      }
      throw new FolioError(
        LLM_ERROR_CODES.error,
        `The LLM server refused the request (HTTP ${status}): ${detail}${hintFor(status)}`,
        {
          details: { status },
        },
      );
    }

    let finishReason: FinishReason | null = null;
    try {
      for await (const data of readServerSentEvents(response.body)) {
        if (data === "[DONE]") return { outcome: "done", finishReason: finishReason ?? "stop" };
        const payload = parseEvent(data);
        if (payload.error !== undefined) {
          throw new FolioError(LLM_ERROR_CODES.error, `The LLM server reported an error: ${serverErrorMessage(data)}`);
        }
        const choice = payload.choices?.[0];
        const content = choice?.delta?.content;
        if (typeof content === "string" && content !== "") {
          progress.yielded = true;
          yield content;
        }
        if (choice?.finish_reason) finishReason = choice.finish_reason === "length" ? "length" : "stop";
      }
    } catch (error) {
      if (error instanceof FolioError || signal.aborted) throw error;
      return retry(unavailableError("The connection to the LLM server broke during the answer", error), null);
    }
    // Some servers close after the finishing chunk without [DONE]; without either the answer was cut.
    if (finishReason !== null) return { outcome: "done", finishReason };
    return retry(unavailableError("The LLM server closed the connection before the answer was complete"), null);
  }

  async function countTokens(text: string): Promise<number> {
    if (tokenizeSupported !== false) {
      const counted = await countWithServer(text);
      if (counted !== null) return counted;
    }
    return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
  }

  /** POST /tokenize as llama.cpp server (`content` → `tokens`) and vLLM (`prompt` → `count`) take it. */
  async function countWithServer(text: string): Promise<number | null> {
    try {
      const response = await fetch(tokenizeUrl, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: options.model, content: text, prompt: text, add_special: false }),
        signal: AbortSignal.timeout(TOKENIZE_TIMEOUT_MS),
      });
      if (!response.ok) {
        await response.body?.cancel();
        // Only an answer that says "no such endpoint" settles it; a busy server may count next time.
        if ([400, 404, 405, 501].includes(response.status)) tokenizeSupported = false;
        return null;
      }
      const payload = (await response.json()) as { tokens?: unknown; count?: unknown };
      const count = Array.isArray(payload.tokens)
        ? payload.tokens.length
        : typeof payload.count === "number"
          ? payload.count
          : null;
      tokenizeSupported = count !== null;
      return count;
    } catch (error) {
      logger.debug(
        { error: error instanceof Error ? error.message : String(error) },
        "token count from the server failed",
      );
      return null;
    }
  }

  return {
    name: options.model,
    capabilities: {
      parallelSequences: options.parallelSequences ?? 4,
      get exactTokenCounts() {
        return tokenizeSupported === true;
      },
    },
    contextTokens: options.contextTokens ?? 8192,
    stream,
    countTokens,
    async close() {},
  };
}

type ChatCompletionChunk = {
  choices?: Array<{ delta?: { content?: unknown }; finish_reason?: string | null }>;
  error?: unknown;
};

function parseEvent(data: string): ChatCompletionChunk {
  try {
    return JSON.parse(data) as ChatCompletionChunk;
  } catch (error) {
    throw new FolioError(
      LLM_ERROR_CODES.error,
      `The LLM server sent an event that is not JSON: ${data.slice(0, 120)}`,
      {
        cause: error,
      },
    );
  }
}

function retry(error: FolioError, retryAfterMs: number | null): Attempt {
  return { outcome: "retry", error, retryAfterMs };
}

function unavailableError(message: string, cause?: unknown): FolioError {
  const reason = cause instanceof Error ? `: ${causeText(cause)}` : "";
  return new FolioError(LLM_ERROR_CODES.unavailable, `${message}${reason}`, { retryable: true, cause });
}

/** fetch hides the socket error (ECONNREFUSED, ...) in `cause`; that is the part worth reading. */
function causeText(error: Error): string {
  const inner = error.cause;
  if (inner && typeof inner === "object" && "code" in inner) return `${error.message} (${String(inner.code)})`;
  return error.message;
}

/** The `error.message` of an OpenAI-style error body, else the body itself, shortened. */
function serverErrorMessage(text: string): string {
  try {
    const payload = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof payload.error === "string") return payload.error;
    if (typeof payload.error?.message === "string") return payload.error.message;
    if (typeof payload.message === "string") return payload.message;
  } catch {
    // Not JSON: the raw body (an HTML error page, a proxy's text) is still the best description.
  }
  return text.trim().slice(0, 200) || "(empty body)";
}

function hintFor(status: number): string {
  if (status === 401 || status === 403) return " — check LLM_API_KEY";
  if (status === 404) return " — check LLM_BASE_URL and LLM_MODEL";
  return "";
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
