/**
 * Commands typed to Folio in Teams (`help`, `docs`, `forget <doc>`), the counterpart of Slack's
 * `/folio`: a message that is exactly one of them is a command, anything else is a question. Only the
 * person who uploaded a document, or an admin (FOLIO_TEAMS_ADMINS, Entra object ids), may forget it.
 */
import { findDocuments } from "../../src/domain/find-documents.js";
import type { DocumentRecord, SpaceId } from "../../src/domain/types.js";
import type { FolioCore } from "../../src/folio-core.js";
import { literalDocumentText } from "./teams-message-format.js";

export type TeamsCommand = { name: "help" } | { name: "docs" } | { name: "forget"; target: string };

/** The command a message is, or null when it is a question. */
export function parseTeamsCommand(text: string): TeamsCommand | null {
  const trimmed = text.trim().replace(/^\/+/, "");
  const [word = "", ...rest] = trimmed.split(/\s+/);
  const argument = rest.join(" ").trim();
  const name = word.toLowerCase();
  if ((name === "help" || name === "docs" || name === "list") && argument === "") {
    return name === "help" ? { name: "help" } : { name: "docs" };
  }
  if (name === "forget" && argument) return { name: "forget", target: argument };
  return null;
}

export function buildHelpText(options: { kind: "personal" | "groupChat" | "channel"; uploadCode: string | null }) {
  const lines = [
    "**Folio answers questions from the documents shared with it.**",
    "- In a channel or group chat, mention me with a question; mention me again in the thread to follow up.",
    "- In this 1:1 chat every message is a question about your own documents; send me a PDF, Word (.docx), Excel (.xlsx or .xls), CSV or text file to add it.",
    "- `docs` lists the documents here; `forget <file name or id>` removes one (uploader or admin only).",
    "- In a 1:1 chat with me, send a questionnaire (XLSX, CSV or DOCX) with “answer this questionnaire” to get it filled; say “cancel” to stop; send a completed one with “add these as approved answers” to reuse its answers.",
  ];
  if (options.uploadCode) {
    lines.push(
      `- To add a document here, send it to me in a 1:1 chat with the message \`channel ${options.uploadCode}\`.`,
    );
  }
  return lines.join("\n");
}

export function formatDocumentList(documents: DocumentRecord[]): string {
  if (documents.length === 0) return "No documents here yet.";
  const lines = documents.map((document) => {
    const pages =
      document.pageCount === null ? "" : `, ${document.pageCount} page${document.pageCount === 1 ? "" : "s"}`;
    return `- **${literalDocumentText(document.title)}** (${literalDocumentText(document.fileName)}${pages}) — \`${document.id}\``;
  });
  return [`**${documents.length} document${documents.length === 1 ? "" : "s"} here:**`, ...lines].join("\n");
}

export type TeamsCommandContext = {
  spaceId: SpaceId;
  kind: "personal" | "groupChat" | "channel";
  userId: string;
  adminUserIds: string[];
  uploadCode: string | null;
};

/** Runs a command and returns the reply (Teams markdown). */
export async function runTeamsCommand(
  command: TeamsCommand,
  context: TeamsCommandContext,
  core: Pick<FolioCore, "listDocuments" | "deleteDocument">,
): Promise<string> {
  switch (command.name) {
    case "help":
      return buildHelpText({ kind: context.kind, uploadCode: context.uploadCode });
    case "docs": {
      const list = formatDocumentList(await core.listDocuments(context.spaceId));
      return context.uploadCode
        ? `${list}\n\nTo add one, send it to me in a 1:1 chat with the message \`channel ${context.uploadCode}\`.`
        : list;
    }
    case "forget": {
      const matches = findDocuments(await core.listDocuments(context.spaceId), command.target);
      const [document] = matches;
      if (!document) return `No document called “${command.target}” here. \`docs\` lists them.`;
      if (matches.length > 1) return `Several documents are called “${command.target}” — use the id from \`docs\`.`;
      const allowed = document.uploader === context.userId || context.adminUserIds.includes(context.userId);
      if (!allowed)
        return `Only the person who uploaded ${literalDocumentText(document.fileName)} or a Folio admin can remove it.`;
      await core.deleteDocument(document.id);
      return `Removed ${literalDocumentText(document.fileName)}; I will no longer cite it.`;
    }
  }
}
