/**
 * Answers a question from a table the way a reader would work it out: read the question as an operation
 * (table-question.ts), find the rows and columns it names (table-operands.ts), do the operation on those
 * cells (row-plans.ts, item-plans.ts, list-plans.ts) and write one sentence that states the result first
 * and shows the inputs it came from — "Other fell by $12.6 million, from $56.7 million in 2018 to $44.1
 * million in 2019 (-22.2%) [1]." The cited quote is the row(s) used. Null when no table holds what the
 * question names.
 */
import { analyzeText } from "../../../retrieval/text-analyzer.js";
import type { AnswerValue } from "../../answer-events.js";
import type { QuotedPassage } from "../../citations/citations.js";
import type { NumberedSource } from "../../generate/generator.js";
import { uniqueTerms } from "../sentence-scoring.js";
import type { UnitScale } from "../table-cells.js";
import { itemsPlan, namedRows } from "./item-plans.js";
import { lineTables } from "./line-tables.js";
import { listItems, listPeriods, sectionTotal, whichItem } from "./list-plans.js";
import { proseGrids } from "./prose-grids.js";
import { aggregate, change, countPeriods, lookup, ratioOfPeriods, whichPeriod } from "./row-plans.js";
import { type GridRow, readTableGrid, type TableGrid } from "./table-grid.js";
import { expandedTerms, labelTerms, type RowMatch, scoreRows } from "./table-operands.js";
import { readTableQuestion, type TableQuestion } from "./table-question.js";
import { type Plan, type Reading, usableMatch } from "./table-reading.js";
import { quoteRows } from "./table-wording.js";

export type TableAnswer = {
  source: NumberedSource;
  /** How surely the table holds what the question names: the matched row's score. */
  score: number;
  /** The share of the question's words the rows used, the headers and the caption hold. */
  coverage: number;
  /** The answer's sentence, citing `[n]`. */
  write(n: number): string;
  quote: QuotedPassage;
  value: AnswerValue;
  /** The labels (with their sections) of the rows the answer used. */
  rowLabels: string[];
};

/** Operations whose words are often a line item's own ("Weighted average exercise price", "Debt ratio"). */
const RECLAIMABLE = new Set(["average", "ratio", "sum"]);

/** Whether the words that decided the operation are words of the row's label ("Weighted average rate"). */
function labelHoldsCue(question: TableQuestion, match: RowMatch | undefined): boolean {
  if (question.cue === null || match === undefined || !RECLAIMABLE.has(question.operation)) return false;
  const cueTerms = analyzeText(question.text.slice(question.cue.start, question.cue.end));
  const label = labelTerms(match.row.label);
  return cueTerms.some((term) => label.has(term) && term !== "total");
}

/** The first plan that works, in order. */
function firstOf(...plans: Array<() => Plan | null>): Plan | null {
  for (const plan of plans) {
    const found = plan();
    if (found !== null) return found;
  }
  return null;
}

function planFor(reading: Reading): Plan | null {
  const { question, grid } = reading;
  const terms = expandedTerms(question.terms);
  if (question.operation === "listPeriods") return listPeriods(reading, terms);
  if (question.operation === "listItems" || question.operation === "countItems") return listItems(reading, terms);
  const matches = scoreRows(grid, question, terms, reading.caption, reading.meaning);
  if (question.cue !== null && labelHoldsCue(question, matches[0]))
    return planFor({ ...reading, question: readTableQuestion(question.text, [...question.masked, question.cue]) });
  const best = usableMatch(matches);
  const single = (plan: typeof lookup) => () => (best === null ? null : plan(reading, best, terms));
  const items = () => itemsPlan(reading, matches, terms);
  const severalRows = namedRows(matches).length >= 2;
  switch (question.operation) {
    case "lookup":
      return single(lookup)();
    case "values":
      // "A and B in 2019, respectively": several items; "X in 2019 and 2018": one item, several periods.
      return question.periods.length >= 2 ? firstOf(single(lookup), items) : firstOf(items, single(lookup));
    case "change":
    case "percentChange":
      // "How much more A than B in 2019?": two items in one period; "the change in A from 2018 to 2019": one item, two periods.
      if (question.periods.length <= 1 && question.operation === "change") {
        const differenceOfItems = () =>
          itemsPlan({ ...reading, question: { ...question, operation: "difference" } }, matches, terms);
        const found = differenceOfItems();
        // "How much more A than B", "the difference between A and B": two items, however well each is named.
        const comparesItems =
          /\b(?:more|less|higher|lower|greater|larger|smaller)\b[^?]*\bthan\b|\bdifference\s+between\b|\bcompared\s+(?:to|with)\b|\bversus\b|\bvs\.?\s/i.test(
            question.text,
          );
        if (found !== null && (best === null || comparesItems || found.score >= best.score - 0.5)) return found;
      }
      return single(change)();
    case "average":
    case "sum": {
      const section = () => sectionTotal(reading, terms);
      return severalRows && question.periods.length <= 1
        ? firstOf(items, single(aggregate), section)
        : firstOf(single(aggregate), items, section);
    }
    case "ratio":
      return firstOf(items, single(ratioOfPeriods));
    case "difference":
      return items();
    case "whichPeriod":
      return single(whichPeriod)();
    case "countPeriods":
      return single(countPeriods)();
    case "whichItem":
      return whichItem(reading, matches, terms);
    default:
      return null;
  }
}

/**
 * The share of the question's words the table accounts for: the labels of the rows used, their
 * sections, the column headers and the table's caption. A row that shares one word with a long question
 * ("Cost" for "total unrecognized compensation cost related to non-vested awards") answers another one.
 */
function coverage(
  question: TableQuestion,
  grid: TableGrid,
  rows: readonly GridRow[],
  caption: ReadonlySet<string>,
): number {
  const asked = new Set(expandedTerms(question.terms).map((term) => term.term));
  if (asked.size === 0) return 1;
  const held = new Set([...grid.contextTerms, ...caption]);
  for (const row of rows) for (const term of labelTerms(`${row.label} ${row.section ?? ""}`)) held.add(term);
  for (const column of grid.columns) for (const term of column.terms) held.add(term);
  return [...asked].filter((term) => held.has(term) || question.operationWords.has(term)).length / asked.size;
}

/** A label this close in meaning to the question's measure covers the question's words (see table-operands.ts). */
const MEANING_COVERS = 0.8;

/** What a row read from lines of figures gives up against a table the document's reader found. */
const LINE_TABLE_PENALTY = 0.25;

/** What a figure read from a sentence gives up against a table's row. */
const PROSE_PENALTY = 0.75;

/** Below this share of the question's words, the table is not what the question is about. */
const MINIMUM_COVERAGE = 0.25;

/**
 * The best answer any of the table passages among `sources` gives to `question`; null when none holds
 * what it names. `scaleOf` gives a document's unit note when its table states none.
 */
export type TableReadingOptions = {
  /** A document's unit note, when its table states none. */
  scaleOf?: (source: NumberedSource) => UnitScale | null;
  /** Words of the sentence that introduces a source's table elsewhere in its document ("… were as follows:"). */
  captionOf?: (source: NumberedSource) => ReadonlySet<string>;
  /** Row labels' meaning matches with the question's measure (label-meaning.ts), by source. */
  meaningOf?: (source: NumberedSource) => ReadonlyMap<string, number>;
  /**
   * The names a source's document is about ("MGM Resorts" in MGM's own report): their words name the
   * company, not a row ("Las Vegas Strip Resorts net revenues"), and are left out of the question's there.
   */
  ownNamesOf?: (source: NumberedSource) => readonly string[];
};

export function answerFromTables(
  questionText: string,
  sources: readonly NumberedSource[],
  options: TableReadingOptions = {},
): TableAnswer | null {
  const scaleOf = options.scaleOf ?? (() => null);
  const captionOf = options.captionOf ?? (() => new Set<string>());
  const meaningOf = options.meaningOf ?? (() => new Map<string, number>());
  const question = readTableQuestion(questionText);
  let best: TableAnswer | null = null;
  for (const [rank, source] of sources.entries()) {
    const table = readTableGrid(source.result);
    // A table, or the sentences of prose that state a figure for several periods, each read as a row.
    // …and the lines of figures a PDF's reader left as text (a statement set without rules).
    const readings: Array<{ grid: TableGrid; sentence: QuotedPassage | null; penalty: number }> =
      table !== null
        ? [{ grid: table, sentence: null, penalty: 0 }]
        : [
            ...lineTables(source.result).map(({ grid }) => ({ grid, sentence: null, penalty: LINE_TABLE_PENALTY })),
            ...proseGrids(source.result).map(({ grid, start, end }) => ({
              grid,
              sentence: { text: source.result.text.slice(start, end).trim(), start, end },
              penalty: PROSE_PENALTY,
            })),
          ];
    const ownNames = options.ownNamesOf?.(source) ?? [];
    for (const { grid, sentence, penalty } of readings) {
      const asked = withoutOwnNames(question, ownNames, grid);
      const found = answerFromGrid(asked, grid, rank, penalty, source, scaleOf, captionOf, meaningOf, sentence);
      if (found !== null && (best === null || found.score > best.score)) best = found;
    }
  }
  return best;
}

function answerFromGrid(
  question: TableQuestion,
  grid: TableGrid,
  rank: number,
  penalty: number,
  source: NumberedSource,
  scaleOf: (source: NumberedSource) => UnitScale | null,
  captionOf: (source: NumberedSource) => ReadonlySet<string>,
  meaningOf: (source: NumberedSource) => ReadonlyMap<string, number>,
  sentence: QuotedPassage | null,
): TableAnswer | null {
  // A list of the table's own periods or items is about a table, never a sentence; a value a sentence
  // states is best quoted whole (the extractive answer), so a sentence answers only what is worked out.
  const listsTable = ["listPeriods", "listItems", "countItems", "whichItem"].includes(question.operation);
  if (sentence !== null && (listsTable || question.operation === "lookup")) return null;
  const caption = captionOf(source);
  const meaning = sentence === null ? meaningOf(source) : new Map<string, number>();
  const plan = planFor({ grid, question, fallbackScale: scaleOf(source), caption, meaning });
  if (plan === null) return null;
  // A row named by meaning stands for the question's words it does not share.
  const byMeaning = plan.rows.some((row) => (meaning.get(row.label) ?? 0) >= MEANING_COVERS);
  const covered = listsTable || byMeaning ? 1 : coverage(question, grid, plan.rows, caption);
  if (covered < MINIMUM_COVERAGE) return null;
  // A table's row outranks a sentence's figures for the same question.
  const score = plan.score - 0.05 * rank - (1 - covered) - penalty;
  return {
    source,
    score,
    coverage: covered,
    write: plan.write,
    quote: sentence ?? quoteRows(grid, plan.rows),
    value: plan.value,
    rowLabels: plan.rows.map((row) => `${row.label} ${row.section ?? ""}`.trim()),
  };
}

/**
 * The question less the words of the names its document is about, unless a row of this grid is named by
 * one ("Bell Wireless" is a segment's row in Bell's own report, "MGM Resorts" no row of MGM's).
 */
function withoutOwnNames(question: TableQuestion, ownNames: readonly string[], grid: TableGrid): TableQuestion {
  const labels = grid.rows.map((row) => labelTerms(row.label));
  const dropped = new Set<string>();
  for (const name of ownNames) {
    const terms = uniqueTerms(name);
    if (terms.size === 0 || labels.some((label) => [...terms].every((term) => label.has(term)))) continue;
    for (const term of terms) dropped.add(term);
  }
  if (dropped.size === 0) return question;
  return { ...question, terms: question.terms.filter((term) => !dropped.has(term.term)) };
}

/** The measure words of a question, as asked (periods and question words left out): what a label's meaning is matched with. */
export function measurePhrase(questionText: string): string {
  const words: string[] = [];
  for (const term of readTableQuestion(questionText).terms) if (words.at(-1) !== term.word) words.push(term.word);
  return words.join(" ");
}

/** The row labels of the table passages among `sources`, by source, for meaning matches (at most `tables` tables). */
export function tableLabels(sources: readonly NumberedSource[], tables = 3): Map<NumberedSource, string[]> {
  const labels = new Map<NumberedSource, string[]>();
  for (const source of sources) {
    if (labels.size >= tables) break;
    const grid = readTableGrid(source.result);
    if (grid !== null) labels.set(source, [...new Set(grid.rows.map((row) => row.label))]);
  }
  return labels;
}
