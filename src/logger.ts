/**
 * The structured logger every module receives by injection. pino underneath; the interface is
 * narrow so tests can pass `silentLogger` and nothing imports pino directly.
 */
import { pino } from "pino";

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
  return pino({ level: options.level, base: undefined }, destination as pino.DestinationStream);
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
