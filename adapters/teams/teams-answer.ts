/**
 * Renders one answer in a Teams conversation from the core's event stream. In a personal chat the
 * answer streams (Teams' streaming protocol: an informative update "Searching your documents…",
 * streamed text as numbered typing updates, then the final message closing the stream); in channels
 * and group chats, where bots cannot stream, a typing indicator and then the final message. Updates
 * are throttled to Teams' rate; a failure ends with a short apology and the request id.
 */
import type { ConversationTurn } from "../../src/answer/answer-events.js";
import type { SpaceId } from "../../src/domain/types.js";
import { toFolioError } from "../../src/errors.js";
import type { FolioCore } from "../../src/folio-core.js";
import type { Logger } from "../../src/logger.js";
import {
  buildAnswerActivity,
  buildApologyText,
  buildStreamingActivity,
  type OutgoingActivity,
  PLACEHOLDER_TEXT,
  streamInfoEntity,
} from "./teams-message-format.js";

/** Sends one activity into the conversation; returns the id the Bot Connector gave it. */
export type ActivitySender = (activity: OutgoingActivity) => Promise<string | null>;

export type AnswerInConversationOptions = {
  core: FolioCore;
  logger: Logger;
  send: ActivitySender;
  question: string;
  /** The conversation's own space; feedback is recorded against it. */
  spaceId: SpaceId;
  spaceIds: SpaceId[];
  history: ConversationTurn[];
  requestId: string;
  /** Stream (personal chats) or show typing and send the answer at the end. */
  stream: boolean;
  /** Smallest gap between two streaming updates (Teams allows about one per second). */
  updateIntervalMs: number;
  timeoutMs: number;
  now?: () => number;
};

export type AnswerOutcome = {
  status: "answered" | "failed";
  /** Ids of the messages that carry the final answer (the stream's id and the final message's). */
  messageIds: string[];
  /** The final text, kept as the assistant's turn of the thread. */
  text: string;
};

export async function answerInConversation(options: AnswerInConversationOptions): Promise<AnswerOutcome> {
  const { send, requestId } = options;
  const now = options.now ?? Date.now;
  const log = options.logger.child({ requestId, space: options.spaceId });
  const started = now();
  let streamId: string | null = null;
  let sequence = 0;
  let lastUpdateAt = 0;
  let shown = "";

  const update = async (streamType: "informative" | "streaming", text: string, force = false) => {
    if (!options.stream || text === shown) return;
    if (!force && now() - lastUpdateAt < options.updateIntervalMs) return;
    sequence += 1;
    shown = text;
    const id = await send(buildStreamingActivity(streamType, text, { streamId, sequence }));
    streamId ??= id;
    lastUpdateAt = now();
  };

  /** The closing message: ends an open stream in the same activity. */
  const finish = async (activity: OutgoingActivity): Promise<string[]> => {
    if (options.stream && streamId !== null) {
      const entities = activity.entities ?? [];
      const hasStreamInfo = entities.some((entity) => entity.type === "streaminfo");
      activity.entities = hasStreamInfo ? entities : [streamInfoEntity("final", { streamId }), ...entities];
    }
    const id = await send(activity);
    return [...new Set([streamId, id].filter((value): value is string => value !== null))];
  };

  const apologize = async (detail?: string): Promise<AnswerOutcome> => {
    const text = buildApologyText(requestId, detail);
    try {
      return { status: "failed", messageIds: await finish({ type: "message", text }), text };
    } catch (error) {
      log.error({ error: toFolioError(error).message }, "could not send the apology");
      return { status: "failed", messageIds: [], text };
    }
  };

  try {
    if (options.stream) await update("informative", PLACEHOLDER_TEXT, true);
    else await send({ type: "typing" });
    let text = "";
    const events = options.core.answerQuestion(options.question, {
      spaceIds: options.spaceIds,
      history: options.history,
      requestId,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    for await (const event of events) {
      if (event.type === "status") {
        if (!text) await update("informative", event.message);
      } else if (event.type === "delta") {
        text += event.text;
        await update("streaming", text);
      } else if (event.type === "error") {
        log.error({ code: event.code, latencyMs: now() - started }, "answer failed");
        return await apologize(event.message);
      } else if (event.type === "done") {
        // The final text can differ from the streamed one (markers renumbered), so it replaces it.
        const activity = buildAnswerActivity(event.answer, streamId ? { streamId } : null);
        const messageIds = await finish(activity);
        log.info(
          {
            latencyMs: now() - started,
            citations: event.answer.citations.length,
            noContext: event.answer.noContext,
            streamed: streamId !== null,
            updates: sequence,
          },
          "teams answer sent",
        );
        return { status: "answered", messageIds, text: activity.text ?? "" };
      }
    }
    throw new Error("the answer ended without a result");
  } catch (error) {
    const failure = toFolioError(error);
    log.error({ code: failure.code, error: failure.message, latencyMs: now() - started }, "answer failed");
    return apologize();
  }
}
