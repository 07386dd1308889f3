/**
 * The Slack message that shows one answer: posted as a placeholder, edited as the answer arrives (or
 * replaced by a native stream), and finally the formatted answer with sources and feedback buttons. The
 * final answer asks for feedback with Slack's native `feedback_buttons` where the workspace takes them and
 * with ordinary buttons where it answers `invalid_blocks`.
 */
import type { webApi } from "@slack/bolt";
import { toFolioError } from "../../src/errors.js";
import type { Logger } from "../../src/logger.js";
import type { FeedbackStyle, SlackMessage } from "./slack-message-format.js";
import { platformError } from "./slack-native-stream.js";

/**
 * Whether the workspace takes the native `feedback_buttons` element, shared by every answer of one
 * adapter: learned on the first answer, so a workspace without it is asked once.
 */
export type NativeFeedback = { state: "unknown" | "available" | "unavailable" };

/** Errors of a post that mean the blocks (here: the native feedback element) are not accepted. */
const BLOCKS_REFUSED_ERRORS = new Set(["invalid_blocks", "invalid_blocks_format"]);

export type AnswerMessage = {
  /** The message that shows the answer: the placeholder, then (when streaming natively) the stream. */
  readonly ts: string | null;
  /** Posts the message the first time, edits it after. */
  postOrUpdate(message: { text: string; blocks?: SlackMessage["blocks"] }): Promise<void>;
  /** The stream `streamTs` shows the answer from now on; the placeholder above it goes. */
  replaceWith(streamTs: string): Promise<void>;
  /** Posts the final messages (the first one in place of the answer's message); returns how many. */
  postFinal(build: (style: FeedbackStyle) => SlackMessage[]): Promise<number>;
};

export function createAnswerMessage(options: {
  client: webApi.WebClient;
  channel: string;
  /** Thread to answer in; null posts at the top level (a direct message outside a thread). */
  threadTs: string | null;
  /** Native feedback buttons, tried until the workspace refuses them; null: ordinary buttons. */
  nativeFeedback: NativeFeedback | null;
  log: Logger;
}): AnswerMessage {
  const { client, channel, threadTs, nativeFeedback, log } = options;
  const threadField = threadTs === null ? {} : { thread_ts: threadTs };
  let ts: string | null = null;

  const postOrUpdate: AnswerMessage["postOrUpdate"] = async (message) => {
    if (ts === null) {
      const posted = await client.chat.postMessage({ channel, ...threadField, ...message });
      ts = posted.ts ?? null;
    } else {
      await client.chat.update({ channel, ts, ...message, blocks: message.blocks ?? [] });
    }
  };

  /**
   * When the workspace refuses the native feedback element, it learns so and posts the same messages
   * again with ordinary buttons (same block count, so the same split).
   */
  const postFinal: AnswerMessage["postFinal"] = async (build) => {
    let style: FeedbackStyle = nativeFeedback && nativeFeedback.state !== "unavailable" ? "native" : "buttons";
    let messages = build(style);
    for (let index = 0; index < messages.length; index += 1) {
      const message = messages[index];
      if (!message) continue;
      const post =
        index === 0
          ? () => postOrUpdate(message)
          : () => client.chat.postMessage({ channel, thread_ts: ts ?? threadTs ?? undefined, ...message });
      const hasNativeFeedback = message.blocks.some((block) => block.type === "context_actions");
      try {
        await post();
        if (hasNativeFeedback && nativeFeedback) nativeFeedback.state = "available";
      } catch (error) {
        const code = platformError(error);
        if (!hasNativeFeedback || style !== "native" || code === null || !BLOCKS_REFUSED_ERRORS.has(code)) throw error;
        if (nativeFeedback) nativeFeedback.state = "unavailable";
        log.info({ code }, "slack refused native feedback buttons; using ordinary buttons");
        style = "buttons";
        messages = build(style);
        index -= 1;
      }
    }
    return messages.length;
  };

  return {
    get ts() {
      return ts;
    },
    postOrUpdate,
    async replaceWith(streamTs) {
      const placeholderTs = ts;
      ts = streamTs;
      if (placeholderTs === null) return;
      await client.chat.delete({ channel, ts: placeholderTs }).catch((error: unknown) => {
        log.warn({ error: toFolioError(error).message }, "could not delete the placeholder");
      });
    },
    postFinal,
  };
}
