/**
 * Slack's chat streaming API (chat.startStream / appendStream / stopStream) for one answer: opened with
 * the text so far, appended to in pieces Slack takes in one call, closed with what is still buffered.
 * Where the workspace or token cannot stream (`unknown_method`, `not_allowed`…) the adapter learns so
 * once, and the answer falls back to editing its message.
 */
import type { webApi } from "@slack/bolt";
import { toFolioError } from "../../src/errors.js";
import type { Logger } from "../../src/logger.js";

/**
 * Whether chat.startStream works in this workspace, shared by every answer of one adapter: learned on
 * the first streamed answer, so a workspace without it is asked once, not on every question.
 */
export type NativeStreaming = { state: "unknown" | "available" | "unavailable" };

/** Slack's limit on `markdown_text` in one chat.startStream / appendStream / stopStream call. */
export const STREAM_TEXT_LIMIT = 12_000;

/** Errors of chat.startStream that mean the workspace or token cannot stream at all. */
const STREAMING_UNAVAILABLE_ERRORS = new Set([
  "unknown_method",
  "not_allowed",
  "not_allowed_token_type",
  "method_deprecated",
  "missing_scope",
]);

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
export function platformError(error: unknown): string | null {
  const data = (error as { data?: { error?: unknown } } | null)?.data;
  return typeof data?.error === "string" ? data.error : null;
}

export type NativeStream = {
  /** Whether this answer still tries to stream (false once Slack refused). */
  readonly enabled: boolean;
  /** Whether a stream is open now (started, not yet stopped). */
  readonly isOpen: boolean;
  /** Whether this answer streamed at all. */
  readonly started: boolean;
  /** Opens the stream with the text so far; false (streaming off for this answer) when Slack refused. */
  start(text: string): Promise<boolean>;
  /** Appends to the open stream, in as many calls as Slack's per-call limit needs. */
  append(text: string): Promise<void>;
  /** Closes the open stream, sending what is still buffered; the message can be edited after. */
  stop(text: string): Promise<void>;
};

export function createNativeStream(options: {
  client: webApi.WebClient;
  channel: string;
  /** Streaming needs a thread: null (a top-level answer) never streams. */
  threadTs: string | null;
  /** The asker (chat.startStream needs the recipient outside DMs) and the adapter-wide support flag. */
  streaming: { recipientUserId: string; recipientTeamId: string; support: NativeStreaming } | null;
  log: Logger;
  /** The stream is the answer's message from the moment it opens. */
  onOpened(streamTs: string): Promise<void>;
}): NativeStream {
  const { client, channel, threadTs, log } = options;
  const streaming = threadTs !== null ? options.streaming : null;
  let streamTs: string | null = null;
  let enabled = streaming !== null && streaming.support.state !== "unavailable";
  let started = false;

  const append = async (markdownText: string) => {
    for (const piece of splitStreamText(markdownText)) {
      if (streamTs !== null) await client.chat.appendStream({ channel, ts: streamTs, markdown_text: piece });
    }
  };

  return {
    get enabled() {
      return enabled;
    },
    get isOpen() {
      return streamTs !== null;
    },
    get started() {
      return started;
    },
    async start(text) {
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
        started = true;
      } catch (error) {
        const code = platformError(error);
        if (code !== null && STREAMING_UNAVAILABLE_ERRORS.has(code)) streaming.support.state = "unavailable";
        log.info(
          { code: code ?? toFolioError(error).message },
          "slack streaming unavailable; editing the message instead",
        );
        enabled = false;
        return false;
      }
      await append(more.join(""));
      await options.onOpened(streamTs);
      return true;
    },
    append,
    async stop(markdownText) {
      if (streamTs === null) return;
      const pieces = splitStreamText(markdownText);
      const last = pieces.pop();
      await append(pieces.join(""));
      const ts = streamTs;
      streamTs = null;
      await client.chat.stopStream({ channel, ts, ...(last ? { markdown_text: last } : {}) });
    },
  };
}
