/**
 * What a table's row includes, when the table says it in a footnote: "Service delivery costs(1)" with
 * "(1) Include cost of equipment sold, content and programming costs, …" below the table. A question about
 * what a line item includes, consists of or represents is answered by the note its row points to, in the
 * same document.
 */
import { splitSentences } from "../../../../ingestion/split-sentences.js";
import type { QuotedPassage } from "../../citations/citations.js";
import type { NumberedSource } from "../../generate/generator.js";
import { uniqueTerms } from "../sentence-scoring.js";
import { readTableGrid } from "./table-grid.js";

/** "What is included in X?", "What does X include / consist of / comprise / represent?" — X. */
const ASKS_WHAT_ROW_HOLDS =
  /^\s*what\s+(?:is|are|was|were)\s+(?:included|includ)\s+in\s+(?:the\s+)?(.+?)\??\s*$|^\s*what\s+(?:does|do|did)\s+(?:the\s+)?(.+?)\s+(?:include|consist\s+of|comprise(?:\s+of)?|represent|refer\s+to|cover)\??\s*$/i;
/** A footnote marker at the end of a row's label: "(1)", "(a)", "[2]", "*". */
const MARKER = /\s*(\((?:\d{1,2}|[a-z])\)|\[\d{1,2}\]|\*{1,3})\s*$/i;

export type RowFootnote = { source: NumberedSource; passage: QuotedPassage };

export function findRowFootnote(question: string, sources: readonly NumberedSource[]): RowFootnote | null {
  const asked = ASKS_WHAT_ROW_HOLDS.exec(question);
  const subject = asked?.[1] ?? asked?.[2];
  if (subject === undefined) return null;
  const subjectTerms = uniqueTerms(subject);
  if (subjectTerms.size === 0) return null;
  for (const source of sources) {
    const grid = readTableGrid(source.result);
    if (grid === null) continue;
    for (const row of grid.rows) {
      const marker = MARKER.exec(row.label)?.[1];
      if (marker === undefined) continue;
      const label = uniqueTerms(row.label.replace(MARKER, ""));
      if (![...subjectTerms].every((term) => label.has(term)) || label.size > subjectTerms.size + 1) continue;
      const note = noteIn(sources, source.result.documentId, marker);
      if (note !== null) return note;
    }
  }
  return null;
}

/** The sentence of the document's prose that starts with the marker: the row's note. */
function noteIn(sources: readonly NumberedSource[], documentId: string, marker: string): RowFootnote | null {
  for (const source of sources) {
    if (source.result.documentId !== documentId || source.result.kind === "table") continue;
    const { text } = source.result;
    for (const { start, end } of splitSentences(text)) {
      const sentence = text.slice(start, end);
      const offset = sentence.length - sentence.trimStart().length;
      if (!sentence.trimStart().startsWith(marker)) continue;
      return { source, passage: { text: sentence.trim(), start: start + offset, end } };
    }
  }
  return null;
}
