/**
 * Splits a parsed document into chunks that fit the embedding model's token budget and know exactly
 * where they came from. Structure first: sections (a heading starts a new chunk), then paragraphs,
 * sentences, words and, for monstrous tokens, characters. Text chunks are exact slices of the source,
 * located by offsets carried from the parser (never by searching for the text afterwards). Tables
 * become their own chunks, split by rows with the header repeated in every piece.
 *
 * Pure: the length function is injected. Token counts of whitespace-separated pieces add up under
 * WordPiece-style tokenizers (they split on whitespace first), so packing sums piece counts and each
 * finished chunk is measured once more to be sure.
 */
import type { ChunkDraft, PageText, Provenance } from "../src/domain/types.js";
import { FolioError } from "../src/errors.js";
import type { ParsedDocument, TableBlock, TextBlock } from "./parsed-document.js";
import { splitSentences } from "./split-sentences.js";
import type { TokenCounter } from "./token-counter.js";

export type ChunkingOptions = {
  /** Most tokens per chunk, special tokens included. */
  maxTokens: number;
  /** Tokens of the previous chunk's tail repeated at the start of the next one (same section only). */
  overlapTokens: number;
  tokenCounter: TokenCounter;
};

/** A piece of a flow's source text, [start, end) offsets, with its token count without special tokens. */
type Piece = { start: number; end: number; tokens: number };

/** A run of text chunked as one: a PDF's whole text, or one section of another format. */
type Flow = { source: string; pieces: Array<{ start: number; end: number }>; headingPath: string[] };

type Measure = { count(text: string): number; specialTokens: number; budget: number };

const PARAGRAPH_BREAK = /\n[ \t]*\n/g;
const WORD = /\S+/g;
const TABLE_CELL_SEPARATOR = " | ";
const TRUNCATION_MARK = " …[truncated]";

function validateOptions(options: ChunkingOptions): void {
  const { maxTokens, overlapTokens } = options;
  if (!Number.isInteger(maxTokens) || maxTokens < 8) {
    throw new FolioError("invalid_chunking", `maxTokens must be an integer of at least 8 (got ${maxTokens}).`);
  }
  if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens >= maxTokens) {
    throw new FolioError(
      "invalid_chunking",
      `overlapTokens must be 0 or more and below maxTokens (got ${overlapTokens}).`,
    );
  }
}

/** Offsets of non-blank runs of `text` between matches of `separator`, shifted by `offset`. */
function splitRanges(text: string, offset: number, separator: RegExp): Array<{ start: number; end: number }> {
  const ranges: Array<{ start: number; end: number }> = [];
  let cursor = 0;
  const pushTrimmed = (from: number, to: number) => {
    const slice = text.slice(from, to);
    const leading = slice.length - slice.trimStart().length;
    const trimmed = slice.trim();
    if (trimmed.length > 0)
      ranges.push({ start: offset + from + leading, end: offset + from + leading + trimmed.length });
  };
  for (const match of text.matchAll(separator)) {
    pushTrimmed(cursor, match.index);
    cursor = match.index + match[0].length;
  }
  pushTrimmed(cursor, text.length);
  return ranges;
}

/** Breaks a range into pieces that each fit the budget: paragraphs, then sentences, words, characters. */
function toPieces(source: string, range: { start: number; end: number }, measure: Measure, level = 0): Piece[] {
  const text = source.slice(range.start, range.end);
  const tokens = measure.count(text) - measure.specialTokens;
  if (tokens <= measure.budget) return [{ ...range, tokens }];
  let parts: Array<{ start: number; end: number }>;
  if (level === 0) parts = splitRanges(text, range.start, PARAGRAPH_BREAK);
  else if (level === 1)
    parts = splitSentences(text).map((sentence) => ({
      start: range.start + sentence.start,
      end: range.start + sentence.end,
    }));
  else if (level === 2)
    parts = [...text.matchAll(WORD)].map((word) => ({
      start: range.start + word.index,
      end: range.start + word.index + word[0].length,
    }));
  else return splitCharacters(source, range, measure);
  if (parts.length <= 1) return toPieces(source, range, measure, level + 1);
  return parts.flatMap((part) => toPieces(source, part, measure, level + 1));
}

/** Last resort for a single token-dense word (a hash, base64): fixed character windows that fit. */
function splitCharacters(source: string, range: { start: number; end: number }, measure: Measure): Piece[] {
  const pieces: Piece[] = [];
  let start = range.start;
  while (start < range.end) {
    let end = Math.min(range.end, start + measure.budget);
    let tokens = measure.count(source.slice(start, end)) - measure.specialTokens;
    while (tokens > measure.budget && end - start > 1) {
      end = start + Math.max(1, Math.floor((end - start) / 2));
      tokens = measure.count(source.slice(start, end)) - measure.specialTokens;
    }
    pieces.push({ start, end, tokens });
    start = end;
  }
  return pieces;
}

/** Start offset of the longest tail of source[start, end) made of whole words within `overlapTokens`. */
function overlapStart(
  source: string,
  start: number,
  end: number,
  overlapTokens: number,
  measure: Measure,
): { start: number; tokens: number } | null {
  if (overlapTokens === 0) return null;
  const words = [...source.slice(start, end).matchAll(WORD)];
  let tokens = 0;
  let chosen: { start: number; tokens: number } | null = null;
  for (let index = words.length - 1; index > 0; index -= 1) {
    const word = words[index];
    if (!word) break;
    tokens += measure.count(word[0]) - measure.specialTokens;
    if (tokens > overlapTokens) break;
    chosen = { start: start + word.index, tokens };
  }
  return chosen;
}

/** Packs a flow's pieces greedily into [start, end) spans within the budget, with overlap. */
function packFlow(flow: Flow, measure: Measure, overlapTokens: number): Array<{ start: number; end: number }> {
  const pieces = flow.pieces.flatMap((range) => toPieces(flow.source, range, measure));
  const spans: Array<{ start: number; end: number }> = [];
  let index = 0;
  let carried: { start: number; tokens: number } | null = null;
  while (index < pieces.length) {
    const first = pieces[index] as Piece;
    let start = first.start;
    let tokens = first.tokens;
    if (carried && carried.tokens + first.tokens <= measure.budget) {
      start = carried.start;
      tokens += carried.tokens;
    }
    let last = index;
    while (last + 1 < pieces.length && tokens + (pieces[last + 1] as Piece).tokens <= measure.budget) {
      last += 1;
      tokens += (pieces[last] as Piece).tokens;
    }
    // Sums can be off where pieces touch without whitespace; measure the real slice and back off.
    let end = (pieces[last] as Piece).end;
    while (measure.count(flow.source.slice(start, end)) > measure.budget + measure.specialTokens && last > index) {
      last -= 1;
      end = (pieces[last] as Piece).end;
    }
    if (measure.count(flow.source.slice(start, end)) > measure.budget + measure.specialTokens) start = first.start;
    spans.push({ start, end });
    index = last + 1;
    carried = overlapStart(flow.source, start, end, overlapTokens, measure);
  }
  return spans;
}

/** Global offsets of each page in the PDF's text, pages joined with "\n". */
function pageOffsets(pages: PageText[]): number[] {
  const offsets: number[] = [];
  let offset = 0;
  for (const page of pages) {
    offsets.push(offset);
    offset += page.text.length + 1;
  }
  return offsets;
}

/** 0-based index of the page holding global offset `position`. */
function pageIndexAt(offsets: number[], position: number): number {
  let low = 0;
  let high = offsets.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((offsets[middle] ?? 0) <= position) low = middle;
    else high = middle - 1;
  }
  return low;
}

function pdfFlow(document: ParsedDocument, pages: PageText[], offsets: number[]): Flow {
  const source = pages.map((page) => page.text).join("\n");
  const pieces = document.blocks
    .filter((block): block is TextBlock => block.kind === "text" && block.page !== undefined)
    .flatMap((block) => {
      const pageIndex = (block.page ?? 1) - 1;
      const start = (offsets[pageIndex] ?? 0) + (block.charStart ?? 0);
      return splitRanges(block.text, start, PARAGRAPH_BREAK);
    });
  return { source, pieces, headingPath: [] };
}

function sameHeading(left: string[], right: string[]): boolean {
  return left.length === right.length && left.every((part, index) => part === right[index]);
}

/** Sections of a non-PDF document: a heading, or a change of heading path, starts a new flow. */
function sectionFlows(blocks: TextBlock[]): Flow[] {
  const flows: Flow[] = [];
  let current: { texts: string[]; headingPath: string[] } | null = null;
  const finish = () => {
    if (!current || current.texts.length === 0) return;
    const source = current.texts.join("\n\n");
    flows.push({ source, pieces: splitRanges(source, 0, PARAGRAPH_BREAK), headingPath: current.headingPath });
  };
  for (const block of blocks) {
    if (block.text.trim().length === 0) continue;
    if (!current || block.isHeading || !sameHeading(current.headingPath, block.headingPath)) {
      finish();
      current = { texts: [], headingPath: block.headingPath };
    }
    current.texts.push(block.text);
  }
  finish();
  return flows;
}

function renderRow(cells: string[]): string {
  return cells.map((cell) => cell.replace(/\s+/g, " ").trim()).join(TABLE_CELL_SEPARATOR);
}

/** Shortens a row line word by word until it fits `budget` tokens, and marks it as truncated. */
function truncateRow(line: string, budget: number, measure: Measure): string {
  const words = line.split(" ");
  let kept = words.length;
  let candidate = line;
  while (kept > 1) {
    kept = Math.max(1, Math.floor(kept * 0.8));
    candidate = `${words.slice(0, kept).join(" ")}${TRUNCATION_MARK}`;
    if (measure.count(candidate) - measure.specialTokens <= budget) return candidate;
  }
  return splitCharacters(candidate, { start: 0, end: candidate.length }, measure)[0]
    ? candidate.slice(0, budget)
    : candidate;
}

function tableChunks(
  block: TableBlock,
  measure: Measure,
): Array<{ text: string; provenance: Provenance; tokens: number }> {
  const prefixLines = [block.sheet ? `Sheet: ${block.sheet}` : null, renderRow(block.header)].filter(
    (line): line is string => line !== null,
  );
  let prefix = prefixLines.join("\n");
  let prefixTokens = measure.count(prefix) - measure.specialTokens;
  // A header wider than half the budget is shortened so every piece still has room for rows.
  if (prefixTokens > measure.budget / 2) {
    prefix = truncateRow(prefix, Math.floor(measure.budget / 2), measure);
    prefixTokens = measure.count(prefix) - measure.specialTokens;
  }
  const rowBudget = measure.budget - prefixTokens;
  const rows = block.rows.map((cells, index) => {
    let line = renderRow(cells);
    let tokens = measure.count(line) - measure.specialTokens;
    if (tokens > rowBudget) {
      line = truncateRow(line, rowBudget, measure);
      tokens = measure.count(line) - measure.specialTokens;
    }
    return { line, tokens, row: block.firstRow + index };
  });
  const chunks: Array<{ text: string; provenance: Provenance; tokens: number }> = [];
  let index = 0;
  while (index < rows.length) {
    const group = [rows[index] as (typeof rows)[number]];
    let tokens = prefixTokens + group[0]!.tokens;
    while (index + group.length < rows.length && tokens + (rows[index + group.length]?.tokens ?? 0) <= measure.budget) {
      const next = rows[index + group.length] as (typeof rows)[number];
      group.push(next);
      tokens += next.tokens;
    }
    const provenance: Provenance = {
      ...(block.page !== undefined ? { pageStart: block.page, pageEnd: block.page } : {}),
      ...(block.headingPath.length > 0 ? { headingPath: block.headingPath } : {}),
      ...(block.sheet !== undefined ? { sheet: block.sheet } : {}),
      rowStart: group[0]!.row,
      rowEnd: group[group.length - 1]!.row,
    };
    chunks.push({ text: [prefix, ...group.map((row) => row.line)].join("\n"), provenance, tokens });
    index += group.length;
  }
  return chunks;
}

export function chunkDocument(document: ParsedDocument, options: ChunkingOptions): ChunkDraft[] {
  validateOptions(options);
  const specialTokens = options.tokenCounter.count("");
  const measure: Measure = {
    count: (text) => options.tokenCounter.count(text),
    specialTokens,
    budget: options.maxTokens - specialTokens,
  };
  const drafts: Array<Omit<ChunkDraft, "position">> = [];
  const textBlocks = document.blocks.filter((block): block is TextBlock => block.kind === "text");

  if (document.pages) {
    const offsets = pageOffsets(document.pages);
    const flow = pdfFlow(document, document.pages, offsets);
    for (const span of packFlow(flow, measure, options.overlapTokens)) {
      const startPage = pageIndexAt(offsets, span.start);
      const endPage = pageIndexAt(offsets, span.end - 1);
      const text = flow.source.slice(span.start, span.end);
      drafts.push({
        kind: "text",
        text,
        tokenCount: measure.count(text),
        provenance: {
          pageStart: startPage + 1,
          pageEnd: endPage + 1,
          charStart: span.start - (offsets[startPage] ?? 0),
          charEnd: span.end - (offsets[endPage] ?? 0),
        },
      });
    }
  } else {
    for (const flow of sectionFlows(textBlocks)) {
      for (const span of packFlow(flow, measure, options.overlapTokens)) {
        const text = flow.source.slice(span.start, span.end);
        drafts.push({
          kind: "text",
          text,
          tokenCount: measure.count(text),
          provenance: flow.headingPath.length > 0 ? { headingPath: flow.headingPath } : {},
        });
      }
    }
  }
  for (const block of document.blocks) {
    if (block.kind !== "table" || block.rows.length === 0) continue;
    for (const chunk of tableChunks(block, measure)) {
      drafts.push({
        kind: "table",
        text: chunk.text,
        tokenCount: measure.count(chunk.text),
        provenance: chunk.provenance,
      });
    }
  }
  return drafts.map((draft, position) => ({ ...draft, position }));
}
