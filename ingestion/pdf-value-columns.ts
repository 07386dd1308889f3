/**
 * The value columns of a table set without rules, found from its figures alone: figures stand in a
 * column when their right edges line up (amounts are set flush right, a closing bracket hanging a
 * little past) or their extents overlap (figures centred in their column), and two figures of one row
 * are never in one column. The "stream" idea of Tabula, Camelot and pdfplumber's text strategy, on
 * figures: labels and headers are placed afterwards, against these columns.
 */
import type { RowCell } from "./pdf-row-cells.js";

export type ValueColumn = {
  /** Extent of the column's cells, currency signs set apart included. */
  x0: number;
  x1: number;
  /** Where the column's digits start at the leftmost (currency signs left out). */
  coreX0: number;
  /** The right edge most of its figures share. */
  right: number;
  /** Rows (by index) with a figure in the column. */
  rows: Set<number>;
};

export type PlacedFigure = { row: number; cell: RowCell };

/** Right edges this many ems apart still line up (a hanging ")" or "%", a rounding of positions). */
const rightEdgeTolerance = 0.8;

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

type Cluster = { cells: PlacedFigure[]; rows: Set<number>; coreX0: number; x1: number; rights: number[] };

function overlaps(left: { coreX0: number; x1: number }, right: { coreX0: number; x1: number }): boolean {
  return Math.min(left.x1, right.x1) - Math.max(left.coreX0, right.coreX0) > 0;
}

function add(cluster: Cluster, figure: PlacedFigure): void {
  cluster.cells.push(figure);
  cluster.rows.add(figure.row);
  cluster.coreX0 = Math.min(cluster.coreX0, figure.cell.coreX0);
  cluster.x1 = Math.max(cluster.x1, figure.cell.x1);
  cluster.rights.push(figure.cell.x1);
}

function disjoint(left: Set<number>, right: Set<number>): boolean {
  for (const row of left) if (right.has(row)) return false;
  return true;
}

/** The figures' columns, left to right. */
export function valueColumns(figures: readonly PlacedFigure[], size: number): ValueColumn[] {
  const clusters: Cluster[] = [];
  const sorted = [...figures].sort((left, right) => left.cell.x1 - right.cell.x1);
  for (const figure of sorted) {
    let best: Cluster | null = null;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (const cluster of clusters) {
      if (cluster.rows.has(figure.row)) continue;
      const distance = Math.abs(median(cluster.rights) - figure.cell.x1);
      if (distance > size * rightEdgeTolerance && !overlaps(cluster, figure.cell)) continue;
      if (distance < bestDistance) {
        best = cluster;
        bestDistance = distance;
      }
    }
    if (best === null) {
      best = { cells: [], rows: new Set(), coreX0: figure.cell.coreX0, x1: figure.cell.x1, rights: [] };
      clusters.push(best);
    }
    add(best, figure);
  }
  // Centred figures of one column may have started two clusters: overlapping ones that never share a row are one.
  let merged = true;
  while (merged) {
    merged = false;
    clusters.sort((left, right) => left.x1 - right.x1);
    for (let index = 0; index + 1 < clusters.length && !merged; index += 1) {
      const left = clusters[index] as Cluster;
      const right = clusters[index + 1] as Cluster;
      if (overlaps(left, right) && disjoint(left.rows, right.rows)) {
        for (const figure of right.cells) add(left, figure);
        clusters.splice(index + 1, 1);
        merged = true;
      }
    }
  }
  return clusters
    .map((cluster) => {
      // Edges of figures cut out of a run of text are estimates: the column's own edge comes from the rest.
      const measured = cluster.cells.filter((figure) => !figure.cell.cut);
      return {
        x0: Math.min(...cluster.cells.map((figure) => figure.cell.x0)),
        x1: cluster.x1,
        coreX0: measured.length > 0 ? Math.min(...measured.map((figure) => figure.cell.coreX0)) : cluster.coreX0,
        right: median(cluster.rights),
        rows: cluster.rows,
      };
    })
    .sort((left, right) => left.right - right.right);
}

/** The column a cell falls in: the one its digits overlap most, else the one whose right edge is nearest within reach. */
export function columnOf(columns: readonly ValueColumn[], cell: RowCell, size: number): number {
  let best = -1;
  let bestOverlap = 0;
  columns.forEach((column, index) => {
    const overlap = Math.min(column.x1, cell.x1) - Math.max(column.coreX0, cell.coreX0);
    if (overlap > bestOverlap) {
      best = index;
      bestOverlap = overlap;
    }
  });
  if (best >= 0) return best;
  let nearest = -1;
  let nearestDistance = size * 2;
  columns.forEach((column, index) => {
    const distance = Math.abs(column.right - cell.x1);
    if (distance < nearestDistance) {
      nearest = index;
      nearestDistance = distance;
    }
  });
  return nearest;
}

/**
 * Columns of words between the labels and the figures ("Useful life | 3-5 | 14,689"): cells that stand
 * apart from the label in two or more rows, one above the other, right of where every label ends.
 * `rows` holds each row's cells left of the figures, the label first.
 */
export function wordColumns(rows: ReadonlyArray<{ row: number; cells: readonly RowCell[] }>): ValueColumn[] {
  const labelEnd = Math.max(...rows.map(({ cells }) => cells[0]?.x1 ?? Number.NEGATIVE_INFINITY));
  const clusters: ValueColumn[] = [];
  for (const { row, cells } of rows) {
    for (const cell of cells.slice(1)) {
      if (cell.x0 <= labelEnd) continue;
      const cluster = clusters.find((column) => Math.min(column.x1, cell.x1) - Math.max(column.x0, cell.x0) > 0);
      if (cluster === undefined) {
        clusters.push({ x0: cell.x0, x1: cell.x1, coreX0: cell.x0, right: cell.x1, rows: new Set([row]) });
        continue;
      }
      cluster.x0 = Math.min(cluster.x0, cell.x0);
      cluster.coreX0 = cluster.x0;
      cluster.x1 = Math.max(cluster.x1, cell.x1);
      cluster.right = cluster.x1;
      cluster.rows.add(row);
    }
  }
  return clusters.filter((column) => column.rows.size >= 2).sort((left, right) => left.x0 - right.x0);
}
