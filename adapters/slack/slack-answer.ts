/**
 * Renders one answer in a Slack thread: a placeholder at once, the text as it streams (edits no
 * more often than the throttle allows, so Slack's rate limits hold), then the final message with
 * sources and feedback buttons — or a short apology with the request id when anything fails.
 */
import type { webApi } from "@slack/bolt";
import type { ConversationTurn } from "../../src/answer/answer-events.js";
import type { SpaceId } from "../../src/domain/types.js";
import { toFolioError } from "../../src/errors.js";
import type { FolioCore } from "../../src/folio-core.js";
import type { Logger } from "../../src/logger.js";
import {
  buildAnswerMessages,
  buildApologyText,
  buildStatusText,
  buildStreamingText,
  PLACEHOLDER_TEXT,
  type SlackMessage,
} from "./slack-message-format.js";

export type AnswerInThreadOptions = {
  client: webApi.WebClient;
  core: FolioCore;
  logger: Logger;
  channel: string;
  /** Thread to answer in; null posts at the top level (a direct message outside a thread). */
  threadTs: string | null;
  question: string;
  /** The conversation's own space; feedback is recorded against it. */
  spaceId: SpaceId;
  spaceIds: SpaceId[];
  history: ConversationTurn[];
  requestId: string;
  /** Smallest gap between two edits of the streaming message. */
  updateIntervalMs: number;
  /** Longest an answer may take before it is abandoned. */
  timeoutMs: number;
  now?: () => number;
};

export type AnswerOutcome = { status: "answered" | "failed"; messageTs: string | null };

export async function answerInThread(options: AnswerInThreadOptions): Promise<AnswerOutcome> {
  const { client, channel, threadTs, requestId } = options;
  const now = options.now ?? Date.now;
  const log = options.logger.child({ requestId, space: options.spaceId });
  const started = now();
  let messageTs: string | null = null;
  const threadField = threadTs === null ? {} : { thread_ts: threadTs };

  const postOrUpdate = async (message: { text: string; blocks?: SlackMessage["blocks"] }) => {
    if (messageTs === null) {
      const posted = await client.chat.postMessage({ channel, ...threadField, ...message });
      messageTs = posted.ts ?? null;
    } else {
      await client.chat.update({ channel, ts: messageTs, ...message, blocks: message.blocks ?? [] });
    }
  };

  try {
    await postOrUpdate({ text: PLACEHOLDER_TEXT });
    let text = "";
    let lastUpdateAt = now();
    let shownText = PLACEHOLDER_TEXT;
    const showThrottled = async (next: string) => {
      if (next === shownText || now() - lastUpdateAt < options.updateIntervalMs) return;
      lastUpdateAt = now();
      shownText = next;
      await postOrUpdate({ text: next });
    };

    const signal = AbortSignal.timeout(options.timeoutMs);
    const events = options.core.answerQuestion(options.question, {
      spaceIds: options.spaceIds,
      history: options.history,
      requestId,
      signal,
    });
    for await (const event of events) {
      if (event.type === "status") {
        if (!text) await showThrottled(buildStatusText(event.message));
      } else if (event.type === "delta") {
        text += event.text;
        await showThrottled(buildStreamingText(text));
      } else if (event.type === "error") {
        log.error({ code: event.code, latencyMs: now() - started }, "answer failed");
        await postOrUpdate({ text: buildApologyText(requestId, event.message) });
        return { status: "failed", messageTs };
      } else if (event.type === "done") {
        const [first, ...rest] = buildAnswerMessages(event.answer, options.spaceId);
        if (first) await postOrUpdate(first);
        for (const message of rest)
          await client.chat.postMessage({ channel, thread_ts: messageTs ?? threadTs ?? undefined, ...message });
        log.info(
          {
            latencyMs: now() - started,
            citations: event.answer.citations.length,
            noContext: event.answer.noContext,
            messages: rest.length + 1,
          },
          "slack answer posted",
        );
        return { status: "answered", messageTs };
      }
    }
    throw new Error("the answer ended without a result");
  } catch (error) {
    const folioError = toFolioError(error);
    log.error({ code: folioError.code, error: folioError.message, latencyMs: now() - started }, "answer failed");
    try {
      await postOrUpdate({ text: buildApologyText(requestId) });
    } catch (apologyError) {
      log.error({ error: toFolioError(apologyError).message }, "could not post the apology");
    }
    return { status: "failed", messageTs };
  }
}
