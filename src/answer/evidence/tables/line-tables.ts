/**
 * Tables a PDF's reader left as lines of text — statements set without rules, as earnings releases and
 * quarterly reports print them: consecutive lines that each end in the same number of figures
 * ("Sales 8,657 8,244 5.0% 3.2%"), under a line that names their periods ("F19 F18 (3) CHANGE"). Read as a
 * grid whose first columns take the periods in the order printed, so the same plans answer them.
 */
import type { SearchResult } from "../../../domain/types.js";
import { uniqueTerms } from "../sentence-scoring.js";
import { linesOf, type TextLine } from "../text-lines.js";
import { periodMentions } from "./period-mentions.js";
import {
  type GridRow,
  noteScale,
  readColumns,
  readValue,
  statedScale,
  type TableGrid,
  trailingFigures,
} from "./table-grid.js";

/** Fewer rows than this are a sentence or two with figures, not a table. */
const MINIMUM_ROWS = 3;
/** How far above its first row a table's period line may stand. */
const HEADER_LINES = 3;

type FigureLine = { line: TextLine; label: string; figures: string[] };

function figureLine(line: TextLine): FigureLine | null {
  const text = line.text.trim();
  // A sentence that ends in a figure ("… rose to 8,657.") is prose: a row's label is short and has no full stop.
  if (text === "" || /[.;:]\s/.test(text) || text.length > 160) return null;
  const read = trailingFigures(text);
  if (read === null || read.figures.length < 2 || read.label === "" || !/\p{L}/u.test(read.label)) return null;
  return { line, label: read.label, figures: read.figures };
}

/** Runs of figure lines with the same number of figures (blank lines between them allowed). */
function runs(lines: TextLine[]): FigureLine[][] {
  const found: FigureLine[][] = [];
  let current: FigureLine[] = [];
  const close = () => {
    if (current.length >= MINIMUM_ROWS) found.push(current);
    current = [];
  };
  for (const line of lines) {
    if (line.text.trim() === "") continue;
    const row = figureLine(line);
    if (row === null || (current.length > 0 && current[0]?.figures.length !== row.figures.length)) {
      close();
      if (row !== null) current.push(row);
      continue;
    }
    current.push(row);
  }
  close();
  return found;
}

/** The headers of a run's columns: the periods of the line above it that names most, in order, then blanks. */
function headersAbove(lines: TextLine[], first: TextLine, width: number): string[] {
  const index = lines.indexOf(first);
  let best: string[] = [];
  for (const line of lines.slice(Math.max(0, index - HEADER_LINES), index).reverse()) {
    const periods = periodMentions(line.text).map((period) => line.text.slice(period.start, period.end));
    if (periods.length > best.length) best = periods;
  }
  return ["", ...Array.from({ length: width }, (_, column) => best[column] ?? "")];
}

export type LineTable = { grid: TableGrid; start: number; end: number };

/** The tables a prose passage holds as lines of figures, each as a grid. */
export function lineTables(result: Pick<SearchResult, "text" | "kind">): LineTable[] {
  if (result.kind === "table") return [];
  const lines = linesOf(result.text);
  const tables: LineTable[] = [];
  for (const run of runs(lines)) {
    const first = run[0];
    if (first === undefined) continue;
    const width = first.figures.length;
    const headers = headersAbove(lines, first.line, width);
    if (headers.every((header) => header === "")) continue;
    const columns = readColumns(headers);
    const rows: GridRow[] = run.map((row) => ({
      label: row.label,
      section: null,
      values: row.figures.map((figure) => readValue(figure)),
      start: row.line.start,
      end: row.line.end,
    }));
    const currency = rows.flatMap((row) => row.values).find((value) => value?.currency)?.currency ?? null;
    const above = lines.slice(Math.max(0, lines.indexOf(first.line) - HEADER_LINES), lines.indexOf(first.line));
    const context = above.map((line) => line.text).join(" \n ");
    tables.push({
      grid: {
        columns,
        rows,
        scale: noteScale(context) ?? statedScale(context),
        unitNote: null,
        currency,
        turned: false,
        contextTerms: uniqueTerms(context),
      },
      start: first.line.start,
      end: run.at(-1)?.line.end ?? first.line.end,
    });
  }
  return tables;
}
