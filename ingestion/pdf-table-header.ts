/**
 * A table's header, read above its first row of figures: the lines that put years or words over its
 * columns, as far up as header lines stand as close as the table's rows (a title further off or centred
 * on the page is not one), with the label column's header beside them; then one header per column,
 * each line's cells placed over their columns (pdf-header-cells.ts) and joined top to bottom.
 */
import { evenGroups, extendOverUnheaded, headerPieces, splitAtLabelEdge } from "./pdf-header-cells.js";
import type { RowCell } from "./pdf-row-cells.js";
import { type CellRow, inColumns, isProse, type Row, rowText } from "./pdf-table-rows.js";
import type { ValueColumn } from "./pdf-value-columns.js";

/** Header lines further above the table (or each other) than this many type sizes are not its header. */
const maximumHeaderGap = 3.2;
export const maximumHeaderRows = 6;
/** A line set at least this much larger than the table's rows is its title. */
const titleSizeShare = 1.3;
/** Header lines above the first stand at most this many type sizes apart... */
const headerRowGap = 1.6;
/** ...or this share of the table's row pitch (tables printed with tall rows). */
const headerPitchShare = 1.25;

/**
 * A title line above a table, not a header: text that runs into the columns from the left but is
 * centred left of them ("CONSOLIDATED STATEMENTS OF OPERATIONS" centred on the page), or that runs well
 * past the last column ("Corning Incorporated and Subsidiary Companies" set flush right). A header is
 * centred over the columns it heads, or stands in the label column.
 */
function isTitle(row: CellRow, area: { left: number; right: number; size: number }): boolean {
  // Set larger than the table's rows: a title ("Intl Pax Traffic" over every column).
  if (row.size >= area.size * titleSizeShare) return true;
  const centredLeft = (cell: RowCell) =>
    cell.x1 > area.left + row.size && (cell.x0 + cell.x1) / 2 < area.left - row.size * 2;
  const pastRight = (cell: RowCell) => cell.x1 > area.right + row.size * 2;
  // A header line may run a label column's header into the first column's ("Currency Weightage (%)")
  // beside other headers; a title stands alone on its line.
  const overColumns = row.cells.filter((cell) => cell.x1 > area.left + row.size);
  return row.cells.some(pastRight) || (row.cells.some(centredLeft) && overColumns.length === 1);
}

/** Lines of one header cell stand closer than this many type sizes (a label header centred beside two lines of dates). */
const headerLineShare = 0.8;

/**
 * Header rows above the first data row (top first) and section rows between them and it. Rows that put
 * text or years over the columns are the header; a label-column line set between or right beside them
 * belongs to it ("(In millions, except" beside "April 27,"); label lines further down are sections.
 */
export function headerAbove(
  rows: readonly Row[],
  first: number,
  floor: number,
  area: { left: number; right: number; pitch: number; size: number },
): { headerRows: number[]; sectionRows: number[] } {
  const { left } = area;
  const candidates: number[] = [];
  let below = rows[first] as Row;
  let overColumnsSeen = false;
  for (let index = first - 1; index >= floor && candidates.length < maximumHeaderRows * 2; index -= 1) {
    const row = rows[index] as Row;
    // Header lines stand as close as the table's rows; a title stands further off.
    const reach = overColumnsSeen
      ? Math.max(row.size * headerRowGap, area.pitch * headerPitchShare)
      : Math.max(row.size, below.size) * maximumHeaderGap;
    if (row.y - below.y > reach) break;
    if (row.reading.kind === "data" || isProse(row, left) || isTitle(row, area)) break;
    candidates.unshift(index);
    overColumnsSeen ||= inColumns(row, left).length > 0;
    below = row;
  }
  const overColumns = candidates.filter((index) => inColumns(rows[index] as Row, left).length > 0);
  const top = overColumns[0];
  const bottom = overColumns.at(-1);
  if (top === undefined || bottom === undefined) {
    // Without a header, lines above are a title rather than sections, unless they end as a section does.
    const sections = [...candidates];
    while (sections.length > 0 && !/:$/.test(rowText(rows[sections[0] as number] as Row))) sections.shift();
    return { headerRows: [], sectionRows: sections };
  }
  const near = (index: number, other: number) =>
    Math.abs((rows[index] as Row).y - (rows[other] as Row).y) <= (rows[index] as Row).size * headerLineShare;
  let start = candidates.indexOf(top);
  while (start > 0 && near(candidates[start - 1] as number, candidates[start] as number)) start -= 1;
  let end = candidates.indexOf(bottom);
  while (end + 1 < candidates.length && near(candidates[end + 1] as number, candidates[end] as number)) end += 1;
  const headerRows = candidates.slice(start, end + 1);
  if (headerRows.length > maximumHeaderRows * 2) return { headerRows: [], sectionRows: [] };
  return { headerRows, sectionRows: candidates.slice(end + 1) };
}

/** One header per column: the header lines over it, top to bottom; the label column's from the text left of them. */
export function readHeader(
  rows: readonly Row[],
  headerRows: readonly number[],
  columns: readonly ValueColumn[],
  left: number,
) {
  const pieces: string[][] = [[], ...columns.map(() => [])];
  const overColumns = headerRows.filter((index) => inColumns(rows[index] as Row, left).length > 0);
  const lowest = overColumns.at(-1);
  for (const index of headerRows) {
    const row = rows[index] as Row;
    const cells = row.cells.flatMap((whole) => splitAtLabelEdge(whole, left));
    const inLabel = (cell: RowCell) => cell.x1 <= left - row.size * 0.3;
    for (const cell of cells.filter(inLabel)) pieces[0]?.push(cell.text);
    const over = cells.filter((cell) => !inLabel(cell));
    const groups = index === lowest ? null : evenGroups(over, columns, row.size);
    const placed = over.map((cell, position) => {
      const group = groups?.[position];
      return group ? [{ text: cell.text, columns: group }] : headerPieces(cell, columns, row.size, index === lowest);
    });
    if (index === lowest) extendOverUnheaded(placed, over, columns, row.size);
    for (const cellPieces of placed)
      for (const piece of cellPieces) for (const column of piece.columns) pieces[column + 1]?.push(piece.text);
  }
  // A header broken at a hyphen over two lines ("2021-" over "2022") is one word again.
  return pieces.map((texts) =>
    texts
      .join(" ")
      .replace(/(\d)[-–] (\d)/g, "$1-$2")
      .replace(/\s+/g, " ")
      .trim(),
  );
}
