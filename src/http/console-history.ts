/**
 * The console's thread — questions, answers with citations, upload results — kept as one JSONL file
 * per space under `<dataDir>/console/`, so the conversation survives restarts of `folio serve`.
 * Appends are serialized per file so concurrent requests never interleave half lines.
 */
import { appendFile, mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Citation, ConversationTurn } from "../answer/answer-events.js";
import type { IngestResult } from "../ingest/ingest-result.js";
import type { Logger } from "../logger.js";

export type ConsoleEntry =
  | { kind: "question"; id: string; at: string; text: string }
  | {
      kind: "answer";
      id: string;
      at: string;
      requestId: string;
      text: string;
      noContext: boolean;
      citations: Citation[];
      error?: { code: string; message: string };
    }
  | { kind: "upload"; id: string; at: string; result: IngestResult }
  /** "New conversation": earlier entries stay on disk but leave the thread and the answer context. */
  | { kind: "conversation_started"; id: string; at: string };

export type ConsoleHistory = {
  /** The entries of the current conversation (after the last "conversation_started"), oldest first. */
  readEntries(): Promise<ConsoleEntry[]>;
  appendEntry(entry: ConsoleEntry): Promise<void>;
  /** The last `turns` question/answer turns, oldest first, for the answer pipeline's context. */
  readConversation(turns: number): Promise<ConversationTurn[]>;
};

/** File name for a space id like "console:default"; anything outside [A-Za-z0-9_-] is escaped. */
export function historyFileName(spaceId: string): string {
  return `${spaceId.replace(/[^A-Za-z0-9_-]/g, (character) => `%${character.charCodeAt(0).toString(16).padStart(2, "0")}`)}.jsonl`;
}

export function createConsoleHistory(options: { dataDir: string; spaceId: string; logger: Logger }): ConsoleHistory {
  const directory = path.join(options.dataDir, "console");
  const file = path.join(directory, historyFileName(options.spaceId));
  let pending: Promise<void> = Promise.resolve();

  const readAllEntries = async (): Promise<ConsoleEntry[]> => {
    await pending;
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    const entries: ConsoleEntry[] = [];
    for (const [index, line] of text.split("\n").entries()) {
      if (line.trim() === "") continue;
      try {
        entries.push(JSON.parse(line) as ConsoleEntry);
      } catch {
        // A crash mid-append can leave one torn line; keep the rest of the thread readable.
        options.logger.warn({ file, line: index + 1 }, "skipping unreadable console history line");
      }
    }
    return entries;
  };

  const readEntries = async (): Promise<ConsoleEntry[]> => {
    const entries = await readAllEntries();
    const start = entries.findLastIndex((entry) => entry.kind === "conversation_started");
    return entries.slice(start + 1);
  };

  return {
    readEntries,
    appendEntry(entry) {
      const write = pending.then(async () => {
        await mkdir(directory, { recursive: true });
        await appendFile(file, `${JSON.stringify(entry)}\n`, "utf8");
      });
      pending = write.catch(() => undefined);
      return write;
    },
    async readConversation(turns) {
      const conversation: ConversationTurn[] = [];
      for (const entry of await readEntries()) {
        if (entry.kind === "question") conversation.push({ role: "user", text: entry.text });
        if (entry.kind === "answer" && !entry.error) conversation.push({ role: "assistant", text: entry.text });
      }
      return conversation.slice(-turns * 2);
    },
  };
}
