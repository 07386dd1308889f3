/**
 * Picks the sentence of a text that best supports a claim (a question, or an answer sentence), by
 * overlap of analyzed terms. Shared by the extractive generator (what to quote) and the citation
 * builder (which sentence a citation quotes), so both agree.
 */
import { TABLE_CELL_SEPARATOR } from "../../../ingestion/chunker.js";
import { type SentenceRange, splitSentences } from "../../../ingestion/split-sentences.js";
import type { Provenance, SearchResult } from "../../domain/types.js";
import { analyzeText } from "../../retrieval/text-analyzer.js";

export type ScoredSentence = { text: string; start: number; end: number; score: number };

const MAX_SENTENCE_CHARACTERS = 400;

export function uniqueTerms(text: string): Set<string> {
  return new Set(analyzeText(text));
}

/**
 * Words that shape a question but say nothing about its subject. The BM25 analyzer keeps most of them
 * (Lucene's short stop list), and left in they let "employees can choose…" outrank "employees may
 * expense up to $1000…" for "How much can employees expense?".
 */
const QUESTION_WORDS = uniqueTerms(
  "how much many can could would should will shall may might must do does did what which who whom whose when where why is are was were am be been has have had i we you me us my our your please tell know",
);

/** The question's terms less its question words; all its terms when nothing else is left ("What is it?"). */
export function contentTerms(question: string): Set<string> {
  const terms = uniqueTerms(question);
  const content = new Set([...terms].filter((term) => !QUESTION_WORDS.has(term)));
  return content.size > 0 ? content : terms;
}

/** A "sentence" this short is a run-in heading or label ("Rapid elasticity."): it is quoted with what follows. */
const MIN_SENTENCE_WORDS = 4;

function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== "").length;
}

/**
 * Sentence ranges with each too-short fragment joined to the sentence after it, and a sentence that only
 * introduces what follows ("The decrease … was primarily due to:") joined to it: the answer is after the colon.
 */
function quotableSentences(text: string): SentenceRange[] {
  const merged: SentenceRange[] = [];
  let pendingStart: number | null = null;
  for (const range of splitSentences(text)) {
    const start: number = pendingStart ?? range.start;
    // …on the same line or paragraph: after a line break a colon introduces a table or list set apart.
    const introduces =
      /:\s*$/.test(text.slice(start, range.end)) &&
      range.end < text.trimEnd().length &&
      !/^[^\S\n]*\n/.test(text.slice(range.end));
    if (wordCount(text.slice(start, range.end)) < MIN_SENTENCE_WORDS || introduces) {
      pendingStart = start;
      continue;
    }
    merged.push({ start, end: range.end });
    pendingStart = null;
  }
  if (pendingStart !== null) merged.push({ start: pendingStart, end: text.trimEnd().length });
  return merged;
}

/**
 * Sentences of `text` ranked by the claim terms they contain — each term counts its weight (1 unless
 * `termWeights` gives one), so a rare, specific term can outweigh a word every source shares. Ties:
 * earlier first.
 */
export function rankSentences(
  text: string,
  claimTerms: Set<string>,
  termWeights?: ReadonlyMap<string, number>,
): ScoredSentence[] {
  return quotableSentences(text)
    .map((range) => {
      const sentence = text.slice(range.start, range.end);
      const terms = uniqueTerms(sentence);
      let matched = 0;
      for (const term of claimTerms) if (terms.has(term)) matched += termWeights?.get(term) ?? 1;
      // Very long "sentences" (tables, lists flattened by PDF extraction) are penalised: they make poor quotes.
      const lengthPenalty = sentence.length > MAX_SENTENCE_CHARACTERS ? 0.5 : 1;
      return { text: sentence, start: range.start, end: range.end, score: matched * lengthPenalty };
    })
    .sort((left, right) => right.score - left.score || left.start - right.start);
}

/** The [start, end) range of every line of `text`. */
function lineRanges(text: string): SentenceRange[] {
  const ranges: SentenceRange[] = [];
  let start = 0;
  for (const line of text.split("\n")) {
    ranges.push({ start, end: start + line.length });
    start += line.length + 1;
  }
  return ranges;
}

/** The row lines of a table chunk: its last rowEnd - rowStart + 1 lines; null when the provenance has no rows. */
function tableRowRanges(text: string, provenance: Provenance): SentenceRange[] | null {
  const { rowStart, rowEnd } = provenance;
  if (rowStart === undefined || rowEnd === undefined) return null;
  const lines = lineRanges(text);
  const rowCount = rowEnd - rowStart + 1;
  if (rowCount < 1 || rowCount > lines.length) return null;
  return lines.slice(lines.length - rowCount);
}

/** Column names longer than this are notes, not names: their cells are quoted bare. */
const MAX_COLUMN_NAME_CHARACTERS = 40;
/** A header cell that only states the unit: "(Millions)", "(in thousands, except per share data)". */
const UNIT_NOTE = /^\((?:[^()]*\b(?:millions?|thousands?|billions?|dollars|usd|percent)\b[^()]*)\)$/i;
/** A row quote longer than this keeps its first cell and the cells the claim mentions. */
const MAX_ROW_QUOTE_CHARACTERS = 200;

/** A row's cells named by their columns ("Pax: 31,557,697"), shortened to the cells that matter when long. */
function rowQuote(
  row: string,
  columns: string[] | undefined,
  claimTerms: Set<string>,
  limit = MAX_ROW_QUOTE_CHARACTERS,
): string {
  const named = columns !== undefined && columns.filter((name) => name.length > 0).length >= 2;
  const cells = row
    .split(TABLE_CELL_SEPARATOR)
    .map((cell, index) => {
      const name = named ? (columns?.[index] ?? "") : "";
      // "(Millions)" over a statement's row labels is the unit, not the label column's name.
      return cell.length > 0 && name.length > 0 && name.length <= MAX_COLUMN_NAME_CHARACTERS && !UNIT_NOTE.test(name)
        ? `${name}: ${cell}`
        : cell;
    })
    .filter((cell) => cell.length > 0);
  const whole = cells.join("; ");
  if (whole.length <= limit) return whole;
  const [first, ...rest] = cells;
  const mentioned = rest.filter((cell) => [...uniqueTerms(cell)].some((term) => claimTerms.has(term)));
  return `${[first, ...mentioned].join("; ")}; …`;
}

/** A table passage's rows, each with its cells named by their columns ("Level 5: 3.85%"), whole; null for prose. */
export function tableRows(
  result: Pick<SearchResult, "text" | "kind" | "provenance">,
): { text: string; start: number; end: number }[] | null {
  const rows = result.kind === "table" ? tableRowRanges(result.text, result.provenance) : null;
  if (rows === null) return null;
  return rows.map((range) => {
    const row = result.text.slice(range.start, range.end);
    const named = rowQuote(row, result.provenance.columns, new Set(), Number.POSITIVE_INFINITY);
    return { text: named, start: range.start, end: range.end };
  });
}

/**
 * The passages of a search result ranked for a claim: sentences of prose; rows of a table, each
 * scored with its table's title and header (the words a question names the table by) and quoted
 * with its cells named by their columns. What the extractive generator quotes and a citation shows.
 */
export function rankPassages(
  result: Pick<SearchResult, "text" | "kind" | "provenance">,
  claimTerms: Set<string>,
  termWeights?: ReadonlyMap<string, number>,
): ScoredSentence[] {
  const rows = result.kind === "table" ? tableRowRanges(result.text, result.provenance) : null;
  if (rows === null) return rankSentences(result.text, claimTerms, termWeights);
  const contextTerms = uniqueTerms(result.text.slice(0, rows[0]?.start ?? 0));
  return rows
    .map((range) => {
      const row = result.text.slice(range.start, range.end);
      const terms = new Set([...contextTerms, ...uniqueTerms(row)]);
      let score = 0;
      for (const term of claimTerms) if (terms.has(term)) score += termWeights?.get(term) ?? 1;
      return { text: rowQuote(row, result.provenance.columns, claimTerms), start: range.start, end: range.end, score };
    })
    .sort((left, right) => right.score - left.score || left.start - right.start);
}

/** A quote fit for a chat message: whitespace collapsed, cut at a word near `limit` characters. */
export function shortenQuote(text: string, limit = 200): string {
  const collapsed = text.replace(/\s+/g, " ").trim();
  if (collapsed.length <= limit) return collapsed;
  const cut = collapsed.slice(0, limit);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), limit * 0.6))}…`;
}
