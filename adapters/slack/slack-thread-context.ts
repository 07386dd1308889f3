/**
 * Turns a Slack thread (conversations.replies) into the earlier turns of a conversation for the
 * core, and tells whether Folio already answered in it (which is what makes a reply without a
 * mention a follow-up question).
 */
import type { ConversationTurn } from "../../src/answer/answer-events.js";
import { PLACEHOLDER_TEXT } from "./slack-message-format.js";

/** The fields of a Slack message this module reads. */
export type SlackThreadMessage = {
  ts?: string;
  user?: string;
  bot_id?: string;
  subtype?: string;
  text?: string;
};

export type BotIdentity = { botUserId: string | null; botId: string | null };

/** Enough turns to resolve "it"/"that one" without flooding the question rewriter. */
const DEFAULT_MAX_TURNS = 10;

export function isFromBot(message: SlackThreadMessage): boolean {
  return message.bot_id !== undefined || message.subtype === "bot_message";
}

export function isFromFolio(message: SlackThreadMessage, identity: BotIdentity): boolean {
  if (identity.botId !== null && message.bot_id === identity.botId) return true;
  return identity.botUserId !== null && message.user === identity.botUserId;
}

/** Removes `<@U123>` mentions (and the space after them) so the core sees only the question. */
export function stripMentions(text: string): string {
  return text
    .replace(/<@[A-Z0-9]+(?:\|[^>]*)?>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Slack escapes `&`, `<`, `>` in message text; the core wants the characters back. */
export function unescapeSlackText(text: string): string {
  return text.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
}

export function mentionsUser(text: string | undefined, userId: string | null): boolean {
  if (!text || userId === null) return false;
  return text.includes(`<@${userId}>`) || text.includes(`<@${userId}|`);
}

export function threadHasFolioReply(messages: SlackThreadMessage[], identity: BotIdentity): boolean {
  return messages.some((message) => isFromFolio(message, identity));
}

/**
 * Earlier turns of the thread, oldest first: people's messages as `user`, Folio's as `assistant`.
 * Other bots, Folio's placeholders and anything at or after the current message are left out.
 */
export function buildThreadHistory(
  messages: SlackThreadMessage[],
  options: BotIdentity & { currentTs: string; maxTurns?: number },
): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  const current = Number(options.currentTs);
  for (const message of messages) {
    if (message.ts === undefined || Number(message.ts) >= current) continue;
    const text = message.text ?? "";
    if (isFromFolio(message, options)) {
      if (text && text !== PLACEHOLDER_TEXT) turns.push({ role: "assistant", text: unescapeSlackText(text) });
      continue;
    }
    if (isFromBot(message) || (message.subtype !== undefined && message.subtype !== "thread_broadcast")) continue;
    const question = unescapeSlackText(stripMentions(text));
    if (question) turns.push({ role: "user", text: question });
  }
  return turns.slice(-(options.maxTurns ?? DEFAULT_MAX_TURNS));
}
