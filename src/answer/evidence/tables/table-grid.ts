/**
 * Reads a table passage back into a grid a question can be matched against: columns with their whole
 * header (several header rows joined, a group header carried over the columns it spans: "December 31,
 * 2019" over "Carrying amount | Fair value"), the period each names, and rows with their label, the
 * section row they stand under (context, not part of the label) and their values. The unit comes from
 * the table's own note ("(in thousands)", "$'000", "£m") or, per column, from its header. A table
 * whose rows are periods and whose columns are measures is read turned, so rows are always measures.
 */
import { TABLE_CELL_SEPARATOR } from "../../../../ingestion/chunker.js";
import type { SearchResult } from "../../../domain/types.js";
import { uniqueTerms } from "../sentence-scoring.js";
import { parseCellNumber, type UnitScale } from "../table-cells.js";
import { linesOf } from "../text-lines.js";
import { type PeriodMention, periodMentions } from "./period-mentions.js";

export type GridValue = {
  /** As printed ("$ 1,452.4", "(19)", "73.2%"). */
  text: string;
  number: number | null;
  percent: boolean;
  currency: string | null;
};

export type GridColumn = {
  index: number;
  /** Every header row's text for this column, joined ("December 31, 2019 Fair Value"). */
  header: string;
  /** The one period the header names; null for none or several ("2019 vs 2018"). */
  period: PeriodMention | null;
  /** Analyzed words of the header, less its period. */
  terms: Set<string>;
  /** A "%" or "% of sales" column beside an amount column. */
  percentColumn: boolean;
  /** A scale the header itself states ("2019 $'000", "£m"). */
  scale: UnitScale | null;
};

export type GridRow = {
  label: string;
  /** The section row above ("Deferred:"), without its colon; null at the top level. */
  section: string | null;
  values: Array<GridValue | null>;
  /** Offsets of the row's line in the passage text. */
  start: number;
  end: number;
};

export type TableGrid = {
  columns: GridColumn[];
  rows: GridRow[];
  /** The table's scale, from its note or its header's first cell. */
  scale: UnitScale | null;
  /** The note as printed, when there is one. */
  unitNote: string | null;
  /** A currency printed on some amount, taken to be every amount's (statements print "$" on first and total rows). */
  currency: string | null;
  /** Whether the grid was read turned (rows were periods). */
  turned: boolean;
  /** Analyzed words of what the passage prints around the table: its caption, heading, sheet and header rows. */
  contextTerms: Set<string>;
};

const SCALE_WORDS: Array<[RegExp, UnitScale]> = [
  [
    /\b(?:in\s+|\(|amounts?\s+in\s+|dollars\s+in\s+)?(?:[$€£¥]\s*|us\$\s*|usd\s+|eur\s+|gbp\s+|rmb\s+)?thousands?\b|['’]000s?\b|\$\s?k\b|\b000s\b/i,
    "thousand",
  ],
  [
    /\b(?:in\s+)?(?:[$€£¥]\s*|us\$\s*|usd\s+|eur\s+|gbp\s+|rmb\s+)?millions?\b|(?:[$€£¥]|us\$)\s?m(?:n|m)?\b|\(\s?m\s?\)|\brm\s?m\b/i,
    "million",
  ],
  [/\b(?:in\s+)?(?:[$€£¥]\s*|us\$\s*)?billions?\b|(?:[$€£¥]|us\$)\s?bn?\b/i, "billion"],
];

/** The scale a note, caption or header cell states: "(In thousands)", "$'000", "£m", "US$ million". */
export function statedScale(text: string): UnitScale | null {
  const found = SCALE_WORDS.filter(([pattern]) => pattern.test(text)).map(([, scale]) => scale);
  return found.length === 1 ? (found[0] ?? null) : null;
}

/** A scale stated as a unit note ("in millions", "($ in thousands)", "'000"), not a word in a sentence ("millions of users"). */
export function noteScale(text: string): UnitScale | null {
  const notes = [
    ...text.matchAll(
      /\((?:[^()]{0,30}\b)?(?:in\s+)?(?:[$€£¥]\s*|us\$\s*)?(thousands|millions|billions|000s?|'000)\b[^()]{0,40}\)|\bin\s+(?:[$€£¥]\s*|us\$\s*)?(thousands|millions|billions)\b|[$€£¥]\s?['’]000\b|(?:[$€£¥]|us\$)\s?(m|bn)\b/gi,
    ),
  ];
  const scales = new Set(notes.map((note) => statedScale(note[0]) ?? (/['’]?000/.test(note[0]) ? "thousand" : null)));
  scales.delete(null);
  return scales.size === 1 ? ([...scales][0] ?? null) : null;
}

/** Cells as printed, a year set out letter by letter ("2 0 1 8", a PDF's spaced heading) read whole. */
function splitCells(line: string): string[] {
  return line
    .split(TABLE_CELL_SEPARATOR)
    .map((cell) => cell.trim().replace(/^((?:19|20)?)\s?(\d) (\d) (\d) (\d)$/, "$2$3$4$5"));
}

export function readValue(text: string): GridValue | null {
  if (text === "") return null;
  // A dash in a statement is nil: zero in a calculation ("(228) less —").
  if (/^[$€£¥]?\s*[—–-]+$/.test(text)) return { text, number: 0, percent: false, currency: null };
  const parsed = parseCellNumber(text.replace(/^([$€£¥])\s*\(\s*([\d.,]+)\s*\)$/, "($1$2)"));
  return {
    text,
    number: parsed?.number ?? null,
    percent: parsed?.percent ?? false,
    currency: parsed?.currency ?? null,
  };
}

/**
 * A cell that names a period or a column and holds no amount: "2019", "December 31, 2019", "Years Ended
 * December 31,", "Fair value", "%". A cell that reads as a number (other than a year) is an amount.
 */
function isHeaderText(cell: string): boolean {
  if (cell === "" || statedScale(cell) !== null) return true;
  const periods = periodMentions(cell);
  const withoutPeriods = periods.reduceRight(
    (text, period) => text.slice(0, period.start) + text.slice(period.end),
    cell,
  );
  if (!/\d/.test(withoutPeriods)) return true;
  // "Years Ended December 31,", "Fiscal year end June 2, 2018", "2019 $'000": words around a day or a unit.
  return parseCellNumber(cell.trim()) === null && (cell.match(/\p{L}/gu) ?? []).length >= 3;
}

/**
 * A row at the top of the body that continues the header: its values hold no amount, and it has no label
 * (or a unit note, or a period phrase), or it names a period, or it is a group row (some cells empty).
 */
function isHeaderRow(cells: string[]): boolean {
  const [label = "", ...values] = cells;
  const filled = values.filter((value) => value !== "");
  if (filled.length === 0) return label === "" || statedScale(label) !== null;
  if (!values.every(isHeaderText)) return false;
  const labelIsHeader =
    label === "" ||
    statedScale(label) !== null ||
    (/\b(?:year|years|ended|as of|at|fiscal|period)\b/i.test(label) && periodMentions(label).length === 0);
  const namesPeriod = filled.some((value) => periodMentions(value).length > 0);
  const isGroup = filled.length < values.length;
  return labelIsHeader || namesPeriod || isGroup;
}

/**
 * Header rows joined per column. A group header (a row with gaps, above another header row) is carried
 * right over the empty cells it spans — but not over a column whose own header below names a period,
 * which is a column of its own ("Percent Change" over "Actual | Constant" stops before "2018").
 */
function joinHeaders(headerRows: string[][], width: number): string[] {
  const columns: string[] = Array.from({ length: width }, () => "");
  headerRows.forEach((row, rowIndex) => {
    const below = headerRows.slice(rowIndex + 1);
    const isGroup = below.length > 0 && row.slice(1).some((cell) => cell === "");
    let carried = "";
    for (let index = 1; index < width; index += 1) {
      const cell = row[index] ?? "";
      const belowNamesPeriod = below.some((lower) => periodMentions(lower[index] ?? "").length > 0);
      if (cell !== "") carried = cell;
      else if (belowNamesPeriod) carried = "";
      const text = cell !== "" ? cell : isGroup ? carried : "";
      if (text !== "" && !columns[index]?.includes(text)) columns[index] = `${columns[index]} ${text}`.trim();
    }
  });
  return columns;
}

/** A header's words that name its column: not the words of its period ("Years Ended") or its unit note ("(in millions)", "$'000"). */
export function headerWords(header: string): string {
  return header
    .replace(/\([^()]*\b(?:thousands?|millions?|billions?|000)\b[^()]*\)/gi, " ")
    .replace(/(?:[$€£¥]|us\$)\s?['’]?000s?\b|['’]000s?\b|(?:[$€£¥]|us\$)\s?(?:m|mn|bn|k)\b|[$€£¥]/gi, " ")
    .replace(
      /\b(?:years?|months?|weeks?|quarters?|ended|ending|fiscal|as\s+of|at|in|thousands?|millions?|billions?)\b/gi,
      " ",
    );
}

const PERCENT_HEADER = /^%|%$|\bpercent(?:age)?\b|\bas a % of\b|^% of\b/i;

export function readColumns(headers: string[]): GridColumn[] {
  const columns: GridColumn[] = [];
  for (let index = 1; index < headers.length; index += 1) {
    const header = headers[index] ?? "";
    const mentions = periodMentions(header);
    const distinctYears = new Set(mentions.map((mention) => `${mention.year}-${mention.quarter ?? ""}`));
    let period = distinctYears.size === 1 ? (mentions.at(-1) ?? null) : null;
    // "%", "% of sales" beside an amount column; not "Percent Change", which compares two periods.
    const percentColumn =
      PERCENT_HEADER.test(header.replace(/\b(?:19|20)\d{2}\b/g, "").trim()) &&
      !/\b(?:change|growth|increase|decrease|variance|yr|vs\.?)\b/i.test(header);
    // "2019 | % | 2018 | %": a percentage column belongs to the period on its left.
    const left = columns.at(-1);
    if (period === null && mentions.length === 0 && percentColumn && left?.period) period = left.period;
    const withoutPeriods = mentions.reduceRight(
      (text, mention) => text.slice(0, mention.start) + text.slice(mention.end),
      header,
    );
    columns.push({
      index,
      header,
      period,
      terms: uniqueTerms(headerWords(withoutPeriods)),
      percentColumn,
      scale: statedScale(header),
    });
  }
  return columns;
}

/** The passage's lines: those above the table (caption, sheet), the header line, and the body rows. */
function tableLines(
  result: Pick<SearchResult, "text" | "provenance">,
): { above: string[]; header: string[]; body: Array<{ text: string; start: number; end: number }> } | null {
  const { rowStart, rowEnd, columns } = result.provenance;
  if (rowStart === undefined || rowEnd === undefined) return null;
  const lines = linesOf(result.text);
  const rowCount = Math.min(rowEnd - rowStart + 1, columns === undefined ? lines.length - 1 : lines.length);
  if (rowCount < 1) return null;
  const body = lines.slice(lines.length - rowCount);
  const aboveLines = lines.slice(0, lines.length - rowCount);
  const header = columns ?? (aboveLines.at(-1) === undefined ? [] : splitCells(aboveLines.at(-1)?.text ?? ""));
  // The chunk repeats the header line above its rows when the table has one.
  const above = aboveLines
    .map((line) => line.text)
    .filter((text) => splitCells(text).join("|") !== header.map((cell) => cell.trim()).join("|"));
  return { above, header, body };
}

/** A cell that names one or more periods and nothing else ("2019", "2019 2018", "FY19"). */
function onlyPeriods(cell: string): boolean {
  const periods = periodMentions(cell);
  const rest = periods.reduceRight((text, period) => text.slice(0, period.start) + text.slice(period.end), cell);
  return periods.length > 0 && rest.replace(/[\s,&]+|\band\b/gi, "") === "";
}

/**
 * Header cells that each name one period: a PDF's table reader often keeps several in one cell ("2018
 * 2017"), and the columns below it are then read as one. A cell naming several periods and nothing else
 * is spread over that many columns.
 */
function spreadPeriods(headers: string[]): string[] {
  const spread: string[] = [headers[0] ?? ""];
  for (const header of headers.slice(1)) {
    const periods = periodMentions(header);
    if (periods.length >= 2 && onlyPeriods(header))
      for (const period of periods) spread.push(header.slice(period.start, period.end));
    else spread.push(header);
  }
  return spread;
}

/** A figure as a statement prints it: "$ 1,452.4", "(19)", "12.4%", "—". */
const VALUE_TOKEN = /(?:[$€£¥]\s?)?\(?\s*[$€£¥]?\s?-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\s?\)?\s?%?|[—–]/y;

/** The run of figures a row ends with, and the text before it; null when the row does not end in figures. */
export function trailingFigures(text: string): { label: string; figures: string[] } | null {
  const figures: Array<{ text: string; start: number }> = [];
  let position = 0;
  const tokens: Array<{ text: string; start: number }> = [];
  while (position < text.length) {
    const space = /\s+/y;
    space.lastIndex = position;
    if (space.exec(text) !== null) position = space.lastIndex;
    VALUE_TOKEN.lastIndex = position;
    const match = VALUE_TOKEN.exec(text);
    const end = match === null ? -1 : position + match[0].trimEnd().length;
    if (match !== null && (end === text.length || /\s/.test(text[end] ?? ""))) {
      tokens.push({ text: match[0].trim(), start: position });
      position = end;
      continue;
    }
    tokens.length = 0;
    const word = /\S+/y;
    word.lastIndex = position;
    position = word.exec(text) === null ? position + 1 : word.lastIndex;
  }
  figures.push(...tokens);
  if (figures.length === 0) return null;
  return { label: text.slice(0, figures[0]?.start ?? 0).trim(), figures: figures.map((figure) => figure.text) };
}

/**
 * A row's cells under its columns. A PDF's reader may put the label and the first figure in one cell, or
 * two figures in one ("Fixed Price $ 1,452.4 | $ 1,146.2 $ 1,036.9"): when the cells do not line up with
 * the columns but the row ends in exactly as many figures (or more, the rest belonging to the label, as
 * "Notes due 2024"), it is read as its label and its figures.
 */
function realigned(cells: string[], columns: number): string[] {
  const values = cells.slice(1);
  // A label may end in a number of its own ("Notes due 2024", "as at June 30, 2019") and a cell may be
  // text: only a row with fewer cells than columns, or a cell holding two figures, was split badly.
  const twoFigures = (value: string) => {
    const read = trailingFigures(value);
    return read !== null && read.label === "" && read.figures.length >= 2;
  };
  const linedUp = values.length >= columns && !values.some(twoFigures);
  if (linedUp || columns === 0) return cells;
  const read = trailingFigures(cells.join(" "));
  if (read === null || read.figures.length < columns) return cells;
  const extra = read.figures.slice(0, read.figures.length - columns);
  const label = [read.label, ...extra].join(" ").trim();
  return [label, ...read.figures.slice(read.figures.length - columns)];
}

/** The grid of a table passage; null for prose or a table without values. */
export function readTableGrid(result: Pick<SearchResult, "text" | "kind" | "provenance">): TableGrid | null {
  if (result.kind !== "table") return null;
  const lines = tableLines(result);
  if (lines === null) return null;
  const bodyCells = lines.body.map((line) => ({ ...line, cells: splitCells(line.text) }));
  const width = Math.max(lines.header.length, ...bodyCells.map((row) => row.cells.length));
  // A PDF's reader may leave out the label column's empty header: "2019 | 2018 2017" heads three figure columns.
  const header = lines.header.map((cell) => cell.trim());
  // Only when the rows hold more figures than the header has figure columns ("30 June 2019 | Current |
  // … | Total" over rows of as many cells heads its label column with the date).
  const figureCounts = bodyCells
    .map((row) => trailingFigures(row.cells.join(" "))?.figures.length ?? 0)
    .sort((left, right) => left - right);
  const typicalFigures = figureCounts[Math.floor(figureCounts.length / 2)] ?? 0;
  const firstNamesPeriod = onlyPeriods(header[0] ?? "") && spreadPeriods(header).length - 1 < typicalFigures;
  const headerRows = [firstNamesPeriod ? ["", ...header] : header];
  const headerWidth = Math.max(width, headerRows[0]?.length ?? 0);
  let first = 0;
  while (first < bodyCells.length - 1 && isHeaderRow(bodyCells[first]?.cells ?? [])) {
    headerRows.push(bodyCells[first]?.cells ?? []);
    first += 1;
  }
  const headers = spreadPeriods(joinHeaders(headerRows, headerWidth));
  const columns = readColumns(headers);
  const labelCells = headerRows.map((row) => row[0] ?? "").filter((cell) => cell !== "");
  const context = [...lines.above, ...labelCells, ...headers].join(" \n ");
  const scale = noteScale(context) ?? labelCells.map(statedScale).find((found) => found !== null) ?? null;
  const rows: GridRow[] = [];
  let section: string | null = null;
  for (const line of bodyCells.slice(first)) {
    const [label = "", ...rest] = realigned(line.cells, columns.length);
    const values = columns.map((column) => readValue(rest[column.index - 1] ?? ""));
    if (values.every((value) => value === null)) {
      if (label !== "") section = label.replace(/:$/, "").trim();
      continue;
    }
    rows.push({
      label: label === "" && section !== null ? `Total ${section}` : label,
      section: label === "" ? null : section,
      values,
      start: line.start,
      end: line.end,
    });
    if (/^total\b/i.test(label)) section = null;
  }
  if (rows.length === 0) return null;
  const currency = rows.flatMap((row) => row.values).find((value) => value?.currency)?.currency ?? null;
  const headingPath = result.provenance.headingPath ?? [];
  const contextTerms = uniqueTerms([context, ...headingPath].join(" "));
  const grid: TableGrid = { columns, rows, scale, unitNote: null, currency, turned: false, contextTerms };
  return turnedIfRowsArePeriods(grid);
}

/** A table whose row labels are periods and whose headers are not reads better turned: rows become measures. */
function turnedIfRowsArePeriods(grid: TableGrid): TableGrid {
  const periodRows = grid.rows.filter((row) => {
    const mentions = periodMentions(row.label);
    return mentions.length === 1 && row.label.replace(/[^\p{L}]/gu, "").length <= 12;
  });
  const periodColumns = grid.columns.filter((column) => column.period !== null);
  if (periodRows.length < 2 || periodRows.length < grid.rows.length / 2 || periodColumns.length > 0) return grid;
  const columns: GridColumn[] = grid.rows.map((row, index) => {
    const mentions = periodMentions(row.label);
    return {
      index: index + 1,
      header: row.label,
      period: mentions.length === 1 ? (mentions[0] ?? null) : null,
      terms: new Set<string>(),
      percentColumn: false,
      scale: null,
    };
  });
  const rows: GridRow[] = grid.columns.map((column) => ({
    label: column.header,
    section: null,
    values: grid.rows.map((row) => row.values[column.index - 1] ?? null),
    start: grid.rows[0]?.start ?? 0,
    end: grid.rows.at(-1)?.end ?? 0,
  }));
  return { ...grid, columns, rows, turned: true };
}
