/**
 * Finds the rows and columns a question names in a table grid. A row is named by the words of its
 * label the question holds (its section's words count less: they are context), less the label's words
 * the question leaves out; a column by the period the question names (table-question.ts) and by its
 * header's other words ("Fair value", "Americas"). Words are compared as analyzed terms (stemmed, stop
 * words out) with the accounting abbreviations spelled out; where an embedding of the labels is at
 * hand, meaning decides between rows the words leave tied.
 */
import { analyzeText } from "../../../retrieval/text-analyzer.js";
import { periodFit, periodMentions } from "./period-mentions.js";
import type { GridColumn, GridRow, TableGrid } from "./table-grid.js";
import type { QuestionTerm, TableQuestion } from "./table-question.js";

/** Abbreviations statements and questions use for the same line item, as the words they stand for. */
const SPELLED_OUT: Record<string, string> = {
  "r&d": "research development",
  "sg&a": "selling general administrative",
  "pp&e": "property plant equipment",
  "g&a": "general administrative",
  "s&m": "sales marketing",
  eps: "earnings per share",
  capex: "capital expenditure",
  ebit: "earnings before interest taxes",
  "m&a": "mergers acquisitions",
};

/** The analyzed terms of a label or header, each abbreviation spelled out too. */
export function labelTerms(text: string): Set<string> {
  const terms = new Set(analyzeText(text));
  const lower = text.toLowerCase();
  for (const [abbreviation, words] of Object.entries(SPELLED_OUT)) {
    if (new RegExp(`(?:^|[^\\p{L}])${abbreviation}(?:$|[^\\p{L}])`, "u").test(lower))
      for (const term of analyzeText(words)) terms.add(term);
  }
  return terms;
}

/** The question's terms, each abbreviation spelled out (at the abbreviation's place). */
export function expandedTerms(terms: readonly QuestionTerm[]): QuestionTerm[] {
  return terms.flatMap((term) => {
    const words = SPELLED_OUT[term.term];
    return words === undefined ? [term] : analyzeText(words).map((spelled) => ({ ...term, term: spelled }));
  });
}

export type RowMatch = {
  rowIndex: number;
  row: GridRow;
  score: number;
  /** Indices into the question's terms that the row's label or section holds. */
  matched: Set<number>;
  /** Where in the question the row is first named (for the order of two items). */
  firstAt: number;
  /** Label words matched that are not operation words ("Net change" matched by "change" alone is weak). */
  contentMatches: number;
  /** Of those, the ones in the label itself (not its section or the table's caption). */
  labelContent: number;
};

/** Below this cosine a label means something else than the question's measure (bge-small's unrelated labels sit near 0.6–0.7). */
const MEANING_THRESHOLD = 0.8;
/** The best label must lead the next by this much, or meaning does not decide between them. */
const MEANING_MARGIN = 0.03;

/** The one row whose label means the question's measure, clearly ahead of every other. */
function rowByMeaning(
  grid: TableGrid,
  meaning: ReadonlyMap<string, number>,
): { row: GridRow; similarity: number } | null {
  if (meaning.size === 0) return null;
  const ranked = grid.rows
    .map((row) => ({ row, similarity: meaning.get(row.label) ?? 0 }))
    .sort((left, right) => right.similarity - left.similarity);
  const [best, next] = ranked;
  if (best === undefined || best.similarity < MEANING_THRESHOLD) return null;
  return next === undefined || best.similarity - next.similarity >= MEANING_MARGIN ? best : null;
}

/**
 * The question positions a label's words take: the window of the question where most of them stand
 * together, so "net bookings and in-game net bookings" gives "Net bookings" the first two words and
 * "In-game net bookings" the last three.
 */
function labelPositions(label: ReadonlySet<string>, terms: readonly QuestionTerm[]): Set<number> {
  const hits = terms.map((term, index) => ({ index, hit: label.has(term.term) })).filter((entry) => entry.hit);
  if (hits.length <= 1) return new Set(hits.map((entry) => entry.index));
  const span = label.size + 2;
  let best = new Set<number>();
  for (const { index: start } of hits) {
    const window = new Set<number>();
    const seen = new Set<string>();
    for (const { index } of hits) {
      const term = terms[index]?.term ?? "";
      if (index < start || index >= start + span || seen.has(term)) continue;
      window.add(index);
      seen.add(term);
    }
    if (window.size > best.size) best = window;
  }
  return best;
}

/** A row labelled only "Total" (or nothing) is the total of what the table, or its section, is about. */
const GENERIC_LABEL = /^(?:total|totals|net|subtotal|sub-total)?$/i;

export function scoreRows(
  grid: TableGrid,
  question: TableQuestion,
  terms: readonly QuestionTerm[],
  /** Words the table is known by beyond itself (its caption in the document's prose). */
  caption: ReadonlySet<string> = new Set(),
  /** A label's meaning match with the question's measure (label-meaning.ts), when words name no row. */
  meaning: ReadonlyMap<string, number> = new Map(),
): RowMatch[] {
  const matches: RowMatch[] = [];
  const byMeaning = rowByMeaning(grid, meaning);
  grid.rows.forEach((row, rowIndex) => {
    if (row === byMeaning?.row) {
      const score = 1 + (byMeaning.similarity - MEANING_THRESHOLD) * 10;
      matches.push({ rowIndex, row, score, matched: new Set(), firstAt: 0, contentMatches: 1, labelContent: 1 });
      return;
    }
    const label = labelTerms(row.label);
    const section = row.section === null ? new Set<string>() : labelTerms(row.section);
    if (GENERIC_LABEL.test(row.label.trim())) for (const term of [...grid.contextTerms, ...caption]) section.add(term);
    for (const term of label) section.delete(term);
    const matched = labelPositions(label, terms);
    const labelMatched = new Set([...matched].map((index) => terms[index]?.term ?? ""));
    const sectionMatched = new Set<string>();
    terms.forEach((questionTerm, index) => {
      if (!labelMatched.has(questionTerm.term) && section.has(questionTerm.term)) {
        matched.add(index);
        sectionMatched.add(questionTerm.term);
      }
    });
    if (labelMatched.size === 0 && !(label.size <= 1 && sectionMatched.size > 0)) return;
    const generic = GENERIC_LABEL.test(row.label.trim());
    const labelContent = [...labelMatched].filter((term) => !question.operationWords.has(term)).length;
    const operationMatches = labelMatched.size - labelContent;
    const missing = label.size - labelMatched.size;
    // A bare "Total" row answers what its table is about, but never ahead of a row the question names.
    const contextContent = [...sectionMatched].filter((term) => !question.operationWords.has(term)).length;
    // …and only to a question that asks for a total (or names its section): "What was the key focus … in 2019?" is no total.
    const namesSection =
      row.section !== null && [...labelTerms(row.section)].some((term) => terms.some((asked) => asked.term === term));
    if (generic && !terms.some((term) => term.term === "total") && !namesSection) return;
    const contentMatches = labelContent + (generic && contextContent > 0 ? 1 : 0);
    const score = generic
      ? 0.4 * operationMatches + 0.35 * Math.min(contextContent, 2) + 0.5
      : labelContent +
        0.4 * operationMatches +
        0.5 * sectionMatched.size -
        0.5 * missing +
        (missing === 0 ? 0.5 : 0) -
        0.25 * (section.size - sectionMatched.size > 0 && sectionMatched.size === 0 ? 1 : 0);
    const firstAt = Math.min(...[...matched].map((index) => terms[index]?.start ?? Number.POSITIVE_INFINITY));
    matches.push({
      rowIndex,
      row,
      score: score + periodBonus(row, question),
      matched,
      firstAt,
      contentMatches,
      labelContent,
    });
  });
  return matches.sort((left, right) => right.score - left.score || left.rowIndex - right.rowIndex);
}

/**
 * A row whose label names a period ("Balance payable as at June 30, 2019") answers a question naming
 * that period, and not one naming another.
 */
function periodBonus(row: GridRow, question: TableQuestion): number {
  const named = periodMentions(row.label);
  if (named.length === 0 || question.periods.length === 0) return 0;
  return named.some((period) => question.periods.some((asked) => periodFit(asked, period) > 0)) ? 1 : -1.5;
}

/** Header words of a column the question holds. */
function headerMatches(column: GridColumn, terms: readonly QuestionTerm[]): number {
  return terms.filter((term) => column.terms.has(term.term)).length;
}

/** Whether the question asks for a percentage (so a "%" column answers). */
function asksForPercent(terms: readonly QuestionTerm[]): boolean {
  return terms.some((term) => /^(?:percent|percentag|%|margin|rate)$/.test(term.term));
}

/**
 * The column that answers for one asked period: the best period fit, then the header words the question
 * holds, then an amount column over a percentage column (unless a percentage is asked).
 */
export function columnForPeriod(
  grid: TableGrid,
  period: TableQuestion["periods"][number],
  terms: readonly QuestionTerm[],
  row: GridRow,
): GridColumn | null {
  let best: { column: GridColumn; rank: number } | null = null;
  const percent = asksForPercent(terms);
  for (const column of grid.columns) {
    if (column.period === null) continue;
    const fit = periodFit(period, column.period);
    if (fit === 0 || row.values[column.index - 1]?.number == null) continue;
    const rank = fit * 10 + headerMatches(column, terms) * 2 + (column.percentColumn === percent ? 1 : 0);
    if (best === null || rank > best.rank) best = { column, rank };
  }
  return best?.column ?? null;
}

/**
 * The columns a question that names no period reads a row in: those whose header words it holds, else
 * the period columns (amounts, not percentages, unless asked), else every column with a number.
 */
/** A column of years ("Last Fiscal Year of Expiration: 2039"): its numbers are dates, not amounts. */
function holdsYears(grid: TableGrid, column: GridColumn): boolean {
  const texts = grid.rows.map((row) => row.values[column.index - 1]?.text ?? "").filter((text) => /\d/.test(text));
  return texts.length > 0 && texts.every((text) => /^(?:19|20)\d{2}\b/.test(text.trim()));
}

export function defaultColumns(grid: TableGrid, terms: readonly QuestionTerm[], row: GridRow): GridColumn[] {
  const withNumber = grid.columns.filter(
    (column) => row.values[column.index - 1]?.number != null && !holdsYears(grid, column),
  );
  const named = withNumber.filter((column) => headerMatches(column, terms) > 0);
  if (named.length > 0) {
    const most = Math.max(...named.map((column) => headerMatches(column, terms)));
    return named.filter((column) => headerMatches(column, terms) === most);
  }
  const percent = asksForPercent(terms);
  const periodColumns = withNumber.filter((column) => column.period !== null && column.percentColumn === percent);
  if (periodColumns.length > 0) return periodColumns;
  const anyPeriod = withNumber.filter((column) => column.period !== null);
  if (anyPeriod.length > 0) return anyPeriod;
  // Columns without periods: "Total" is the row's own value where the others are its parts.
  const total = withNumber.filter((column) => /^total\b/i.test(column.header));
  return total.length > 0 ? total : withNumber;
}

/** Columns named by their header's words (not periods), best first: "Americas" and "Asia Pacific". */
export function namedColumns(
  grid: TableGrid,
  terms: readonly QuestionTerm[],
): Array<{ column: GridColumn; matched: Set<number>; firstAt: number }> {
  const found: Array<{ column: GridColumn; matched: Set<number>; firstAt: number }> = [];
  for (const column of grid.columns) {
    const matched = new Set<number>();
    terms.forEach((term, index) => {
      if (column.terms.has(term.term)) matched.add(index);
    });
    if (matched.size === 0 || matched.size < column.terms.size / 2) continue;
    found.push({ column, matched, firstAt: Math.min(...[...matched].map((index) => terms[index]?.start ?? 0)) });
  }
  return found.sort((left, right) => right.matched.size - left.matched.size);
}
