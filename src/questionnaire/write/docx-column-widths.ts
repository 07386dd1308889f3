/**
 * Column widths for a Word question table that gains the Answer, Status, Sources and Quote columns.
 * The widened table fills the section's text width (or keeps its own width when it was already
 * wider). The original columns keep their widths while they take at most 45 % of it; past that they
 * are narrowed in proportion, but never below a floor (a column of short numbers stays readable) nor
 * below the width of a table nested in one of their cells (nested tables are left as they are, and
 * must still fit). Status gets enough room for "answered" on one line; Answer, Sources and Quote share
 * the rest 36 : 32 : 32. Widths are in twentieths of a point (dxa).
 */

/** The part of the table the original columns may keep before they are narrowed. */
const ORIGINAL_COLUMNS_SHARE = 0.45;
/** No original column is narrowed below this (half an inch), unless it was narrower already. */
const ORIGINAL_COLUMN_FLOOR = 720;
/** "answered" / "needs review" on one line at the added cells' 9 pt, with the cell margins. */
const STATUS_WIDTH = 1100;
const REST_SHARES = { answer: 0.36, sources: 0.32 } as const;

export type DocxColumnWidths = {
  /** The original grid columns' new widths (the same as before when nothing had to be narrowed). */
  original: number[];
  /** Answer, Status, Sources, Quote. */
  added: number[];
  total: number;
};

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/**
 * `gridWidths`: the original grid's widths (null where the document gives none); `textWidth`: the
 * section's page width less its margins; `minimums`: per original column, the least it may become
 * (a nested table's width), 0 where nothing holds it.
 */
export function planColumnWidths(
  gridWidths: Array<number | null>,
  textWidth: number,
  minimums: number[] = [],
): DocxColumnWidths {
  const known = gridWidths.filter((width): width is number => width !== null && width > 0);
  // Columns without a width get the known columns' average (or an equal share of the text width).
  const fallback = Math.max(
    1,
    Math.round(known.length > 0 ? sum(known) / known.length : textWidth / Math.max(1, gridWidths.length)),
  );
  const before = gridWidths.map((width) => (width !== null && width > 0 ? width : fallback));
  const total = Math.max(textWidth, sum(before));
  const room = total * ORIGINAL_COLUMNS_SHARE;
  const scale = sum(before) > room ? room / sum(before) : 1;
  const original = before.map((width, index) =>
    Math.max(Math.round(width * scale), Math.min(width, ORIGINAL_COLUMN_FLOOR), minimums[index] ?? 0),
  );
  // What the floors and nested tables took beyond the room comes out of the added columns, down to
  // what Status needs plus a Status-width each for the others; past that the table grows.
  const addedTotal = Math.max(total - sum(original), STATUS_WIDTH * 4);
  const status = Math.min(STATUS_WIDTH, Math.round(addedTotal * 0.4));
  const rest = addedTotal - status;
  const answer = Math.round(rest * REST_SHARES.answer);
  const sources = Math.round(rest * REST_SHARES.sources);
  const added = [answer, status, sources, rest - answer - sources];
  return { original, added, total: sum(original) + sum(added) };
}
