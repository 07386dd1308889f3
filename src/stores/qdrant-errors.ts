/**
 * The one place where Qdrant client failures become FolioErrors. Every request the Qdrant vector index
 * sends goes through `callQdrant`, so callers only ever see Folio's codes: `vector_store_unavailable`
 * (retryable: the server is down, overloaded or slow), `vector_store_auth` (the API key is missing or
 * wrong) and `vector_store_error` (Qdrant refused the request; its own message is kept).
 */
import {
  QdrantClientResourceExhaustedError,
  QdrantClientTimeoutError,
  QdrantClientUnexpectedResponseError,
} from "@qdrant/js-client-rest";
import { FolioError } from "../errors.js";

/** What the failing request was doing, for the message and the logs; never vectors or text. */
export type QdrantCallContext = { operation: string; url: string; collection: string };

/** Network errors that mean "nobody answered": worth retrying once the server is back. */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/**
 * The client rethrows the fetch layer's ApiError for non-2xx answers; that class lives in a transitive
 * dependency, so it is recognised by shape rather than imported.
 */
type HttpFailure = {
  status: number;
  statusText?: string;
  data?: unknown;
  headers?: { get(name: string): string | null };
};

function asHttpFailure(error: unknown): HttpFailure | null {
  if (typeof error !== "object" || error === null) return null;
  const candidate = error as Partial<HttpFailure>;
  return typeof candidate.status === "number" && "data" in candidate ? (candidate as HttpFailure) : null;
}

/** Qdrant answers errors as `{"status": {"error": "..."}, "time": ...}`. */
function serverMessage(data: unknown): string | null {
  if (typeof data !== "object" || data === null) return null;
  const status = (data as { status?: unknown }).status;
  if (typeof status === "object" && status !== null) {
    const message = (status as { error?: unknown }).error;
    if (typeof message === "string") return message;
  }
  return null;
}

function networkCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && UNREACHABLE_CODES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

export function toVectorStoreError(error: unknown, context: QdrantCallContext): FolioError {
  if (error instanceof FolioError) return error;
  const details = { operation: context.operation, collection: context.collection, url: context.url };
  const where = `Qdrant at ${context.url} (${context.operation})`;

  if (error instanceof QdrantClientTimeoutError) {
    return new FolioError(
      "vector_store_unavailable",
      `${where} did not answer in time; check that the server is healthy and not overloaded, then retry.`,
      { retryable: true, cause: error, details },
    );
  }
  if (error instanceof QdrantClientResourceExhaustedError) {
    return new FolioError(
      "vector_store_unavailable",
      `${where} is rate limiting requests; retry after ${error.retry_after} s or raise the server's limits.`,
      { retryable: true, cause: error, details: { ...details, retryAfterSeconds: error.retry_after } },
    );
  }

  const failure = asHttpFailure(error);
  if (failure) {
    const message = serverMessage(failure.data) ?? failure.statusText ?? "no message";
    const withStatus = { ...details, status: failure.status };
    if (failure.status === 401 || failure.status === 403) {
      return new FolioError(
        "vector_store_auth",
        `${where} refused the API key (HTTP ${failure.status}); set QDRANT_API_KEY to a key with read-write access to the collection "${context.collection}".`,
        { cause: error, details: withStatus },
      );
    }
    if (failure.status === 429 || failure.status === 502 || failure.status === 503 || failure.status === 504) {
      const retryAfter = failure.headers?.get("retry-after") ?? null;
      return new FolioError(
        "vector_store_unavailable",
        `${where} is unavailable (HTTP ${failure.status}: ${message}); retry ${retryAfter ? `after ${retryAfter} s` : "shortly"}.`,
        { retryable: true, cause: error, details: { ...withStatus, retryAfter } },
      );
    }
    return new FolioError("vector_store_error", `${where} failed with HTTP ${failure.status}: ${message}`, {
      retryable: failure.status >= 500,
      cause: error,
      details: withStatus,
    });
  }

  if (error instanceof QdrantClientUnexpectedResponseError) {
    return new FolioError("vector_store_error", `${where} gave an unexpected answer: ${error.message}`, {
      cause: error,
      details,
    });
  }

  const code = networkCode(error);
  if (code !== null || (error instanceof TypeError && error.message === "fetch failed")) {
    return new FolioError(
      "vector_store_unavailable",
      `Cannot reach ${where}${code ? ` (${code})` : ""}; start Qdrant or fix QDRANT_URL, then retry.`,
      { retryable: true, cause: error, details: { ...details, networkCode: code } },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new FolioError("vector_store_error", `${where} failed: ${message}`, { cause: error, details });
}

/** Runs one Qdrant request and translates whatever it throws. */
export async function callQdrant<Result>(context: QdrantCallContext, request: () => Promise<Result>): Promise<Result> {
  try {
    return await request();
  } catch (error) {
    throw toVectorStoreError(error, context);
  }
}
