/**
 * One request to an OpenAI-compatible server's /v1/chat/completions with `stream: true`, read as
 * Server-Sent Events: the text is yielded as it arrives, and the outcome says whether the answer finished
 * or the failure may be retried (429, 5xx, connection refused or cut). A refusal the server means (4xx, an
 * error event) is thrown.
 */
import { FolioError } from "../errors.js";
import { type FinishReason, LLM_ERROR_CODES } from "./language-model.js";
import { parseRetryAfter } from "./retry-delay.js";
import { readServerSentEvents } from "./server-sent-events.js";

export type CompletionAttempt =
  | { outcome: "done"; finishReason: FinishReason }
  | { outcome: "retry"; error: FolioError; retryAfterMs: number | null };

/** One HTTP request; yields text, returns whether it finished or may be retried; throws what may not. */
export async function* streamCompletionAttempt(
  request: { completionsUrl: string; headers: Record<string, string>; body: string },
  signal: AbortSignal,
  progress: { yielded: boolean },
): AsyncGenerator<string, CompletionAttempt> {
  const { completionsUrl, headers, body } = request;
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

function retry(error: FolioError, retryAfterMs: number | null): CompletionAttempt {
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
