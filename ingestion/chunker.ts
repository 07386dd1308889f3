/**
 * Splits a parsed document into chunks that fit the embedding model's token budget and know exactly
 * where they came from. Structure first: sections (a heading starts a new chunk), then paragraphs,
 * sentences, lines, words and, for monstrous words, characters. Text chunks are exact slices of the
 * source, located by offsets carried from the parser (never by searching for the text afterwards).
 * Tables become their own chunks, split by rows with the header repeated in every piece.
 *
 * Pure: the length function is injected (langchain-splitter style). Token counts of
 * whitespace-separated pieces add up under WordPiece-style tokenizers (they split on whitespace
 * first), so packing sums piece counts, and each finished chunk is measured once more to be sure.
 */
import type { ChunkDraft, PageText, Provenance } from "../src/domain/types.js";
import { FolioError } from "../src/errors.js";
import type { ParsedDocument, TableBlock, TextBlock } from "./parsed-document.js";
import { headingPathAt, type PdfHeading } from "./pdf-headings.js";
import { splitSentences } from "./split-sentences.js";
import type { TokenCounter } from "./token-counter.js";

export type ChunkingOptions = {
  /** Most tokens per chunk, special tokens included. */
  maxTokens: number;
  /** Tokens of the previous chunk's tail repeated at the start of the next one (same section only). */
  overlapTokens: number;
  tokenCounter: TokenCounter;
};

/** Rendering of table chunks: the optional sheet line, then the header and rows, cells joined by this. */
export const TABLE_CELL_SEPARATOR = " | ";
/** Appended to a table cell shortened to fit the budget, so a reader knows text is missing. */
export const TRUNCATION_NOTE = " …[truncated]";

type Range = { start: number; end: number };
/** A range of a flow's source with its token count without special tokens. */
type Piece = Range & { tokens: number };
/** A run of text chunked as one: a PDF's whole text, or one section of another format. */
type Flow = { source: string; ranges: Range[]; headingPath: string[] };
type Draft = Omit<ChunkDraft, "position">;

/** The counter seen from inside the chunker: counts without special tokens, and the budget for them. */
type Measure = { tokens(text: string): number; budget: number; specialTokens: number };

const PARAGRAPH_BREAK = /\n[ \t]*\n/g;
const LINE_BREAK = /\n/g;
const WORD = /\S+/g;
/** Levels tried in turn when a range is over budget; characters are the last resort. */
const LEVELS = ["paragraphs", "sentences", "lines", "words"] as const;

function validateOptions(options: ChunkingOptions, specialTokens: number): void {
  const { maxTokens, overlapTokens } = options;
  if (!Number.isInteger(maxTokens) || maxTokens - specialTokens < 4) {
    throw new FolioError(
      "invalid_chunking",
      `maxTokens must be an integer leaving at least 4 tokens beside the ${specialTokens} special tokens (got ${maxTokens}).`,
    );
  }
  if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens >= maxTokens) {
    throw new FolioError(
      "invalid_chunking",
      `overlapTokens must be an integer from 0 to below maxTokens (got ${overlapTokens} with maxTokens ${maxTokens}).`,
    );
  }
}

/** Offsets of the non-blank runs of `text` between matches of `separator`, trimmed, shifted by `offset`. */
function splitRanges(text: string, offset: number, separator: RegExp): Range[] {
  const ranges: Range[] = [];
  let cursor = 0;
  const pushTrimmed = (from: number, to: number) => {
    const slice = text.slice(from, to);
    const trimmed = slice.trim();
    if (trimmed.length === 0) return;
    const start = offset + from + (slice.length - slice.trimStart().length);
    ranges.push({ start, end: start + trimmed.length });
  };
  for (const match of text.matchAll(separator)) {
    pushTrimmed(cursor, match.index);
    cursor = match.index + match[0].length;
  }
  pushTrimmed(cursor, text.length);
  return ranges;
}

function splitLevel(text: string, offset: number, level: (typeof LEVELS)[number]): Range[] {
  if (level === "paragraphs") return splitRanges(text, offset, PARAGRAPH_BREAK);
  if (level === "lines") return splitRanges(text, offset, LINE_BREAK);
  if (level === "words") {
    return [...text.matchAll(WORD)].map((word) => ({
      start: offset + word.index,
      end: offset + word.index + word[0].length,
    }));
  }
  return splitSentences(text).map((sentence) => ({ start: offset + sentence.start, end: offset + sentence.end }));
}

/** Breaks a range into pieces that each fit the budget, one structural level at a time. */
function toPieces(source: string, range: Range, measure: Measure, level = 0): Piece[] {
  const text = source.slice(range.start, range.end);
  const tokens = measure.tokens(text);
  if (tokens <= measure.budget) return [{ ...range, tokens }];
  for (let next = level; next < LEVELS.length; next += 1) {
    const parts = splitLevel(text, range.start, LEVELS[next] ?? "words");
    if (parts.length > 1) return parts.flatMap((part) => toPieces(source, part, measure, next + 1));
  }
  return splitCharacters(source, range, measure);
}

/** Moves `end` off the middle of a surrogate pair, so no piece holds half a character. */
function alignToCharacter(source: string, start: number, end: number): number {
  const code = source.charCodeAt(end - 1);
  return end - start > 1 && code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

/**
 * Last resort for a single token-dense word (a hash, base64): the longest character windows that
 * fit, found by binary search. Such words are rare, so the extra counter calls do not matter.
 */
function splitCharacters(source: string, range: Range, measure: Measure): Piece[] {
  const pieces: Piece[] = [];
  let start = range.start;
  while (start < range.end) {
    const high = source.charCodeAt(start);
    let fits = Math.min(range.end, start + (high >= 0xd800 && high <= 0xdbff ? 2 : 1));
    let fitsTokens = measure.tokens(source.slice(start, fits));
    let tooLong = range.end + 1;
    while (tooLong - fits > 1) {
      const middle = alignToCharacter(source, start, Math.floor((fits + tooLong) / 2));
      if (middle <= fits) break;
      const tokens = measure.tokens(source.slice(start, middle));
      if (tokens <= measure.budget) {
        fits = middle;
        fitsTokens = tokens;
      } else {
        tooLong = middle;
      }
    }
    pieces.push({ start, end: fits, tokens: fitsTokens });
    start = fits;
  }
  return pieces;
}

/** The longest tail of source[start, end) made of whole words within `overlapTokens`, or null. */
function overlapTail(source: string, span: Piece, overlapTokens: number, measure: Measure): Piece | null {
  if (overlapTokens === 0) return null;
  // Only the last few hundred characters can matter; a word is at least one token.
  const windowStart = Math.max(span.start, span.end - overlapTokens * 24);
  const words = [...source.slice(windowStart, span.end).matchAll(WORD)];
  let tokens = 0;
  let chosen: Piece | null = null;
  // Index 0 is skipped: it may be a word cut by the window, or the chunk's first word (never carry it all).
  for (let index = words.length - 1; index >= 1; index -= 1) {
    const word = words[index];
    if (!word) break;
    tokens += measure.tokens(word[0]);
    if (tokens > overlapTokens) break;
    chosen = { start: windowStart + word.index, end: span.end, tokens };
  }
  return chosen;
}

/** Packs a flow's pieces greedily into spans within the budget, each starting with the previous tail. */
function packFlow(flow: Flow, measure: Measure, overlapTokens: number): Piece[] {
  const pieces = flow.ranges.flatMap((range) => toPieces(flow.source, range, measure));
  const spans: Piece[] = [];
  let index = 0;
  let carried: Piece | null = null;
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
    // Sums can be off where pieces touch without whitespace (character pieces): measure and back off.
    let end = (pieces[last] as Piece).end;
    tokens = measure.tokens(flow.source.slice(start, end));
    while (tokens > measure.budget && last > index) {
      last -= 1;
      end = (pieces[last] as Piece).end;
      tokens = measure.tokens(flow.source.slice(start, end));
    }
    if (tokens > measure.budget) {
      start = first.start;
      tokens = first.tokens;
    }
    const span = { start, end, tokens };
    spans.push(span);
    index = last + 1;
    carried = overlapTail(flow.source, span, overlapTokens, measure);
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

/** The PDF's text as one flow; each block's offsets are checked, since every citation depends on them. */
function pdfFlow(blocks: TextBlock[], pages: PageText[], offsets: number[]): Flow {
  const ranges = blocks.flatMap((block) => {
    const page = block.page ?? 0;
    const charStart = block.charStart ?? 0;
    const pageText = pages[page - 1]?.text;
    if (pageText === undefined || !pageText.startsWith(block.text, charStart)) {
      throw new FolioError(
        "invalid_block_offsets",
        `A PDF text block does not match page ${page} at offset ${charStart}; the parser's offsets are wrong.`,
        { details: { page, charStart } },
      );
    }
    return splitRanges(block.text, (offsets[page - 1] ?? 0) + charStart, PARAGRAPH_BREAK);
  });
  return { source: pages.map((page) => page.text).join("\n"), ranges, headingPath: [] };
}

/**
 * The flow cut where text was left out of it (a table the parser took out of the prose, or footnotes
 * it set apart), so no chunk bridges the gap and carries the left-out text along; only whitespace may
 * lie between ranges of one run. Blocks that go back in the text (a PDF's footnotes, which follow all
 * of its body) start a run of their own.
 */
function contiguousRuns(flow: Flow): Flow[] {
  const runs: Flow[] = [];
  let ranges: Range[] = [];
  for (const range of flow.ranges) {
    const previous = ranges.at(-1);
    if (
      previous !== undefined &&
      (range.start < previous.end || flow.source.slice(previous.end, range.start).trim().length > 0)
    ) {
      runs.push({ ...flow, ranges });
      ranges = [];
    }
    ranges.push(range);
  }
  if (ranges.length > 0) runs.push({ ...flow, ranges });
  return runs;
}

function chunkPdfText(
  blocks: TextBlock[],
  pages: PageText[],
  headings: readonly PdfHeading[],
  measure: Measure,
  overlapTokens: number,
): Draft[] {
  const offsets = pageOffsets(pages);
  const flow = pdfFlow(blocks, pages, offsets);
  const spans = contiguousRuns(flow).flatMap((run) => packFlow(run, measure, overlapTokens));
  return spans.map((span) => {
    const startPage = pageIndexAt(offsets, span.start);
    const endPage = pageIndexAt(offsets, span.end - 1);
    const charStart = span.start - (offsets[startPage] ?? 0);
    // A passage is indexed under the section heading in force where it starts.
    const headingPath = headingPathAt(headings, startPage + 1, charStart);
    return {
      kind: "text",
      text: flow.source.slice(span.start, span.end),
      tokenCount: span.tokens + measure.specialTokens,
      provenance: {
        pageStart: startPage + 1,
        pageEnd: endPage + 1,
        charStart,
        charEnd: span.end - (offsets[endPage] ?? 0),
        ...(headingPath.length > 0 ? { headingPath } : {}),
      },
    };
  });
}

function chunkFlow(flow: Flow, measure: Measure, overlapTokens: number): Draft[] {
  return packFlow(flow, measure, overlapTokens).map((span) => ({
    kind: "text",
    text: flow.source.slice(span.start, span.end),
    tokenCount: span.tokens + measure.specialTokens,
    provenance: flow.headingPath.length > 0 ? { headingPath: flow.headingPath } : {},
  }));
}

function samePath(left: string[], right: string[]): boolean {
  return left.length === right.length && left.every((part, index) => part === right[index]);
}

/** Collects the text blocks of one section; a heading-only section is carried into the next one. */
class SectionBuilder {
  private texts: string[] = [];
  private headingPath: string[] = [];
  private onlyHeadings = true;

  /** Adds a block; returns the finished previous section when this block starts a new one. */
  add(block: TextBlock): Flow | null {
    const startsSection = block.isHeading === true || !samePath(this.headingPath, block.headingPath);
    let finished: Flow | null = null;
    if (startsSection && !this.onlyHeadings) finished = this.finish();
    this.texts.push(block.text);
    this.headingPath = block.headingPath;
    this.onlyHeadings &&= block.isHeading === true;
    return finished;
  }

  /** The collected section as a flow (null when empty), and a fresh start. */
  finish(): Flow | null {
    const source = this.texts.join("\n\n");
    const flow =
      this.texts.length > 0
        ? { source, ranges: splitRanges(source, 0, PARAGRAPH_BREAK), headingPath: this.headingPath }
        : null;
    this.texts = [];
    this.onlyHeadings = true;
    return flow;
  }
}

/** Greedy word prefix of `text` within `budget` tokens; characters when even one word is too long. */
function cutToTokens(text: string, budget: number, measure: Measure): string {
  if (budget <= 0) return "";
  let tokens = 0;
  let end = 0;
  for (const word of text.matchAll(WORD)) {
    const wordTokens = measure.tokens(word[0]);
    if (tokens + wordTokens > budget) {
      if (end > 0) break;
      const piece = splitCharacters(word[0], { start: 0, end: word[0].length }, { ...measure, budget })[0];
      return piece ? word[0].slice(0, piece.end) : "";
    }
    tokens += wordTokens;
    end = word.index + word[0].length;
  }
  return text.slice(0, end);
}

/** A cell on one line, with any "|" of its own written "¦" so the row still splits into its cells. */
function cleanCell(cell: string): string {
  return cell.replace(/\s+/g, " ").trim().replaceAll("|", "¦");
}

/** Renders cells as one line within `budget`, shortening the longest cells first and marking them. */
function renderCells(cells: string[], budget: number, measure: Measure): { line: string; tokens: number } {
  const cleaned = cells.map(cleanCell);
  const line = cleaned.join(TABLE_CELL_SEPARATOR);
  const tokens = measure.tokens(line);
  if (tokens <= budget) return { line, tokens };
  const cellTokens = cleaned.map((cell) => measure.tokens(cell));
  const noteTokens = measure.tokens(TRUNCATION_NOTE);
  const separatorTokens = tokens - cellTokens.reduce((sum, count) => sum + count, 0);
  const cost = (limit: number) =>
    cellTokens.reduce((sum, count) => sum + (count > limit ? limit + noteTokens : count), 0);
  let available = budget - separatorTokens;
  for (let attempt = 0; attempt < 8; attempt += 1) {
    // Water-filling: the largest per-cell cap that, with a note on each cut cell, fits what is available.
    let cap = cellTokens.reduce((largest, count) => Math.max(largest, count), 0);
    while (cap > 0 && cost(cap) > available) cap -= Math.max(1, Math.ceil(cap / 16));
    // Too many cells for a note on each: fall back to cutting the line once.
    if (cost(cap) > available) break;
    const shortened = cleaned.map((cell, index) =>
      (cellTokens[index] ?? 0) > cap ? `${cutToTokens(cell, cap, measure)}${TRUNCATION_NOTE}`.trim() : cell,
    );
    const candidate = shortened.join(TABLE_CELL_SEPARATOR);
    const candidateTokens = measure.tokens(candidate);
    if (candidateTokens <= budget) return { line: candidate, tokens: candidateTokens };
    available -= candidateTokens - budget;
  }
  const fallback = cutToTokens(line, budget - noteTokens, measure) + TRUNCATION_NOTE;
  return { line: fallback, tokens: measure.tokens(fallback) };
}

function hasHeader(block: TableBlock): boolean {
  return block.header.some((cell) => cell.trim().length > 0);
}

function tableProvenance(block: TableBlock, rowStart?: number, rowEnd?: number): Provenance {
  return {
    ...(block.page !== undefined ? { pageStart: block.page, pageEnd: block.page } : {}),
    ...(block.headingPath.length > 0 ? { headingPath: block.headingPath } : {}),
    ...(block.sheet !== undefined ? { sheet: block.sheet } : {}),
    ...(rowStart !== undefined ? { rowStart, rowEnd } : {}),
    ...(hasHeader(block) ? { columns: block.header.map(cleanCell) } : {}),
  };
}

/** Below this many tokens left for it, a table's caption is left out rather than cut to a stub. */
const minimumCaptionTokens = 8;

/** A table in row groups that fit the budget, each led by the sheet line, the caption and the header row. */
function chunkTable(block: TableBlock, measure: Measure): Draft[] {
  const prefixLines: string[] = [];
  let prefixTokens = 0;
  // The sheet name and caption take at most a quarter of the budget and the header the rest of the
  // first half, so every piece has room for rows.
  const labelBudget = Math.floor(measure.budget / 4);
  if (block.sheet !== undefined) {
    const sheetLine = renderCells([`Sheet: ${block.sheet}`], labelBudget, measure);
    prefixLines.push(sheetLine.line);
    prefixTokens += sheetLine.tokens;
  }
  const caption = (block.caption ?? []).join(" — ");
  const captionBudget = labelBudget - prefixTokens;
  if (caption.length > 0 && captionBudget >= minimumCaptionTokens) {
    const captionLine = renderCells([caption], captionBudget, measure);
    prefixLines.push(captionLine.line);
    prefixTokens += captionLine.tokens;
  }
  if (hasHeader(block)) {
    const header = renderCells(block.header, Math.floor(measure.budget / 2) - prefixTokens, measure);
    prefixLines.push(header.line);
    prefixTokens += header.tokens;
  }
  const prefix = prefixLines.join("\n");
  const rowBudget = measure.budget - prefixTokens;
  const rows = block.rows.map((cells, index) => ({
    ...renderCells(cells, rowBudget, measure),
    row: block.firstRow + index,
  }));
  const draft = (text: string, tokens: number, provenance: Provenance): Draft => ({
    kind: "table",
    text,
    tokenCount: tokens + measure.specialTokens,
    provenance,
  });
  if (rows.length === 0) return prefix.length > 0 ? [draft(prefix, prefixTokens, tableProvenance(block))] : [];

  const drafts: Draft[] = [];
  let index = 0;
  while (index < rows.length) {
    let last = index;
    let tokens = prefixTokens + (rows[index]?.tokens ?? 0);
    while (last + 1 < rows.length && tokens + (rows[last + 1]?.tokens ?? 0) <= measure.budget) {
      last += 1;
      tokens += rows[last]?.tokens ?? 0;
    }
    const render = (through: number) =>
      [prefix, ...rows.slice(index, through + 1).map((row) => row.line)].filter((line) => line.length > 0).join("\n");
    let text = render(last);
    tokens = measure.tokens(text);
    while (tokens > measure.budget && last > index) {
      last -= 1;
      text = render(last);
      tokens = measure.tokens(text);
    }
    drafts.push(draft(text, tokens, tableProvenance(block, rows[index]?.row, rows[last]?.row)));
    index = last + 1;
  }
  return drafts;
}

/** Chunks a parsed document: text in document order (tables where they stand), positions 0-based. */
export function chunkDocument(document: ParsedDocument, options: ChunkingOptions): ChunkDraft[] {
  const specialTokens = options.tokenCounter.count("");
  validateOptions(options, specialTokens);
  const measure: Measure = {
    tokens: (text) => options.tokenCounter.count(text) - specialTokens,
    budget: options.maxTokens - specialTokens,
    specialTokens,
  };
  const drafts: Draft[] = [];
  if (document.pages) {
    // A PDF is one flow across pages, so a paragraph broken by a page end stays together.
    const textBlocks = document.blocks.filter((block): block is TextBlock => block.kind === "text");
    drafts.push(...chunkPdfText(textBlocks, document.pages, document.headings ?? [], measure, options.overlapTokens));
    for (const block of document.blocks) if (block.kind === "table") drafts.push(...chunkTable(block, measure));
  } else {
    const sections = new SectionBuilder();
    const pushFlow = (flow: Flow | null) => {
      if (flow) drafts.push(...chunkFlow(flow, measure, options.overlapTokens));
    };
    for (const block of document.blocks) {
      if (block.kind === "table") {
        pushFlow(sections.finish());
        drafts.push(...chunkTable(block, measure));
      } else if (block.text.trim().length > 0) {
        pushFlow(sections.add(block));
      }
    }
    pushFlow(sections.finish());
  }
  return drafts.map((draft, position) => ({ ...draft, position }));
}
