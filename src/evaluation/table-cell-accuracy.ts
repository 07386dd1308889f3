/**
 * Cell accuracy of a table reader against gold grids (issue #39): the share of gold cells whose value
 * is found in the detected grid under the same row label and the same column header, and the share of
 * gold column headers found among the detected ones. Both sides go through the same flattening — the
 * header rows at the top joined per column (a group header carried over the empty cells to its right),
 * labels and headers compared on their words, values on their figures — so a table printed in another
 * shape (a header on two lines instead of one) scores the same when it reads the same.
 */

/** A table as rows of cells: the label in the first cell, values after it. */
export type CellRows = readonly (readonly string[])[];

/** A table with its header rows joined: one header per column, and body rows. */
export type FlatTable = { headers: string[]; body: string[][] };

export type CellMismatch = { label: string; header: string; gold: string; detected: string | null };

export type CellScore = {
  cells: number;
  cellsFound: number;
  columns: number;
  columnsFound: number;
  mismatches: CellMismatch[];
};

const YEAR = /^(?:fy\s?)?(?:19|20)\d{2}$/i;

/** A cell that holds an amount (a year alone, a date or a word does not). */
function isAmount(cell: string): boolean {
  const text = cell.trim();
  if (text === "" || YEAR.test(text)) return false;
  return /^[-+(]?\s*[$€£¥]?\s*\(?\s*[\d.,]*\d[\d.,]*\s*\)?\s*%?\)?$/.test(text) || /^[—–-]+$/.test(text);
}

/** A label cell that belongs to a header row: empty, a unit note, or words about periods. */
function isHeaderLabel(label: string): boolean {
  if (label.trim() === "") return true;
  return /\b(?:in (?:thousands|millions|billions)|thousands|millions|billions|year|years|ended|as of|fiscal|quarter|months|weeks)\b|^\(?[$€£¥]?m\)?$|^\([^)]*\)$/i.test(
    label,
  );
}

/** Whether a row below the first header row goes on with the header: no amounts, and a header's label. */
function isHeaderRow(row: readonly string[]): boolean {
  const [label = "", ...values] = row;
  const filled = values.filter((value) => value.trim() !== "");
  if (filled.length === 0) return false;
  return !filled.some(isAmount) && isHeaderLabel(label);
}

/**
 * The header rows of a table joined per column. `firstIsHeader` says the first row is a header (an HTML
 * `th` row, a PDF table's header); further rows join it while they hold no amounts.
 */
export function flattenTable(rows: CellRows, firstIsHeader: boolean): FlatTable {
  const nonEmpty = rows.filter((row) => row.some((cell) => cell.trim() !== ""));
  const width = Math.max(0, ...nonEmpty.map((row) => row.length));
  let headerCount = 0;
  if (firstIsHeader && nonEmpty.length > 0) {
    headerCount = 1;
    while (headerCount < nonEmpty.length - 1 && isHeaderRow(nonEmpty[headerCount] ?? [])) headerCount += 1;
  }
  const headerRows = nonEmpty.slice(0, headerCount);
  const headers = Array.from({ length: width }, () => "");
  headerRows.forEach((row, rowIndex) => {
    const isLast = rowIndex === headerRows.length - 1;
    let carried = "";
    for (let column = 1; column < width; column += 1) {
      const cell = (row[column] ?? "").trim();
      if (cell !== "") carried = cell;
      const text = cell !== "" ? cell : isLast ? "" : carried;
      if (text !== "") headers[column] = `${headers[column]} ${text}`.trim();
    }
  });
  headers[0] = headerRows
    .map((row) => (row[0] ?? "").trim())
    .filter((cell) => cell !== "")
    .join(" ");
  const body = nonEmpty.slice(headerCount).map((row) => Array.from({ length: width }, (_, index) => row[index] ?? ""));
  return { headers, body };
}

/** The words of a label or header, lower case, in order ("Net sales . . . ." and "Net Sales:" alike). */
export function labelKey(text: string): string {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(" ");
}

/** A header's words in any order: a group header may come before or after the period it is carried to. */
export function headerKey(text: string): string {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).sort().join(" ");
}

/** A value as compared: no blanks, currency signs or thousands separators; every dash one dash. */
export function valueKey(text: string): string {
  return text
    .replace(/[\s$€£¥,]/g, "")
    .replace(/^[—–-]+$/, "—")
    .toLowerCase();
}

function tokens(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/**
 * Which detected column each gold column is: headers whose words are the same, or one's words all in
 * the other's (a group header such as "Years Ended September 30," carried over one more column on one
 * side than the other); the closest first, each detected column taken once.
 */
function mapColumns(gold: FlatTable, detected: FlatTable): Map<number, number> {
  const pairs: Array<{ gold: number; detected: number; closeness: number }> = [];
  gold.headers.forEach((goldHeader, goldColumn) => {
    const goldWords = tokens(goldHeader);
    if (goldColumn === 0 || goldWords.size === 0) return;
    detected.headers.forEach((detectedHeader, detectedColumn) => {
      const detectedWords = tokens(detectedHeader);
      if (detectedColumn === 0 || detectedWords.size === 0) return;
      const shared = [...goldWords].filter((word) => detectedWords.has(word)).length;
      if (shared < Math.min(goldWords.size, detectedWords.size)) return;
      // Equally close headers go to the column in the same place.
      const closeness =
        shared / (goldWords.size + detectedWords.size - shared) - Math.abs(goldColumn - detectedColumn) * 0.001;
      pairs.push({ gold: goldColumn, detected: detectedColumn, closeness });
    });
  });
  pairs.sort((left, right) => right.closeness - left.closeness || left.detected - right.detected);
  const map = new Map<number, number>();
  const taken = new Set<number>();
  for (const pair of pairs) {
    if (map.has(pair.gold) || taken.has(pair.detected)) continue;
    map.set(pair.gold, pair.detected);
    taken.add(pair.detected);
  }
  return map;
}

/** Each body row under its label and the label's occurrence ("total#0", "total#1"). */
function rowsByLabel(table: FlatTable): Map<string, string[]> {
  const seen = new Map<string, number>();
  const rows = new Map<string, string[]>();
  for (const row of table.body) {
    const label = labelKey(row[0] ?? "");
    if (label === "") continue;
    const occurrence = seen.get(label) ?? 0;
    seen.set(label, occurrence + 1);
    rows.set(`${label}#${occurrence}`, row);
  }
  return rows;
}

/**
 * Scores detected tables against gold tables (both as flattened by flattenTable). A gold cell is found
 * when some detected table has a row of the same label (and occurrence) whose cell under the matching
 * column holds the same value.
 */
export function scoreCells(gold: readonly FlatTable[], detected: readonly FlatTable[]): CellScore {
  const mismatches: CellMismatch[] = [];
  const detectedRows = detected.map(rowsByLabel);
  let cells = 0;
  let cellsFound = 0;
  for (const goldTable of gold) {
    const columnMaps = detected.map((table) => mapColumns(goldTable, table));
    for (const [key, row] of rowsByLabel(goldTable)) {
      row.forEach((value, column) => {
        if (column === 0 || value.trim() === "" || headerKey(goldTable.headers[column] ?? "") === "") return;
        cells += 1;
        let seen: string | null = null;
        const found = detected.some((_, index) => {
          const detectedColumn = columnMaps[index]?.get(column);
          const detectedRow = detectedRows[index]?.get(key);
          if (detectedColumn === undefined || detectedRow === undefined) return false;
          seen = valueKey(detectedRow[detectedColumn] ?? "");
          return seen === valueKey(value);
        });
        if (found) cellsFound += 1;
        else
          mismatches.push({
            label: key,
            header: goldTable.headers[column] ?? "",
            gold: valueKey(value),
            detected: seen,
          });
      });
    }
  }
  const detectedHeaders = new Set(detected.flatMap((table) => table.headers.slice(1).map(headerKey)));
  const goldHeaders = gold.flatMap((table) =>
    table.headers
      .map((header, column) => ({ key: headerKey(header), column }))
      .filter(({ key, column }) => column > 0 && key !== "" && table.body.some((row) => (row[column] ?? "") !== "")),
  );
  return {
    cells,
    cellsFound,
    columns: goldHeaders.length,
    columnsFound: goldHeaders.filter(({ key }) => detectedHeaders.has(key)).length,
    mismatches,
  };
}
