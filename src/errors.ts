/**
 * The one error type Folio throws. Every failure a caller may act on has a snake_case `code`;
 * `retryable` tells transports whether trying again can help. Adapters translate vendor errors
 * into FolioError at their boundary, so the core never sees an SDK's error shapes.
 */
export type FolioErrorOptions = {
  retryable?: boolean;
  cause?: unknown;
  /** Structured details safe to log (never document text or secrets). */
  details?: Record<string, unknown>;
};

export class FolioError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  readonly details: Record<string, unknown>;

  constructor(code: string, message: string, options: FolioErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "FolioError";
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
  }
}

/** A file Folio will not ingest, with the reason a person can act on. */
export class ParseError extends FolioError {
  readonly file: string;
  readonly page: number | undefined;

  constructor(code: string, message: string, options: FolioErrorOptions & { file: string; page?: number }) {
    super(code, message, options);
    this.name = "ParseError";
    this.file = options.file;
    this.page = options.page;
  }
}

export function isFolioError(error: unknown): error is FolioError {
  return error instanceof FolioError;
}

/** Wraps anything thrown into a FolioError, keeping the original as `cause`. */
export function toFolioError(error: unknown, fallbackCode = "internal_error"): FolioError {
  if (error instanceof FolioError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new FolioError(fallbackCode, message, { cause: error });
}
