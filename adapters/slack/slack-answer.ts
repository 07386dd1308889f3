/**
 * Renders one answer in a Slack thread: a placeholder at once, the text as it streams, then the final
 * message with sources and feedback buttons — or a short apology with the request id when anything
 * fails. The text streams through Slack's chat streaming API (chat.startStream / appendStream /
 * stopStream) where the workspace has it; where it does not (`unknown_method`, `not_allowed`…) the
 * placeholder is edited instead. Either way Slack is called no more often than the throttle allows,
 * so its rate limits hold. The final answer asks for feedback with Slack's native `feedback_buttons`
 * where the workspace takes them and with ordinary buttons where it answers `invalid_blocks`.
 */
import type { webApi } from "@slack/bolt";
import type { ConversationTurn } from "../../src/answer/answer-events.js";
import { literalMarkdown } from "../../src/answer/literal-links.js";
import type { SpaceId } from "../../src/domain/types.js";
import { toFolioError } from "../../src/errors.js";
import type { FolioCore } from "../../src/folio-core.js";
import type { Logger } from "../../src/logger.js";
import {
  buildAnswerMessages,
  buildApologyText,
  buildStatusText,
  buildStreamingText,
  type FeedbackStyle,
  PLACEHOLDER_TEXT,
  type SlackMessage,
} from "./slack-message-format.js";

/**
 * Whether chat.startStream works in this workspace, shared by every answer of one adapter: learned on
 * the first streamed answer, so a workspace without it is asked once, not on every question.
 */
export type NativeStreaming = { state: "unknown" | "available" | "unavailable" };

/**
 * Whether the workspace takes the native `feedback_buttons` element, shared by every answer of one
 * adapter: learned on the first answer, so a workspace without it is asked once.
 */
export type NativeFeedback = { state: "unknown" | "available" | "unavailable" };

/** Errors of a post that mean the blocks (here: the native feedback element) are not accepted. */
const BLOCKS_REFUSED_ERRORS = new Set(["invalid_blocks", "invalid_blocks_format"]);

/** Errors of chat.startStream that mean the workspace or token cannot stream at all. */
const STREAMING_UNAVAILABLE_ERRORS = new Set([
  "unknown_method",
  "not_allowed",
  "not_allowed_token_type",
  "method_deprecated",
  "missing_scope",
]);

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
  /** Smallest gap between two Slack calls that show more of the answer. */
  updateIntervalMs: number;
  /** Longest an answer may take before it is abandoned. */
  timeoutMs: number;
  /**
   * Slack's streaming API, when given: the asker (chat.startStream needs the recipient outside DMs) and
   * the adapter-wide support flag. Omitted or null: the placeholder is edited as the text arrives.
   * Streaming needs a thread, so a top-level answer is always edited.
   */
  streaming?: { recipientUserId: string; recipientTeamId: string; support: NativeStreaming } | null;
  /** Native feedback buttons, tried until the workspace refuses them; omitted: ordinary buttons. */
  nativeFeedback?: NativeFeedback | null;
  /**
   * Where progress ("Searching…") shows. Omitted: a placeholder message, edited as the answer
   * arrives. Given (an assistant thread's loading status): no placeholder; progress goes here — unless
   * the first call resolves false (not an assistant thread after all), then the placeholder it is.
   */
  showStatus?: ((message: string) => Promise<boolean>) | null;
  now?: () => number;
};

export type AnswerOutcome = { status: "answered" | "failed"; messageTs: string | null };

/** Slack's limit on `markdown_text` in one chat.startStream / appendStream / stopStream call. */
export const STREAM_TEXT_LIMIT = 12_000;

/** Cuts text into pieces Slack takes in one streaming call, never between the halves of an emoji. */
export function splitStreamText(text: string, limit: number = STREAM_TEXT_LIMIT): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const code = rest.charCodeAt(limit - 1);
    const cut = code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/** The `error` of a Web API platform error (`{ ok: false, error }`), or null for any other failure. */
function platformError(error: unknown): string | null {
  const data = (error as { data?: { error?: unknown } } | null)?.data;
  return typeof data?.error === "string" ? data.error : null;
}

export async function answerInThread(options: AnswerInThreadOptions): Promise<AnswerOutcome> {
  const { client, channel, threadTs, requestId } = options;
  const now = options.now ?? Date.now;
  const log = options.logger.child({ requestId, space: options.spaceId });
  const started = now();
  /** The message that shows the answer: the placeholder, then (when streaming natively) the stream. */
  let messageTs: string | null = null;
  /** Set while a native stream is open (started, not yet stopped). */
  let streamTs: string | null = null;
  const threadField = threadTs === null ? {} : { thread_ts: threadTs };
  const streaming = threadTs !== null ? (options.streaming ?? null) : null;
  let streamNatively = streaming !== null && streaming.support.state !== "unavailable";
  let streamed = false;

  const postOrUpdate = async (message: { text: string; blocks?: SlackMessage["blocks"] }) => {
    if (messageTs === null) {
      const posted = await client.chat.postMessage({ channel, ...threadField, ...message });
      messageTs = posted.ts ?? null;
    } else {
      await client.chat.update({ channel, ts: messageTs, ...message, blocks: message.blocks ?? [] });
    }
  };

  /** Appends to the open stream, in as many calls as Slack's per-call limit needs. */
  const appendStream = async (markdownText: string) => {
    for (const piece of splitStreamText(markdownText)) {
      if (streamTs !== null) await client.chat.appendStream({ channel, ts: streamTs, markdown_text: piece });
    }
  };

  /**
   * Opens the native stream with the text so far. True when it is open; false (and streaming off for
   * this answer, or for the adapter when the workspace cannot stream) when Slack refused it.
   */
  const startStream = async (text: string): Promise<boolean> => {
    if (!streaming || threadTs === null) return false;
    const [markdownText = "", ...more] = splitStreamText(text);
    try {
      const response = await client.chat.startStream({
        channel,
        thread_ts: threadTs,
        recipient_user_id: streaming.recipientUserId,
        recipient_team_id: streaming.recipientTeamId,
        markdown_text: markdownText,
      });
      if (!response.ts) throw new Error("chat.startStream returned no ts");
      streaming.support.state = "available";
      streamTs = response.ts;
      streamed = true;
    } catch (error) {
      const code = platformError(error);
      if (code !== null && STREAMING_UNAVAILABLE_ERRORS.has(code)) streaming.support.state = "unavailable";
      log.info(
        { code: code ?? toFolioError(error).message },
        "slack streaming unavailable; editing the message instead",
      );
      streamNatively = false;
      return false;
    }
    await appendStream(more.join(""));
    // The stream is the answer's message from now on; the placeholder above it goes.
    const placeholderTs = messageTs;
    messageTs = streamTs;
    if (placeholderTs !== null) {
      await client.chat.delete({ channel, ts: placeholderTs }).catch((error: unknown) => {
        log.warn({ error: toFolioError(error).message }, "could not delete the placeholder");
      });
    }
    return true;
  };

  /** Closes an open native stream, sending what is still buffered; the message can be edited after. */
  const stopStream = async (markdownText: string) => {
    if (streamTs === null) return;
    const pieces = splitStreamText(markdownText);
    const last = pieces.pop();
    await appendStream(pieces.join(""));
    const ts = streamTs;
    streamTs = null;
    await client.chat.stopStream({ channel, ts, ...(last ? { markdown_text: last } : {}) });
  };

  const feedbackStyle = (): FeedbackStyle =>
    options.nativeFeedback && options.nativeFeedback.state !== "unavailable" ? "native" : "buttons";

  /**
   * Posts the final messages; when the workspace refuses the native feedback element, it learns so and
   * posts the same messages again with ordinary buttons (same block count, so the same split).
   */
  const postFinalAnswer = async (build: (style: FeedbackStyle) => SlackMessage[]) => {
    let style = feedbackStyle();
    let messages = build(style);
    for (let index = 0; index < messages.length; index += 1) {
      const message = messages[index];
      if (!message) continue;
      const post =
        index === 0
          ? () => postOrUpdate(message)
          : () => client.chat.postMessage({ channel, thread_ts: messageTs ?? threadTs ?? undefined, ...message });
      const hasNativeFeedback = message.blocks.some((block) => block.type === "context_actions");
      try {
        await post();
        if (hasNativeFeedback && options.nativeFeedback) options.nativeFeedback.state = "available";
      } catch (error) {
        const code = platformError(error);
        if (!hasNativeFeedback || style !== "native" || code === null || !BLOCKS_REFUSED_ERRORS.has(code)) throw error;
        if (options.nativeFeedback) options.nativeFeedback.state = "unavailable";
        log.info({ code }, "slack refused native feedback buttons; using ordinary buttons");
        style = "buttons";
        messages = build(style);
        index -= 1;
      }
    }
    return messages.length;
  };

  let lastStatus: string | null = null;
  let statusShown = false;
  const showStatus = async (message: string) => {
    if (!options.showStatus || message === lastStatus) return;
    lastStatus = message;
    await options.showStatus(message);
  };

  try {
    statusShown = options.showStatus ? await options.showStatus(PLACEHOLDER_TEXT) : false;
    if (statusShown) lastStatus = PLACEHOLDER_TEXT;
    else await postOrUpdate({ text: PLACEHOLDER_TEXT });
    let text = "";
    /** Text of the answer not yet sent to the native stream. */
    let unsent = "";
    let lastUpdateAt = now();
    let shownText = PLACEHOLDER_TEXT;
    const due = () => now() - lastUpdateAt >= options.updateIntervalMs;
    const showThrottled = async (next: string) => {
      if (next === shownText || !due()) return;
      shownText = next;
      await postOrUpdate({ text: next });
      // Counted from the end of the call: one that waited out a 429 is not followed by a burst.
      lastUpdateAt = now();
    };
    const streamThrottled = async () => {
      if (!unsent || !due()) return;
      const chunk = unsent;
      unsent = "";
      if (streamTs !== null) {
        await appendStream(chunk);
      } else if (!(await startStream(chunk))) {
        // Refused: show the text by editing the placeholder, at once (this turn's call went to the refusal).
        shownText = buildStreamingText(text);
        await postOrUpdate({ text: shownText });
      }
      lastUpdateAt = now();
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
        if (text) continue;
        if (statusShown) await showStatus(event.message);
        else await showThrottled(buildStatusText(event.message));
      } else if (event.type === "delta") {
        text += event.text;
        if (streamNatively) {
          // markdown_text is Markdown: quoted text must not become a link (each delta is whole sentences).
          unsent += literalMarkdown(event.text);
          await streamThrottled();
        } else {
          await showThrottled(buildStreamingText(text));
        }
      } else if (event.type === "error") {
        log.error({ code: event.code, latencyMs: now() - started }, "answer failed");
        await stopStream(unsent).catch(() => undefined);
        await postOrUpdate({ text: buildApologyText(requestId, event.message) });
        return { status: "failed", messageTs };
      } else if (event.type === "done") {
        // The final text can differ from the streamed one (citation markers are renumbered), so the
        // message is replaced by the formatted answer once the stream is closed.
        await stopStream(unsent);
        unsent = "";
        const messageCount = await postFinalAnswer((style) =>
          buildAnswerMessages(event.answer, options.spaceId, style),
        );
        log.info(
          {
            latencyMs: now() - started,
            citations: event.answer.citations.length,
            noContext: event.answer.noContext,
            messages: messageCount,
            streamed,
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
    await stopStream("").catch(() => undefined);
    try {
      await postOrUpdate({ text: buildApologyText(requestId) });
    } catch (apologyError) {
      log.error({ error: toFolioError(apologyError).message }, "could not post the apology");
    }
    return { status: "failed", messageTs };
  }
}
