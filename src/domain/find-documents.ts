/** Which of a space's documents a person means when they name one in a chat command. */
import type { DocumentRecord } from "./types.js";

/** The document by id; otherwise every one whose file name or title matches (case-insensitive, backticks ignored). */
export function findDocuments(documents: DocumentRecord[], target: string): DocumentRecord[] {
  const wanted = target.trim().replace(/^`|`$/g, "").toLowerCase();
  const byId = documents.filter((document) => document.id.toLowerCase() === wanted);
  if (byId.length > 0) return byId;
  return documents.filter(
    (document) => document.fileName.toLowerCase() === wanted || document.title.toLowerCase() === wanted,
  );
}
