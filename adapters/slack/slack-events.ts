/**
 * Decides what a Slack message event asks of Folio — answer it, check whether it follows up an
 * answer in its thread, ingest its files, or nothing — before any network call, so the rules
 * (bots ignored, mentions left to `app_mention`, the per-channel "answer every question" mode) are
 * pure and tested on their own.
 */
import { isFromBot, mentionsUser } from "./slack-thread-context.js";

/** The fields of a Slack `message` event this module reads. */
export type SlackMessageEvent = {
  type?: string;
  subtype?: string;
  channel?: string;
  channel_type?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  files?: SlackFileObject[];
};

/** The fields of a Slack file object Folio uses. */
export type SlackFileObject = {
  id: string;
  name?: string;
  title?: string;
  mimetype?: string;
  size?: number;
  url_private?: string;
  url_private_download?: string;
  user?: string;
  mode?: string;
  shares?: {
    public?: Record<string, Array<{ ts: string; thread_ts?: string }>>;
    private?: Record<string, Array<{ ts: string; thread_ts?: string }>>;
  };
};

export type MessageDecision =
  | { kind: "ignore"; reason: string }
  | { kind: "files"; files: SlackFileObject[] }
  /** Answer it now: a direct message, or a question in a channel that answers every question. */
  | { kind: "answer" }
  /** A reply in a thread: answered only if Folio already answered in that thread. */
  | { kind: "follow-up-candidate"; threadTs: string };

/** Subtypes that carry a person's words; every other subtype (edits, joins, deletions…) is not a question. */
const MESSAGE_SUBTYPES_WITH_TEXT = new Set([undefined, "thread_broadcast", "file_share"]);

export function looksLikeQuestion(text: string): boolean {
  return /\?\s*$/.test(text.trim());
}

export function classifyMessageEvent(
  event: SlackMessageEvent,
  options: { botUserId: string | null; answersEveryQuestion: boolean },
): MessageDecision {
  if (isFromBot(event)) return { kind: "ignore", reason: "from a bot" };
  if (!MESSAGE_SUBTYPES_WITH_TEXT.has(event.subtype)) return { kind: "ignore", reason: `subtype ${event.subtype}` };
  if (!event.user || !event.channel || !event.ts) return { kind: "ignore", reason: "incomplete event" };
  if (event.files && event.files.length > 0) return { kind: "files", files: event.files };
  if (event.subtype === "file_share") return { kind: "ignore", reason: "file share without files" };
  const text = event.text?.trim() ?? "";
  if (!text) return { kind: "ignore", reason: "empty" };
  if (event.channel_type === "im") return { kind: "answer" };
  // Slack sends an `app_mention` for the same message; answering here too would answer twice.
  if (mentionsUser(text, options.botUserId)) return { kind: "ignore", reason: "handled as app_mention" };
  if (event.thread_ts && event.thread_ts !== event.ts) {
    return { kind: "follow-up-candidate", threadTs: event.thread_ts };
  }
  if (options.answersEveryQuestion && looksLikeQuestion(text)) return { kind: "answer" };
  return { kind: "ignore", reason: "not addressed to Folio" };
}

/** Where in the channel a shared file lives, so the reply goes into the file's thread. */
export function findFileShareThread(file: SlackFileObject, channelId: string): string | null {
  const shares = file.shares?.public?.[channelId] ?? file.shares?.private?.[channelId];
  const share = shares?.[0];
  if (!share) return null;
  return share.thread_ts ?? share.ts;
}
