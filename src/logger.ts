/**
 * The structured logger every module receives by injection. pino underneath; the interface is
 * narrow so tests can pass `silentLogger` and nothing imports pino directly. Every line written while
 * a request is served carries its `requestId` (src/observability/request-context.ts), and secrets
 * never reach the output (src/observability/log-redaction.ts).
 */
import { pino } from "pino";
import { REDACTED_LOG_PATHS, REDACTION_CENSOR, scrubSecrets } from "./logging/log-redaction.js";
import { currentRequestContext } from "./logging/request-context.js";

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(fields: LogFields, message: string): void;
  info(fields: LogFields, message: string): void;
  warn(fields: LogFields, message: string): void;
  error(fields: LogFields, message: string): void;
  child(fields: LogFields): Logger;
}

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

export function createLogger(options: {
  level: LogLevel;
  pretty?: boolean;
  destination?: NodeJS.WritableStream;
}): Logger {
  const destination = options.destination ?? process.stderr;
  return pino(
    {
      level: options.level,
      base: undefined,
      redact: { paths: REDACTED_LOG_PATHS, censor: REDACTION_CENSOR },
      serializers: { err: boundedError },
      mixin: requestIdOfLine,
      hooks: { streamWrite: scrubSecrets },
    },
    destination as pino.DestinationStream,
  );
}

/** The longest string field of a logged error; a database error can carry a whole statement. */
const maxErrorFieldCharacters = 2_000;

/**
 * An error as pino writes it, bounded: a driver error's bound parameters (a batch of passages, a
 * document's text) are counted instead of written out, and long strings are cut, so one failure
 * writes one readable line instead of megabytes of user content.
 */
function boundedError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const serialized = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  const bounded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(serialized)) {
    if (key === "params" && Array.isArray(value)) bounded[key] = `[${value.length} parameters]`;
    else if (typeof value === "string" && value.length > maxErrorFieldCharacters)
      bounded[key] = `${value.slice(0, maxErrorFieldCharacters)}… [${value.length} characters]`;
    else bounded[key] = value;
  }
  return bounded;
}

/**
 * The served request's id for a line that does not already name one. A line bound to another id (a
 * Slack answer has its own, the HTTP delivery that started it another) keeps its own and names the
 * HTTP request as `httpRequestId`, so the two can be joined.
 */
function requestIdOfLine(fields: object, _level: number, logger: pino.Logger): Record<string, unknown> {
  const context = currentRequestContext();
  if (context === undefined || "requestId" in fields) return {};
  const bound = logger.bindings().requestId;
  if (bound === undefined) return { requestId: context.requestId };
  return bound === context.requestId ? {} : { httpRequestId: context.requestId };
}

/** A logger that drops everything; for tests and for CLI runs with logging off. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silentLogger;
  },
};
