/**
 * Bolt middleware that drops deliveries Folio has already taken. Slack redelivers an event it thinks was
 * not acknowledged; the event log (in the database) makes every replica skip an event id that one of
 * them already took. A signed slash command or button click replayed within Slack's five minutes (HTTP
 * mode) has the same trigger id, while every real use gets a new one: it is acknowledged (so Slack does
 * not retry) and dropped.
 */
import type { App } from "@slack/bolt";
import type { FolioCore } from "../../src/folio-core.js";
import type { Logger } from "../../src/logger.js";

export function registerDuplicateEventCheck(
  app: App,
  dependencies: { core: Pick<FolioCore, "markEventProcessed">; logger: Logger; socketMode: boolean },
): void {
  const { core, logger, socketMode } = dependencies;
  app.use(async ({ body, next, ack }) => {
    const eventId = (body as { event_id?: unknown }).event_id;
    if (typeof eventId === "string" && !(await core.markEventProcessed(`slack:${eventId}`))) {
      logger.info({ eventId }, "duplicate slack event skipped");
      return;
    }
    const triggerId = (body as { trigger_id?: unknown }).trigger_id;
    // HTTP only: Socket Mode's messages arrive over Folio's own authenticated connection, not replayable.
    if (
      !socketMode &&
      typeof triggerId === "string" &&
      !(await core.markEventProcessed(`slack:trigger:${triggerId}`))
    ) {
      logger.warn({}, "replayed slack command or action skipped");
      await (ack as (() => Promise<void>) | undefined)?.();
      return;
    }
    await next();
  });
}
