/**
 * How the local command-line API reads a request and refuses one: a FolioError carrying its HTTP status.
 */
import { FolioError } from "../errors.js";

export function refused(status: number, code: string, message: string): FolioError {
  return new FolioError(code, message, { details: { status } });
}

export function requireText(value: unknown, name: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw refused(400, "invalid_request", `Send a non-empty "${name}".`);
  }
  return value.trim();
}
