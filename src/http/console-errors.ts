/**
 * How the console shows a failure: a FolioError's message is written for people; anything else is
 * hidden behind a sentence that points at the server's log.
 */
import { isFolioError } from "../errors.js";

/** Errors the client can see: FolioError messages are written for people; anything else is hidden. */
export function describeError(error: unknown): { code: string; message: string } {
  if (isFolioError(error)) return { code: error.code, message: error.message };
  return { code: "internal_error", message: "Something went wrong on the server; see its log." };
}
