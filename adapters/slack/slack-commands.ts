/**
 * The `/folio` slash command: `help`, `docs` (what this conversation's space holds), `forget <doc>`
 * (only the uploader or a configured admin), and `answer-all on|off` (the per-channel mode in which
 * Folio answers every question, not only mentions; kept in the database when there is one), and
 * `answers list|remove <id>` (the space's approved answers; `answers add` and `questionnaire` need the
 * shared file, so the adapter runs them). Parsing and replies are pure; the handler takes the core and a
 * channel-mode store so it can be tested with fakes.
 */
import { findDocuments } from "../../src/domain/find-documents.js";
import type { DocumentRecord, SpaceId } from "../../src/domain/types.js";
import type { FolioCore } from "../../src/folio-core.js";
import { formatApprovedAnswerList } from "./slack-approved-answers.js";
import { escapeDocumentText, escapeMrkdwn } from "./slack-message-format.js";

export type FolioCommand =
  | { name: "help" }
  | { name: "docs" }
  | { name: "forget"; target: string }
  | { name: "answer-all"; enabled: boolean }
  /** Answer the most recent file shared in the channel as a questionnaire (run by the adapter, not here). */
  | { name: "questionnaire" }
  /** Add the most recent file shared in the channel as approved answers (run by the adapter, not here). */
  | { name: "answers-add" }
  | { name: "answers-list" }
  | { name: "answers-remove"; id: string }
  | { name: "unknown"; input: string };

export function parseFolioCommand(text: string): FolioCommand {
  const trimmed = text.trim();
  const [word = "", ...rest] = trimmed.split(/\s+/);
  const argument = rest.join(" ").trim();
  switch (word.toLowerCase()) {
    case "":
    case "help":
      return { name: "help" };
    case "docs":
    case "list":
      return { name: "docs" };
    case "questionnaire":
    case "rfp":
      return { name: "questionnaire" };
    case "answers": {
      const [first = "", ...others] = argument.split(/\s+/);
      const action = first.toLowerCase() || "list";
      const target = others.join(" ").trim();
      if (action === "add" && !target) return { name: "answers-add" };
      if (action === "list" && !target) return { name: "answers-list" };
      if (action === "remove" && target) return { name: "answers-remove", id: target };
      return { name: "unknown", input: trimmed };
    }
    case "forget":
      return argument ? { name: "forget", target: argument } : { name: "unknown", input: trimmed };
    case "answer-all": {
      const value = argument.toLowerCase();
      if (value === "on" || value === "off") return { name: "answer-all", enabled: value === "on" };
      return { name: "unknown", input: trimmed };
    }
    default:
      return { name: "unknown", input: trimmed };
  }
}

export const HELP_TEXT = [
  "*Folio answers questions from the documents shared with it.*",
  "• Mention me with a question in a channel; reply in my thread to follow up without mentioning me.",
  "• Send me a direct message to ask privately (your own documents).",
  "• Open me from Slack's AI apps panel beside any channel: I search your files, the library and that channel if you are in it.",
  "• In a group DM, mention me; files shared there stay in that conversation.",
  "• Share a PDF, Word (.docx), Excel (.xlsx or .xls), CSV or text file here and I index it for this channel.",
  "• `/folio docs` — documents in this conversation",
  "• `/folio forget <file name or id>` — remove a document (uploader or admin only)",
  "• `/folio answer-all on|off` — answer every question in this channel, not only mentions",
  "• `/folio questionnaire` — answer the most recent questionnaire (XLSX, CSV or DOCX) shared here; or say “answer this questionnaire” in the file's thread",
  "• `/folio answers add` — add the most recent completed questionnaire shared here as approved answers; or say “add these as approved answers” in the file's thread",
  "• `/folio answers list` · `/folio answers remove <id>` — the approved answers here",
].join("\n");

/** Remembers which channels answer every question. Off unless turned on. */
export interface ChannelModeStore {
  answersEveryQuestion(channelKey: string): Promise<boolean>;
  setAnswersEveryQuestion(channelKey: string, enabled: boolean): Promise<void>;
}

/** Process-local, for tests and tools without a database: a restart returns every channel to mentions-only. */
export function createMemoryChannelModeStore(): ChannelModeStore {
  const enabled = new Set<string>();
  return {
    answersEveryQuestion: async (channelKey) => enabled.has(channelKey),
    async setAnswersEveryQuestion(channelKey, value) {
      if (value) enabled.add(channelKey);
      else enabled.delete(channelKey);
    },
  };
}

/** The catalog's small key/value settings (the Catalog port satisfies it). */
export type SettingsStore = {
  getSetting(key: string): Promise<string | null>;
  setSetting(key: string, value: string | null): Promise<void>;
};

/** Setting key of a channel's answer-every-question mode. */
export function answerAllSettingKey(channelKey: string): string {
  return `slack.answer-all:${channelKey}`;
}

/**
 * Kept in the database: the mode survives restarts and every replica sees the same one. Off is stored
 * as no row, so the default stays mentions-only.
 */
export function createSettingsChannelModeStore(settings: SettingsStore): ChannelModeStore {
  return {
    answersEveryQuestion: async (channelKey) => (await settings.getSetting(answerAllSettingKey(channelKey))) === "on",
    setAnswersEveryQuestion: (channelKey, enabled) =>
      settings.setSetting(answerAllSettingKey(channelKey), enabled ? "on" : null),
  };
}

export function formatDocumentList(documents: DocumentRecord[]): string {
  if (documents.length === 0) return "No documents here yet — share a file in this conversation to add one.";
  const lines = documents.map((document) => {
    const pages =
      document.pageCount === null ? "" : `, ${document.pageCount} page${document.pageCount === 1 ? "" : "s"}`;
    return `• *${escapeDocumentText(document.title)}* (${escapeDocumentText(document.fileName)}${pages}) — \`${document.id}\``;
  });
  return [`*${documents.length} document${documents.length === 1 ? "" : "s"} here:*`, ...lines].join("\n");
}

export type CommandContext = {
  spaceId: SpaceId;
  /** Key of the channel for the answer-all mode: `<team>:<channel>`. */
  channelKey: string;
  isDirectMessage: boolean;
  userId: string;
  adminUserIds: string[];
};

/** Runs a parsed command and returns the (ephemeral) reply in mrkdwn. */
export async function runFolioCommand(
  command: FolioCommand,
  context: CommandContext,
  dependencies: {
    core: Pick<FolioCore, "listDocuments" | "deleteDocument" | "approvedAnswers">;
    channelModes: ChannelModeStore;
  },
): Promise<string> {
  switch (command.name) {
    case "help":
      return HELP_TEXT;
    case "docs":
      return formatDocumentList(await dependencies.core.listDocuments(context.spaceId));
    case "forget": {
      const matches = findDocuments(await dependencies.core.listDocuments(context.spaceId), command.target);
      const [document] = matches;
      if (!document) return `No document called “${escapeMrkdwn(command.target)}” here. \`/folio docs\` lists them.`;
      if (matches.length > 1) {
        return `Several documents are called “${escapeMrkdwn(command.target)}” — use the id from \`/folio docs\`.`;
      }
      const isAdmin = context.adminUserIds.includes(context.userId);
      if (document.uploader !== context.userId && !isAdmin) {
        return `Only the person who uploaded ${escapeDocumentText(document.fileName)} or a Folio admin can remove it.`;
      }
      const deleted = await dependencies.core.deleteDocument(document.id);
      return deleted
        ? `Removed ${escapeDocumentText(document.fileName)}; I will no longer cite it.`
        : `${escapeDocumentText(document.fileName)} was already removed.`;
    }
    case "answer-all":
      if (context.isDirectMessage) return "In a direct message I already answer every message.";
      // Where admins are configured, only they change how Folio behaves for a whole channel.
      if (context.adminUserIds.length > 0 && !context.adminUserIds.includes(context.userId)) {
        return "Only a Folio admin can change whether I answer every question here.";
      }
      await dependencies.channelModes.setAnswersEveryQuestion(context.channelKey, command.enabled);
      return command.enabled
        ? "I will answer every question asked in this channel (messages ending with “?”). `/folio answer-all off` stops it."
        : "I will answer only when mentioned in this channel.";
    case "questionnaire":
      return "Questionnaires are answered in the file's thread — share the file, then say “answer this questionnaire” there.";
    case "answers-add":
      return "Approved answers are added from a shared file — share the completed questionnaire, then run `/folio answers add`.";
    case "answers-list":
      if (!dependencies.core.approvedAnswers) return "Approved answers are not available in this Folio.";
      return formatApprovedAnswerList(await dependencies.core.approvedAnswers.list(context.spaceId));
    case "answers-remove": {
      if (!dependencies.core.approvedAnswers) return "Approved answers are not available in this Folio.";
      // Where admins are configured, only they change what a whole channel's answers lead with.
      if (
        !context.isDirectMessage &&
        context.adminUserIds.length > 0 &&
        !context.adminUserIds.includes(context.userId)
      ) {
        return "Only a Folio admin can remove an approved answer here.";
      }
      const removed = await dependencies.core.approvedAnswers.remove(context.spaceId, command.id);
      return removed
        ? `Removed approved answer \`${escapeMrkdwn(command.id)}\`.`
        : `No approved answer \`${escapeMrkdwn(command.id)}\` here — \`/folio answers list\` shows their ids.`;
    }
    case "unknown":
      return `I do not know “${escapeMrkdwn(command.input)}”.\n${HELP_TEXT}`;
  }
}
