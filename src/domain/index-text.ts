/**
 * The text a chunk is indexed by (BM25 terms and embedding): the chunk's own text under a short
 * contextual header — the document's title, its file name when that says something else, and the
 * chunk's section path. A page of a benefits booklet rarely names the plan, the company or the year
 * it belongs to; its document does. Quotes, citations and provenance keep using the chunk's own text.
 */
import type { ChunkDraft } from "./types.js";

export type IndexedDocument = { title: string; fileName: string };

/** A document as it is stored and indexed: under its own title, or its file name where it has none. */
export function indexedDocument(parsedTitle: string, fileName: string): IndexedDocument {
  return { title: parsedTitle || fileName, fileName };
}

/** "Northwind_Standard_Benefits_Details.pdf" → "Northwind Standard Benefits Details". */
export function readableFileName(fileName: string): string {
  return fileName
    .replace(/\.[A-Za-z0-9]{1,5}$/, "")
    .replace(/[_]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function normalized(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

export function contextualHeader(document: IndexedDocument, chunk: Pick<ChunkDraft, "provenance">): string {
  const parts: string[] = [];
  const seen = new Set<string>();
  const add = (part: string | undefined) => {
    const text = part?.replace(/\s+/g, " ").trim();
    if (!text) return;
    const key = normalized(text);
    if (key.length === 0 || seen.has(key)) return;
    seen.add(key);
    parts.push(text);
  };
  add(document.title);
  add(readableFileName(document.fileName));
  for (const heading of chunk.provenance.headingPath ?? []) add(heading);
  if (chunk.provenance.sheet) add(chunk.provenance.sheet);
  return parts.join(" — ");
}

export function indexTextOf(document: IndexedDocument, chunk: Pick<ChunkDraft, "text" | "provenance">): string {
  const header = contextualHeader(document, chunk);
  return header ? `${header}\n${chunk.text}` : chunk.text;
}
