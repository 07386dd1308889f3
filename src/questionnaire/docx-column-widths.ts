/**
 * Column widths for a Word question table that gains the Answer, Status, Sources and Quote columns.
 * The widened table fills the section's text width (or keeps its own width when it was already
 * wider). The original columns keep their widths while they take at most half of it; past that they
 * are narrowed in proportion, so the answers always get half the table. The added columns share their
 * part as Answer 36 %, Status 14 %, Sources 24 %, Quote 26 %. Widths are in twentieths of a point.
 */

export const ADDED_COLUMN_SHARES = [0.36, 0.14, 0.24, 0.26] as const;
/** The part of the table the original columns may keep before they are narrowed. */
const ORIGINAL_COLUMNS_SHARE = 0.5;

export type DocxColumnWidths = {
  /** The original grid columns' new widths (the same as before when nothing had to be narrowed). */
  original: number[];
  /** One width per added column, in ADDED_COLUMN_SHARES order. */
  added: number[];
  total: number;
};

/**
 * `gridWidths`: the original grid's widths (null where the document gives none); `textWidth`: the
 * section's page width less its margins.
 */
export function planColumnWidths(gridWidths: Array<number | null>, textWidth: number): DocxColumnWidths {
  const known = gridWidths.filter((width): width is number => width !== null && width > 0);
  // Columns without a width share what the known ones leave of the text width (or the known average).
  const fallback =
    known.length === gridWidths.length
      ? 0
      : Math.max(
          1,
          Math.round(
            known.length > 0
              ? known.reduce((sum, width) => sum + width, 0) / known.length
              : textWidth / Math.max(1, gridWidths.length),
          ),
        );
  const before = gridWidths.map((width) => (width !== null && width > 0 ? width : fallback));
  const originalTotal = before.reduce((sum, width) => sum + width, 0);
  const total = Math.max(textWidth, originalTotal);
  const room = total * ORIGINAL_COLUMNS_SHARE;
  const scale = originalTotal > room ? room / originalTotal : 1;
  const original = before.map((width) => Math.max(1, Math.round(width * scale)));
  const addedTotal = total - original.reduce((sum, width) => sum + width, 0);
  const added = ADDED_COLUMN_SHARES.map((share) => Math.max(1, Math.round(addedTotal * share)));
  return { original, added, total: original.reduce((sum, width) => sum + width, 0) + added.reduce((a, b) => a + b, 0) };
}
