/**
 * Exit codes and the usage error of the `folio` command line.
 */
import { FolioError } from "../errors.js";

export const EXIT_CODES = {
  ok: 0,
  /** Something failed while running (database, model, I/O). */
  failure: 1,
  /** The command line itself is wrong. */
  usage: 2,
  /** An environment variable is wrong. */
  configuration: 3,
  /** The command ran, but some input files were rejected (see their JSON lines). */
  someFilesRejected: 4,
  /** The command exists but its feature is not built yet. */
  notImplemented: 5,
} as const;

export class UsageError extends FolioError {
  constructor(message: string) {
    super("usage_error", message);
    this.name = "UsageError";
  }
}
