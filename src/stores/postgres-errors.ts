/**
 * Tells "the PostgreSQL server cannot be reached" apart from every other database error, so a question
 * asked while it is down gets an honest "unavailable, try again" (code `catalog_unavailable`) instead of
 * a generic failure, and /readyz names the catalog as the dependency that is down.
 */
import { FolioError } from "../errors.js";

/** Node's socket errors: nothing listens, the connection was cut, or the host cannot be reached. */
const SOCKET_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** pg's own wording when a connection drops or cannot be made in time (these errors carry no code). */
const CONNECTION_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /not queryable/i,
  /connection.*(closed|ended)/i,
];

export function isDatabaseUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (SOCKET_ERROR_CODES.has(code)) return true;
    // SQLSTATE class 08 (connection exception); 57P01-57P03: the server is shutting down or starting up.
    if (/^08/.test(code) || code === "57P01" || code === "57P02" || code === "57P03") return true;
    return false;
  }
  return CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message));
}

/** The error to throw: `catalog_unavailable` (retryable) when the server is out of reach, the error itself otherwise. */
export function toCatalogError(error: unknown): unknown {
  if (!isDatabaseUnreachable(error)) return error;
  return new FolioError(
    "catalog_unavailable",
    `PostgreSQL cannot be reached (${(error as Error).message}); check that the server is running and DATABASE_URL points at it.`,
    { cause: error, retryable: true },
  );
}
