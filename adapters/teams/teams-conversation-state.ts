/**
 * What the Teams adapter remembers between activities, kept in the catalog's key/value settings so it
 * survives restarts and holds across replicas: the turns of each channel thread (a bot cannot read a
 * thread's history from the Bot Connector, so Folio keeps the questions it was asked and its answers),
 * which answer each sent message carries (the feedback loop only names the message), and the upload
 * code of each channel (files are added to a channel by sending them in a 1:1 chat with that code).
 */
import { randomInt } from "node:crypto";
import type { ConversationTurn } from "../../src/answer/answer-events.js";
import type { SpaceId } from "../../src/domain/types.js";

/** The catalog's key/value settings (the Catalog port satisfies it). */
export type SettingsStore = {
  getSetting(key: string): Promise<string | null>;
  setSetting(key: string, value: string | null): Promise<void>;
};

/** Enough turns to resolve "it"/"that one" without flooding the question rewriter. */
const MAX_TURNS = 10;
/** No 0/O or 1/I: the code is read off a screen and typed. */
const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const CODE_LENGTH = 6;

export type AnsweredMessage = { answerId: string; spaceId: SpaceId };

export type ChannelTarget = { spaceId: SpaceId; label: string };

function parseJson<T>(raw: string | null, isValid: (value: unknown) => value is T): T | null {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return isValid(value) ? value : null;
  } catch {
    return null;
  }
}

const isTurns = (value: unknown): value is ConversationTurn[] =>
  Array.isArray(value) &&
  value.every(
    (turn) =>
      typeof turn === "object" &&
      turn !== null &&
      ((turn as ConversationTurn).role === "user" || (turn as ConversationTurn).role === "assistant") &&
      typeof (turn as ConversationTurn).text === "string",
  );

const isAnsweredMessage = (value: unknown): value is AnsweredMessage =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as AnsweredMessage).answerId === "string" &&
  typeof (value as AnsweredMessage).spaceId === "string";

const isChannelTarget = (value: unknown): value is ChannelTarget =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as ChannelTarget).spaceId === "string" &&
  typeof (value as ChannelTarget).label === "string";

export function createTeamsConversationState(settings: SettingsStore) {
  const threadKey = (conversationId: string) => `teams.thread:${conversationId}`;
  const messageKey = (conversationId: string, messageId: string) => `teams.answer:${conversationId}:${messageId}`;
  const codeKey = (code: string) => `teams.upload-code:${code}`;
  const channelCodeKey = (spaceId: SpaceId) => `teams.upload-code-of:${spaceId}`;

  return {
    /** Earlier turns of a channel thread, oldest first. */
    async threadTurns(conversationId: string): Promise<ConversationTurn[]> {
      return parseJson(await settings.getSetting(threadKey(conversationId)), isTurns) ?? [];
    },

    async appendThreadTurns(conversationId: string, turns: ConversationTurn[]): Promise<void> {
      const kept = [...(await this.threadTurns(conversationId)), ...turns].slice(-MAX_TURNS);
      await settings.setSetting(threadKey(conversationId), JSON.stringify(kept));
    },

    async rememberAnswerMessage(conversationId: string, messageId: string, answer: AnsweredMessage): Promise<void> {
      await settings.setSetting(messageKey(conversationId, messageId), JSON.stringify(answer));
    },

    async answerForMessage(conversationId: string, messageId: string): Promise<AnsweredMessage | null> {
      return parseJson(await settings.getSetting(messageKey(conversationId, messageId)), isAnsweredMessage);
    },

    /** The channel's upload code, made once and kept: people may reuse an older message's code. */
    async uploadCodeFor(target: ChannelTarget): Promise<string> {
      const existing = await settings.getSetting(channelCodeKey(target.spaceId));
      if (existing) return existing;
      let code = "";
      for (let attempt = 0; attempt < 5; attempt++) {
        code = Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join("");
        if ((await settings.getSetting(codeKey(code))) === null) break;
      }
      await settings.setSetting(codeKey(code), JSON.stringify(target));
      await settings.setSetting(channelCodeKey(target.spaceId), code);
      return code;
    },

    async channelForCode(code: string): Promise<ChannelTarget | null> {
      return parseJson(await settings.getSetting(codeKey(code.toUpperCase())), isChannelTarget);
    },
  };
}

export type TeamsConversationState = ReturnType<typeof createTeamsConversationState>;

/** `channel ABC234` (or `for channel ABC234`) in the message that carries a 1:1 upload. */
export function readUploadCode(text: string): string | null {
  const match = /\bchannel\s+([A-Za-z0-9]{6})\b/i.exec(text);
  return match?.[1] ? match[1].toUpperCase() : null;
}
