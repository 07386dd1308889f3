/**
 * Bolt and the Web API client log through their own logger interface; this one routes their lines into
 * Folio's structured logger, so there is one log stream with one format.
 */
import { type Logger as BoltLogger, LogLevel } from "@slack/bolt";
import type { Logger } from "../../src/logger.js";

/** Bolt logs through its own interface; route it into Folio's structured logger. */
export function createBoltLogger(logger: Logger): BoltLogger {
  let level: LogLevel = LogLevel.INFO;
  const join = (messages: unknown[]) =>
    messages
      .map((message) =>
        typeof message === "string" ? message : message instanceof Error ? message.message : JSON.stringify(message),
      )
      .join(" ");
  return {
    debug: (...messages) => logger.debug({}, join(messages)),
    info: (...messages) => logger.info({}, join(messages)),
    warn: (...messages) => logger.warn({}, join(messages)),
    error: (...messages) => logger.error({}, join(messages)),
    setLevel(next) {
      level = next;
    },
    getLevel: () => level,
    setName() {},
  };
}
