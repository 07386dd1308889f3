/**
 * Writes a found table cell as the answer's first sentence and as its citation's quote: what the
 * number is (the row's label), for when (the column), and in what unit — "Net income for 2018 was
 * $1,933 million [1]." Every number written is the cell's own, scaled by the unit its table states; a
 * thousands figure (or millions past a billion) also gets its value in a readable unit to four
 * significant digits: "$558,929 thousand ($558.9 million)".
 */

import type { QuotedPassage } from "../citations/citations.js";
import type { FoundFigure } from "../evidence/find-figure.js";
import { SCALE_FACTORS, type TableCell, tableCells } from "../evidence/table-cells.js";
import { inReadableUnit, namesOnlyAPart } from "../evidence/tables/table-wording.js";
import { possessive } from "../question/possessive.js";

/** A company's legal form, written with its capitals whatever the case around it ("NIKE, INC." → "Inc."). */
const LEGAL_FORMS: Record<string, string> = {
  inc: "Inc",
  corp: "Corp",
  co: "Co",
  ltd: "Ltd",
  llc: "LLC",
  plc: "plc",
  ag: "AG",
};
const LEGAL_FORM = /(?<=,?\s)(inc|corp|co|ltd|llc|plc|ag)\b/g;

/** "NET INCOME" reads as "Net income" in a sentence; "Net income" stays. */
function asWritten(label: string): string {
  const letters = label.replace(/[^\p{L}]/gu, "");
  const shouted = letters.length > 3 && letters === letters.toUpperCase();
  const text = shouted
    ? (label.charAt(0) + label.slice(1).toLowerCase()).replace(LEGAL_FORM, (form: string) => LEGAL_FORMS[form] ?? form)
    : label;
  return asPrinted(text);
}

/** The label without its trailing colon, as the table prints it (a quote keeps the document's own case). */
function asPrinted(label: string): string {
  return label.replace(/\s*[:]\s*$/, "").trim();
}

/** The digits as printed, without spaces or brackets: "$ 1,933" → "1,933". */
function printedDigits(value: string): string {
  return (/[\d,]*\.?\d+/.exec(value)?.[0] ?? value).replace(/^,|,$/g, "");
}

/** The cell's value as printed, with its unit: "$1,933 million", "$558,929 thousand", "12.4%", "-$6 million". */
export function formatCellAmount(cell: TableCell): string {
  const sign = (cell.number ?? 0) < 0 ? "-" : "";
  const printed = `${sign}${cell.currency ?? ""}${printedDigits(cell.value)}`;
  if (cell.percent) return `${printed}%`;
  if (cell.scale === null || cell.number === null) return printed;
  return `${printed} ${cell.scale}`;
}

/**
 * The cell's value for a sentence: as printed, and in a readable unit where the printed one is not —
 * "$558,929 thousand ($558.9 million)", "$1,933 million ($1.933 billion)".
 */
export function formatCellValue(cell: TableCell): string {
  const written = formatCellAmount(cell);
  if (cell.percent || cell.scale === null || cell.number === null) return written;
  const base = cell.number * SCALE_FACTORS[cell.scale];
  const readableFrom = cell.scale === "thousand" ? 1e6 : cell.scale === "million" ? 1e9 : Number.POSITIVE_INFINITY;
  const readable = Math.abs(base) >= readableFrom ? inReadableUnit(base, cell.currency ?? null) : null;
  return readable === null ? written : `${written} (${readable})`;
}

/** "2018" stays; "Three Months Ended June 30, 2023" reads "the three months ended June 30, 2023". */
function periodPhrase(column: string): string {
  if (/^(?:fiscal\s+|fy\s?)?\d{4}$/i.test(column.trim())) return column.trim();
  // "Three Months Ended …" reads "three months ended …" mid-sentence; a month keeps its capital ("December 31, 2018").
  const lowered = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i.test(column.trim())
    ? column.trim()
    : column
        .trim()
        .replace(/^(\p{Lu})(\p{Ll})/u, (_, first: string, second: string) => `${first.toLowerCase()}${second}`);
  return /^(?:three|six|nine|twelve|\d{1,2}\s+weeks|year|years|quarter|fiscal|month)/i.test(lowered)
    ? `the ${lowered.replace(/\b(Months|Weeks|Ended|Year|Quarter)\b/g, (word) => word.toLowerCase())}`
    : lowered;
}

/** "Revenues were", "Net income was": the verb agrees with the label's last word. */
function verbFor(label: string): string {
  const last = label.split(/\s+/).at(-1)?.toLowerCase() ?? "";
  return /[^su]s$/.test(last) && !/(?:ness|ous|sis|tus|ss)$/.test(last) ? "were" : "was";
}

/**
 * What the row measures, with the section it belongs to when the row names a part only — "Casino" under
 * "Revenues" is "Casino revenues", "Diluted" under "Earnings per share" is "Diluted earnings per share" —
 * or shares its label with another row of the table; otherwise the label alone ("Net income", never
 * "Net income other income (expense)").
 */
function measuredBy(cell: TableCell, table: readonly TableCell[]): string {
  const label = asWritten(cell.label);
  const section = cell.parents.at(-1);
  if (section === undefined || label.toLowerCase().includes(section.toLowerCase())) return label;
  const key = cell.label.trim().toLowerCase();
  const shared = table.some((other) => other.label.trim().toLowerCase() === key && other.parents.at(-1) !== section);
  return namesOnlyAPart(label) || shared ? `${label} ${asWritten(section).toLowerCase()}` : label;
}

/** The fiscal year a column's date belongs to, when the column does not name it: "52 weeks ended January 28, 2023" → " (fiscal 2022)". */
function fiscalYearNote(cell: TableCell): string {
  if (cell.period === null || cell.period.quarter !== undefined) return "";
  return new RegExp(`\\b${cell.period.year}\\b`).test(cell.column) ? "" : ` (fiscal ${cell.period.year})`;
}

/** The answer's first sentence for a found figure, citing its source. */
export function figureSentence(figure: FoundFigure, entity: string | null): string {
  const { cell } = figure;
  let label = measuredBy(cell, tableCells(figure.source.result));
  const namesEntity = entity !== null && label.toLowerCase().includes(entity.toLowerCase());
  // A shouted label lower-cased ("Total nike, inc. revenues") gets the name back as the question wrote it.
  if (namesEntity) label = label.replace(new RegExp(entity.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i"), entity);
  const subject =
    entity === null || namesEntity ? label : `${possessive(entity)} ${label.charAt(0).toLowerCase()}${label.slice(1)}`;
  const when = cell.column === "" ? "" : ` for ${periodPhrase(cell.column)}${fiscalYearNote(cell)}`;
  return `${subject}${when} ${verbFor(label)} ${formatCellValue(cell)} [${figure.source.n}].`;
}

/** The whole row the cell is in, its cells named by their columns, with the table's unit: the citation's quote. */
export function figureQuote(figure: FoundFigure): QuotedPassage {
  const { cell } = figure;
  const row = tableCells(figure.source.result).filter((other) => other.rowStart === cell.rowStart);
  const cells = row.map((other) => (other.column === "" ? other.value : `${other.column}: ${other.value}`));
  const parents = cell.parents.length > 0 ? `${cell.parents.join(" › ")} › ` : "";
  const unit = cell.unitNote ?? (cell.scale === null ? "" : `(in ${cell.scale}s)`);
  const text = `${parents}${asPrinted(cell.label)} — ${cells.join("; ")}${unit === "" ? "" : ` ${unit}`}`;
  return { text, start: cell.rowStart, end: cell.rowEnd };
}
