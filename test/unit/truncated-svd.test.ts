/**
 * The randomized truncated SVD against ml-matrix's full (Golub–Kahan) SVD on small sparse matrices:
 * exact when the random range covers the whole row space, converging with power iterations otherwise.
 */
import { Matrix, SingularValueDecomposition } from "ml-matrix";
import { describe, expect, it } from "vitest";
import { computeTruncatedSvd, type SparseMatrix } from "../../src/retrieval/truncated-svd.js";
import { createSeededRandom } from "../support/seeded-random.js";

/** A TF-IDF-like matrix: ~12 distinct columns per row drawn with a skew toward low columns, values in [1, 2). */
function createSkewedSparseMatrix(
  rows: number,
  columns: number,
  seed: number,
): { sparse: SparseMatrix; dense: Matrix } {
  const random = createSeededRandom(seed);
  const dense = Matrix.zeros(rows, columns);
  const rowStarts = [0];
  const columnIndices: number[] = [];
  const values: number[] = [];
  for (let row = 0; row < rows; row += 1) {
    const picked = new Set<number>();
    for (let draw = 0; draw < 12; draw += 1) picked.add(Math.floor(columns * random() ** 2));
    for (const column of [...picked].sort((left, right) => left - right)) {
      const value = 1 + random();
      columnIndices.push(column);
      values.push(value);
      dense.set(row, column, value);
    }
    rowStarts.push(columnIndices.length);
  }
  const sparse: SparseMatrix = {
    rowCount: rows,
    columnCount: columns,
    rowStarts: Int32Array.from(rowStarts),
    columnIndices: Int32Array.from(columnIndices),
    values: Float64Array.from(values),
  };
  return { sparse, dense };
}

function sparseRow(matrix: SparseMatrix, row: number): { columns: number[]; values: number[] } {
  const start = matrix.rowStarts[row] ?? 0;
  const end = matrix.rowStarts[row + 1] ?? 0;
  return {
    columns: Array.from(matrix.columnIndices.subarray(start, end)),
    values: Array.from(matrix.values.subarray(start, end)),
  };
}

/** Largest |difference| between two vectors after aligning their signs (singular vectors have no sign). */
function differenceUpToSign(left: number[], right: number[]): number {
  const dot = left.reduce((sum, value, index) => sum + value * (right[index] ?? 0), 0);
  const sign = dot < 0 ? -1 : 1;
  return Math.max(...left.map((value, index) => Math.abs(value - sign * (right[index] ?? 0))));
}

describe("computeTruncatedSvd", () => {
  const { sparse, dense } = createSkewedSparseMatrix(120, 200, 7);
  const full = new SingularValueDecomposition(dense, { autoTranspose: true });

  it("is exact when components + oversamples reach the matrix's rank (120 of 120)", () => {
    const svd = computeTruncatedSvd(sparse, { components: 120, powerIterations: 0 });
    expect(svd.singularValues.length).toBe(120);
    const largestError = Math.max(
      ...Array.from(svd.singularValues, (value, index) => Math.abs(value - full.diagonal[index]!)),
    );
    expect(largestError).toBeLessThan(1e-9);
    // A·V = U·Σ, column by column, for the leading components.
    const left = full.leftSingularVectors;
    for (const component of [0, 1, 2, 50]) {
      const ours = Array.from({ length: 120 }, (_, row) => svd.projectedRows[row * 120 + component]!);
      const theirs = Array.from({ length: 120 }, (_, row) => left.get(row, component) * full.diagonal[component]!);
      expect(differenceUpToSign(ours, theirs)).toBeLessThan(1e-9);
    }
  });

  it("matches the top 7 singular values to 1e-6 with 10 power iterations (20 components, 10 oversamples)", () => {
    const svd = computeTruncatedSvd(sparse, { components: 20, powerIterations: 10, seed: 1 });
    expect(svd.singularValues.length).toBe(20);
    for (let component = 0; component < 7; component += 1) {
      expect(Math.abs(svd.singularValues[component]! - full.diagonal[component]!)).toBeLessThan(1e-6);
    }
    expect(svd.singularValues[0]).toBeCloseTo(19.114, 3);
    // The right singular vectors: row j of V is the projection of the unit row e_j.
    const right = full.rightSingularVectors;
    const rowsOfV = Array.from({ length: 200 }, (_, column) => svd.projectRow([column], [1]));
    // Vectors converge more slowly than values, and the more so the closer their neighbours' values:
    // σ₂ = 9.856 and σ₃ = 9.327 are 5% apart, σ₁ = 19.114 stands alone.
    const errors = [0, 1, 2].map((component) =>
      differenceUpToSign(
        rowsOfV.map((row) => row[component]!),
        Array.from({ length: 200 }, (_, column) => right.get(column, component)),
      ),
    );
    expect(errors[0]).toBeLessThan(1e-9);
    expect(errors[1]).toBeLessThan(1e-5);
    expect(errors[2]).toBeLessThan(1e-4);
  });

  it("converges with power iterations: the 7th singular value's error falls from 0 to 5 to 10 iterations", () => {
    const errors = [0, 5, 10].map((powerIterations) => {
      const svd = computeTruncatedSvd(sparse, { components: 20, powerIterations, seed: 1 });
      return Math.abs(svd.singularValues[6]! - full.diagonal[6]!);
    });
    expect(errors[0]).toBeGreaterThan(0.5);
    expect(errors[1]).toBeLessThan(1e-3);
    expect(errors[2]).toBeLessThan(1e-6);
  });

  it("projects a row of the matrix to that row of A·V", () => {
    const svd = computeTruncatedSvd(sparse, { components: 10, seed: 3 });
    for (const row of [0, 17, 119]) {
      const { columns, values } = sparseRow(sparse, row);
      const projected = Array.from(svd.projectRow(columns, values));
      const stored = Array.from(svd.projectedRows.subarray(row * 10, (row + 1) * 10));
      expect(Math.max(...projected.map((value, index) => Math.abs(value - stored[index]!)))).toBeLessThan(1e-12);
    }
  });

  it("is reproducible for a seed", () => {
    const first = computeTruncatedSvd(sparse, { components: 8, seed: 42 });
    const second = computeTruncatedSvd(sparse, { components: 8, seed: 42 });
    expect(Array.from(second.singularValues)).toEqual(Array.from(first.singularValues));
    expect(Array.from(second.projectedRows)).toEqual(Array.from(first.projectedRows));
  });

  it("returns only the rank's components for a rank-deficient matrix: 3 distinct rows repeated", () => {
    const base = [
      [1, 2, 0, 0, 0],
      [0, 1, 3, 0, 0],
      [0, 0, 0, 4, 1],
    ];
    const rows = [...base, ...base, ...base, base[0]!];
    const denseRows = new Matrix(rows);
    const rowStarts = [0];
    const columnIndices: number[] = [];
    const values: number[] = [];
    for (const row of rows) {
      row.forEach((value, column) => {
        if (value !== 0) {
          columnIndices.push(column);
          values.push(value);
        }
      });
      rowStarts.push(columnIndices.length);
    }
    const svd = computeTruncatedSvd(
      {
        rowCount: rows.length,
        columnCount: 5,
        rowStarts: Int32Array.from(rowStarts),
        columnIndices: Int32Array.from(columnIndices),
        values: Float64Array.from(values),
      },
      { components: 5 },
    );
    const reference = new SingularValueDecomposition(denseRows).diagonal;
    expect(svd.singularValues.length).toBe(3);
    svd.singularValues.forEach((value, index) => {
      expect(Math.abs(value - reference[index]!)).toBeLessThan(1e-12);
    });
  });
});
