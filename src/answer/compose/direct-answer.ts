/**
 * The direct answer that opens a reply: lines built from cited evidence only (a figure's sentence, a
 * side of a comparison that was not found, the computed comparison), with the quote each figure's
 * citation shows (its row, column and unit). A figure found in a passage the generator was not given
 * is added to the sources, so its [n] resolves like any other.
 */
import type { AnswerValue } from "../answer-events.js";
import type { QuotedPassage } from "../citations/citations.js";
import type { FoundFigure } from "../evidence/find-figure.js";
import { isSameSentence } from "../evidence/same-sentence.js";
import type { TableAnswer } from "../evidence/tables/table-answer.js";
import type { NumberedSource } from "../generate/generator.js";
import { guardSources } from "../generate/instruction-guard.js";
import { figureQuote, figureSentence } from "./figure-sentence.js";

const MARKERS = /\s?\[\d{1,3}\]/g;

/** The figures a text states, digits only ("$1,496.5 million" → "1496.5"), years left out. */
function figuresIn(text: string): Set<string> {
  const figures = new Set<string>();
  for (const match of text.replace(MARKERS, "").matchAll(/\d[\d,]*(?:\.\d+)?/g)) {
    const digits = match[0].replace(/,/g, "").replace(/\.$/, "");
    if (/^(?:19|20)\d{2}$/.test(digits) || digits.length < 2) continue;
    figures.add(digits);
  }
  return figures;
}

export class DirectAnswer {
  private readonly lines: string[] = [];
  readonly quotes = new Map<number, QuotedPassage>();
  /** What the answer states, for programs (Answer.value); set by a figure, a table answer or a list. */
  value: AnswerValue | undefined;

  /** `sources` is the answer's numbered sources; a figure from elsewhere is appended to it. */
  constructor(private readonly sources: NumberedSource[]) {}

  /** The numbered sources the answer cites from: the ones it was given and any it appended. */
  numberedSources(): readonly NumberedSource[] {
    return this.sources;
  }

  /** The figure's sentence and its row as the citation's quote; returns the [n] it cites. */
  addFigure(figure: FoundFigure, entity: string | null): number | undefined {
    const source = this.numbered(figure.source);
    if (source === undefined) return undefined;
    const numbered = { ...figure, source };
    this.lines.push(figureSentence(numbered, entity));
    this.quotes.set(source.n, figureQuote(numbered));
    this.value ??= { items: [figure.cell.value], scale: figure.cell.percent ? "percent" : (figure.cell.scale ?? "") };
    return source.n;
  }

  /**
   * A line worked out from several figures (a ratio and its inputs): each figure's source is numbered and
   * quoted as its row; `write` gets the [n] of each, in the order given.
   */
  addComputed(figures: FoundFigure[], write: (numbers: number[]) => string): void {
    const numbers: number[] = [];
    for (const figure of figures) {
      const source = this.numbered(figure.source);
      if (source === undefined) return;
      numbers.push(source.n);
      if (!this.quotes.has(source.n)) this.quotes.set(source.n, figureQuote({ ...figure, source }));
    }
    this.lines.push(write(numbers));
  }

  /** A table answer: its sentence citing the table passage, the rows it used as the quote. */
  addTableAnswer(answer: TableAnswer): void {
    const source = this.numbered(answer.source);
    if (source === undefined) return;
    this.lines.push(answer.write(source.n));
    this.quotes.set(source.n, answer.quote);
    this.value = answer.value;
  }

  /**
   * A passage quoted whole as a line of the answer (a defining sentence), after `lead` when given (the
   * verdict of a yes/no question: "Yes,").
   */
  addQuote(from: NumberedSource, passage: QuotedPassage, lead = ""): void {
    const source = this.numbered(from);
    if (source === undefined) return;
    const quote = `“${passage.text.replace(/\s+/g, " ").replace(/\[(\d{1,3})\]/g, "($1)")}” [${source.n}]`;
    this.lines.push(lead === "" ? quote : `${lead} ${quote}`);
    this.quotes.set(source.n, passage);
  }

  /** A list as the document gives it: its introducing line cited, then one item a line; after `lead` when given. */
  addList(from: NumberedSource, introduction: string, items: string[], passage: QuotedPassage, lead = ""): void {
    const source = this.numbered(from);
    if (source === undefined) return;
    const bullets = items.map((item) => `• ${item.replace(/\[(\d{1,3})\]/g, "($1)")}`).join("\n");
    this.lines.push(`${lead === "" ? "" : `${lead} `}${introduction}: [${source.n}]\n${bullets}`);
    this.quotes.set(source.n, { ...passage, text: introduction });
  }

  /** The answer's own numbered source for a search result, appended when the generator was not given it. */
  private numbered(from: NumberedSource): NumberedSource | undefined {
    const known = this.sources.find((candidate) => candidate.result.chunkId === from.result.chunkId);
    if (known !== undefined) return known;
    const [source] = guardSources([{ n: this.sources.length + 1, result: from.result }]);
    if (source !== undefined) this.sources.push(source);
    return source;
  }

  addLine(line: string): void {
    this.lines.push(line);
  }

  /** A line that answers before the figures it was worked out from (a growth rate before both years' figures). */
  addLineFirst(line: string): void {
    this.lines.unshift(line);
  }

  clear(): void {
    this.lines.length = 0;
    this.quotes.clear();
  }

  isEmpty(): boolean {
    return this.lines.length === 0;
  }

  text(): string {
    return this.lines.join(" ");
  }

  /**
   * Whether a quote line of the extractive generator supports the direct answer: it states a figure the
   * answer states (not a year). An answer without figures (a definition, a list, a yes/no) is its own
   * evidence, so no further quote supports it.
   */
  isSupportedBy(line: string): boolean {
    const stated = figuresIn(this.text());
    if (stated.size === 0) return false;
    return [...figuresIn(line.replace(MARKERS, ""))].some((figure) => stated.has(figure));
  }

  /** Whether a quote line of the extractive generator quotes a row or a sentence a line above already cites. */
  repeatsQuotedRow(line: string): boolean {
    const quoted = line.replace(MARKERS, "").replace(/[“”]/g, "").trim();
    for (const [n, quote] of this.quotes) {
      if (!line.includes(`[${n}]`)) continue;
      const label = (quote.text.split(" — ")[0] ?? "").trim().toLowerCase();
      if (isSameSentence(quoted, quote.text) || (label !== "" && quoted.toLowerCase().startsWith(label))) return true;
    }
    return false;
  }
}
