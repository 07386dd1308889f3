/**
 * Renders one answer in a Slack thread: a placeholder at once (or the assistant thread's loading status),
 * the text as it streams, then the final message with sources and feedback buttons — or a short apology
 * with the request id when anything fails. The message itself is slack-answer-message.ts; the text streams
 * through Slack's chat streaming API where the workspace has it (slack-native-stream.ts), and where it
 * does not the placeholder is edited instead. Either way Slack is called no more often than the throttle
 * allows, so its rate limits hold.
 */
import type { webApi } from "@slack/bolt";
import type { ConversationTurn } from "../../src/answer/answer-events.js";
import { literalMarkdown } from "../../src/answer/citations/literal-links.js";
import type { SpaceId } from "../../src/domain/types.js";
import { toFolioError } from "../../src/errors.js";
import type { FolioCore } from "../../src/folio-core.js";
import type { Logger } from "../../src/logger.js";
import { type AnswerMessage, createAnswerMessage, type NativeFeedback } from "./slack-answer-message.js";
import {
  buildAnswerMessages,
  buildApologyText,
  buildStatusText,
  buildStreamingText,
  PLACEHOLDER_TEXT,
} from "./slack-message-format.js";
import { createNativeStream, type NativeStream, type NativeStreaming } from "./slack-native-stream.js";

export type { NativeFeedback } from "./slack-answer-message.js";
export { type NativeStreaming, STREAM_TEXT_LIMIT, splitStreamText } from "./slack-native-stream.js";

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

export async function answerInThread(options: AnswerInThreadOptions): Promise<AnswerOutcome> {
  const { client, channel, threadTs, requestId } = options;
  const now = options.now ?? Date.now;
  const log = options.logger.child({ requestId, space: options.spaceId });
  const started = now();
  const message = createAnswerMessage({
    client,
    channel,
    threadTs,
    nativeFeedback: options.nativeFeedback ?? null,
    log,
  });
  const stream = createNativeStream({
    client,
    channel,
    threadTs,
    streaming: options.streaming ?? null,
    log,
    onOpened: (streamTs) => message.replaceWith(streamTs),
  });
  try {
    const display = await startAnswerDisplay({
      message,
      stream,
      showStatus: options.showStatus ?? null,
      updateIntervalMs: options.updateIntervalMs,
      now,
    });
    const signal = AbortSignal.timeout(options.timeoutMs);
    const events = options.core.answerQuestion(options.question, {
      spaceIds: options.spaceIds,
      history: options.history,
      requestId,
      signal,
    });
    for await (const event of events) {
      if (event.type === "status") {
        await display.status(event.message);
      } else if (event.type === "delta") {
        await display.delta(event.text);
      } else if (event.type === "error") {
        log.error({ code: event.code, latencyMs: now() - started }, "answer failed");
        await stream.stop(display.unsent).catch(() => undefined);
        await message.postOrUpdate({ text: buildApologyText(requestId, event.message) });
        return { status: "failed", messageTs: message.ts };
      } else if (event.type === "done") {
        // The final text can differ from the streamed one (citation markers are renumbered), so the
        // message is replaced by the formatted answer once the stream is closed.
        await stream.stop(display.takeUnsent());
        const messageCount = await message.postFinal((style) =>
          buildAnswerMessages(event.answer, options.spaceId, style),
        );
        log.info(
          {
            latencyMs: now() - started,
            citations: event.answer.citations.length,
            noContext: event.answer.noContext,
            messages: messageCount,
            streamed: stream.started,
          },
          "slack answer posted",
        );
        return { status: "answered", messageTs: message.ts };
      }
    }
    throw new Error("the answer ended without a result");
  } catch (error) {
    const folioError = toFolioError(error);
    log.error({ code: folioError.code, error: folioError.message, latencyMs: now() - started }, "answer failed");
    await stream.stop("").catch(() => undefined);
    try {
      await message.postOrUpdate({ text: buildApologyText(requestId) });
    } catch (apologyError) {
      log.error({ error: toFolioError(apologyError).message }, "could not post the apology");
    }
    return { status: "failed", messageTs: message.ts };
  }
}

type AnswerDisplay = {
  /** Shows a stage ("Searching…") until the answer's text starts. */
  status(message: string): Promise<void>;
  /** Adds answer text: to the native stream, or by editing the message, as often as the throttle allows. */
  delta(text: string): Promise<void>;
  /** Text not yet sent to the native stream. */
  readonly unsent: string;
  /** The text not yet sent, handed over to be sent now. */
  takeUnsent(): string;
};

/**
 * Shows the answer's progress: in the assistant thread's loading status when there is one, otherwise in
 * a placeholder message edited as the answer arrives. Calls that show more of the answer are at least
 * `updateIntervalMs` apart, counted from the end of the last one (one that waited out a 429 is not
 * followed by a burst).
 */
async function startAnswerDisplay(input: {
  message: AnswerMessage;
  stream: NativeStream;
  showStatus: ((message: string) => Promise<boolean>) | null;
  updateIntervalMs: number;
  now: () => number;
}): Promise<AnswerDisplay> {
  const { message, stream, showStatus, now } = input;
  let lastStatus: string | null = null;
  const statusShown = showStatus ? await showStatus(PLACEHOLDER_TEXT) : false;
  if (statusShown) lastStatus = PLACEHOLDER_TEXT;
  else await message.postOrUpdate({ text: PLACEHOLDER_TEXT });
  let text = "";
  let unsent = "";
  let lastUpdateAt = now();
  let shownText = PLACEHOLDER_TEXT;
  const due = () => now() - lastUpdateAt >= input.updateIntervalMs;
  const showThrottled = async (next: string) => {
    if (next === shownText || !due()) return;
    shownText = next;
    await message.postOrUpdate({ text: next });
    lastUpdateAt = now();
  };
  const streamThrottled = async () => {
    if (!unsent || !due()) return;
    const chunk = unsent;
    unsent = "";
    if (stream.isOpen) {
      await stream.append(chunk);
    } else if (!(await stream.start(chunk))) {
      // Refused: show the text by editing the placeholder, at once (this turn's call went to the refusal).
      shownText = buildStreamingText(text);
      await message.postOrUpdate({ text: shownText });
    }
    lastUpdateAt = now();
  };
  return {
    async status(stage) {
      if (text) return;
      if (!statusShown) return showThrottled(buildStatusText(stage));
      if (!showStatus || stage === lastStatus) return;
      lastStatus = stage;
      await showStatus(stage);
    },
    async delta(piece) {
      text += piece;
      if (!stream.enabled) return showThrottled(buildStreamingText(text));
      // markdown_text is Markdown: quoted text must not become a link (each delta is whole sentences).
      unsent += literalMarkdown(piece);
      await streamThrottled();
    },
    get unsent() {
      return unsent;
    },
    takeUnsent() {
      const taken = unsent;
      unsent = "";
      return taken;
    },
  };
}
