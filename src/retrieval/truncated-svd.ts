/**
 * Randomized truncated SVD of a sparse matrix (Halko, Martinsson & Tropp 2011: a Gaussian range finder
 * with subspace power iterations, then Rayleigh–Ritz on the small projected matrix), the method behind
 * scikit-learn's `TruncatedSVD(algorithm="randomized", n_iter=5)`. Built for TF-IDF matrices
 * (chunks × terms, a few thousand × tens of thousands, ~1% filled) where a dense full SVD is infeasible.
 *
 * Products with the sparse matrix and with the tall l-column bases (l = components + oversamples) are
 * hand-written over typed arrays; the small dense decompositions (l × l) use ml-matrix. The bases are
 * orthonormalized through their Gram matrix and its eigen-decomposition, not ml-matrix's Householder QR:
 * that QR took 18 s for one 5,183 × 394 basis here and the method needs one per power iteration. Done
 * twice at the end this is orthonormal to rounding (CholeskyQR2's argument), and the eigen-decomposition
 * drops directions a rank-deficient matrix does not have, where a Cholesky factor would fail. Because the
 * basis A·Aᵀ·Q is normalized once per iteration, singular values below ~1e-3·σ₁ may be lost; TF-IDF
 * spectra are far flatter (SciFact: σ₃₈₄/σ₁ = 0.14). The fit keeps Aᵀ·Q (columns × l doubles) to project
 * new rows: 91 MB for SciFact's 28,856 terms.
 */
import { EigenvalueDecomposition } from "ml-matrix";

/** Compressed sparse rows: row r's entries are at positions rowStarts[r] .. rowStarts[r + 1] - 1. */
export type SparseMatrix = {
  rowCount: number;
  columnCount: number;
  rowStarts: Int32Array;
  columnIndices: Int32Array;
  values: Float64Array;
};

export type TruncatedSvdOptions = {
  components: number;
  /** Extra random directions that speed up convergence of the last wanted components (scikit-learn: 10). */
  oversamples?: number;
  /** Subspace iterations (scikit-learn's TruncatedSVD: 5); more sharpens the smaller components. */
  powerIterations?: number;
  /** Seeds the Gaussian test matrix, so a fit is reproducible. */
  seed?: number;
};

export type TruncatedSvd = {
  /** Largest first; fewer than asked for when the matrix's rank is smaller. */
  singularValues: Float64Array;
  /** The matrix's rows in component coordinates, A·V (rows × components, row-major): scikit-learn's fit_transform. */
  projectedRows: Float64Array;
  /** x·V for a sparse row x over the matrix's columns: scikit-learn's transform. */
  projectRow(columnIndices: ArrayLike<number>, values: ArrayLike<number>): Float64Array;
};

/** A row-major dense matrix. */
type DenseMatrix = { rows: number; columns: number; data: Float64Array };

/** Eigenvalues below this fraction of the largest are numerically zero (σ below 1e-6 of σ₁). */
const RELATIVE_EIGENVALUE_FLOOR = 1e-12;

export function computeTruncatedSvd(matrix: SparseMatrix, options: TruncatedSvdOptions): TruncatedSvd {
  const sampleCount = Math.min(options.components + (options.oversamples ?? 10), matrix.rowCount, matrix.columnCount);
  if (options.components < 1 || sampleCount < 1) {
    return {
      singularValues: new Float64Array(0),
      projectedRows: new Float64Array(0),
      projectRow: () => new Float64Array(0),
    };
  }
  const transposed = transposeSparse(matrix);
  const testMatrix = createGaussianMatrix(matrix.columnCount, sampleCount, options.seed ?? 0);
  let basis = orthonormalizeColumns(multiplySparse(matrix, testMatrix));
  for (let iteration = 0; iteration < (options.powerIterations ?? 5); iteration += 1) {
    basis = orthonormalizeColumns(multiplySparse(matrix, multiplySparse(transposed, basis)));
  }
  basis = orthonormalizeColumns(basis);

  // With B = Qᵀ·A: Bᵀ = Aᵀ·Q, and B·Bᵀ = Qᵀ·(A·Bᵀ) is the small matrix whose eigenpairs give σ² and B's
  // left singular vectors W; then V = Bᵀ·W·Σ⁻¹ and A·V = (A·Bᵀ)·W·Σ⁻¹, so V is never formed.
  const transposedProjection = multiplySparse(transposed, basis);
  const rowProducts = multiplySparse(matrix, transposedProjection);
  const { values, vectors } = decomposeSymmetric(multiplyTransposed(basis, rowProducts));
  const largest = values[0] ?? 0;
  let components = 0;
  while (
    components < Math.min(options.components, values.length) &&
    (values[components] ?? 0) > largest * RELATIVE_EIGENVALUE_FLOOR
  ) {
    components += 1;
  }
  const singularValues = new Float64Array(components);
  const coefficients: DenseMatrix = {
    rows: vectors.rows,
    columns: components,
    data: new Float64Array(vectors.rows * components),
  };
  for (let component = 0; component < components; component += 1) {
    const singularValue = Math.sqrt(values[component]!);
    singularValues[component] = singularValue;
    for (let row = 0; row < vectors.rows; row += 1) {
      coefficients.data[row * components + component] =
        vectors.data[row * vectors.columns + component]! / singularValue;
    }
  }
  const projectedRows = multiplyDense(rowProducts, coefficients).data;

  function projectRow(columnIndices: ArrayLike<number>, values: ArrayLike<number>): Float64Array {
    const width = transposedProjection.columns;
    const combined = new Float64Array(width);
    for (let entry = 0; entry < columnIndices.length; entry += 1) {
      const value = values[entry]!;
      const offset = columnIndices[entry]! * width;
      for (let column = 0; column < width; column += 1) {
        combined[column]! += value * transposedProjection.data[offset + column]!;
      }
    }
    return multiplyDense({ rows: 1, columns: width, data: combined }, coefficients).data;
  }

  return { singularValues, projectedRows, projectRow };
}

/*
 * The kernels below take four rows (or entries) per pass over the output row, so each output element
 * is loaded and stored once per four multiply-adds: ~4× faster in V8 than the textbook loops.
 */

/** A·X for sparse A (n × m) and dense X (m × l). */
function multiplySparse(matrix: SparseMatrix, dense: DenseMatrix): DenseMatrix {
  const width = dense.columns;
  const source = dense.data;
  const { rowStarts, columnIndices, values } = matrix;
  const result = new Float64Array(matrix.rowCount * width);
  for (let row = 0; row < matrix.rowCount; row += 1) {
    const target = row * width;
    const end = rowStarts[row + 1]!;
    let entry = rowStarts[row]!;
    for (; entry + 4 <= end; entry += 4) {
      const v0 = values[entry]!;
      const v1 = values[entry + 1]!;
      const v2 = values[entry + 2]!;
      const v3 = values[entry + 3]!;
      const s0 = columnIndices[entry]! * width;
      const s1 = columnIndices[entry + 1]! * width;
      const s2 = columnIndices[entry + 2]! * width;
      const s3 = columnIndices[entry + 3]! * width;
      for (let column = 0; column < width; column += 1) {
        result[target + column]! +=
          v0 * source[s0 + column]! + v1 * source[s1 + column]! + v2 * source[s2 + column]! + v3 * source[s3 + column]!;
      }
    }
    for (; entry < end; entry += 1) {
      const value = values[entry]!;
      const offset = columnIndices[entry]! * width;
      for (let column = 0; column < width; column += 1) result[target + column]! += value * source[offset + column]!;
    }
  }
  return { rows: matrix.rowCount, columns: width, data: result };
}

/** Aᵀ as compressed rows (the columns of A), so Aᵀ·X runs through the same kernel as A·X. */
function transposeSparse(matrix: SparseMatrix): SparseMatrix {
  const rowStarts = new Int32Array(matrix.columnCount + 1);
  for (let entry = 0; entry < matrix.columnIndices.length; entry += 1)
    rowStarts[matrix.columnIndices[entry]! + 1]! += 1;
  for (let column = 0; column < matrix.columnCount; column += 1) rowStarts[column + 1]! += rowStarts[column]!;
  const next = rowStarts.slice(0, matrix.columnCount);
  const columnIndices = new Int32Array(matrix.columnIndices.length);
  const values = new Float64Array(matrix.values.length);
  for (let row = 0; row < matrix.rowCount; row += 1) {
    for (let entry = matrix.rowStarts[row]!; entry < matrix.rowStarts[row + 1]!; entry += 1) {
      const position = next[matrix.columnIndices[entry]!]!++;
      columnIndices[position] = row;
      values[position] = matrix.values[entry]!;
    }
  }
  return { rowCount: matrix.columnCount, columnCount: matrix.rowCount, rowStarts, columnIndices, values };
}

/** Xᵀ·Y for dense X (r × a) and Y (r × b); with `symmetric` (X = Y) only the upper triangle is summed. */
function multiplyTransposed(left: DenseMatrix, right: DenseMatrix, symmetric = false): DenseMatrix {
  const a = left.columns;
  const b = right.columns;
  const x = left.data;
  const y = right.data;
  const result = new Float64Array(a * b);
  let row = 0;
  for (; row + 4 <= left.rows; row += 4) {
    const r0 = row * a;
    const r1 = r0 + a;
    const r2 = r1 + a;
    const r3 = r2 + a;
    const t0 = row * b;
    const t1 = t0 + b;
    const t2 = t1 + b;
    const t3 = t2 + b;
    for (let i = 0; i < a; i += 1) {
      const x0 = x[r0 + i]!;
      const x1 = x[r1 + i]!;
      const x2 = x[r2 + i]!;
      const x3 = x[r3 + i]!;
      const target = i * b;
      for (let j = symmetric ? i : 0; j < b; j += 1) {
        result[target + j]! += x0 * y[t0 + j]! + x1 * y[t1 + j]! + x2 * y[t2 + j]! + x3 * y[t3 + j]!;
      }
    }
  }
  for (; row < left.rows; row += 1) {
    for (let i = 0; i < a; i += 1) {
      const value = x[row * a + i]!;
      for (let j = symmetric ? i : 0; j < b; j += 1) result[i * b + j]! += value * y[row * b + j]!;
    }
  }
  if (symmetric) {
    for (let i = 0; i < a; i += 1) for (let j = 0; j < i; j += 1) result[i * b + j] = result[j * b + i]!;
  }
  return { rows: a, columns: b, data: result };
}

/** X·Y for dense X (r × a) and Y (a × b). */
function multiplyDense(left: DenseMatrix, right: DenseMatrix): DenseMatrix {
  const a = left.columns;
  const b = right.columns;
  const x = left.data;
  const y = right.data;
  const result = new Float64Array(left.rows * b);
  for (let row = 0; row < left.rows; row += 1) {
    const target = row * b;
    const offset = row * a;
    let i = 0;
    for (; i + 4 <= a; i += 4) {
      const x0 = x[offset + i]!;
      const x1 = x[offset + i + 1]!;
      const x2 = x[offset + i + 2]!;
      const x3 = x[offset + i + 3]!;
      const s0 = i * b;
      const s1 = s0 + b;
      const s2 = s1 + b;
      const s3 = s2 + b;
      for (let j = 0; j < b; j += 1) {
        result[target + j]! += x0 * y[s0 + j]! + x1 * y[s1 + j]! + x2 * y[s2 + j]! + x3 * y[s3 + j]!;
      }
    }
    for (; i < a; i += 1) {
      const value = x[offset + i]!;
      const source = i * b;
      for (let j = 0; j < b; j += 1) result[target + j]! += value * y[source + j]!;
    }
  }
  return { rows: left.rows, columns: b, data: result };
}

/** Eigenpairs of a symmetric matrix by ml-matrix, largest eigenvalue first; vectors are the columns. */
function decomposeSymmetric(symmetric: DenseMatrix): { values: Float64Array; vectors: DenseMatrix } {
  const size = symmetric.rows;
  const rows: number[][] = [];
  for (let i = 0; i < size; i += 1) {
    const row: number[] = [];
    // Averaging with the transpose removes the rounding asymmetry the eigen-solver assumes away.
    for (let j = 0; j < size; j += 1) row.push((symmetric.data[i * size + j]! + symmetric.data[j * size + i]!) / 2);
    rows.push(row);
  }
  const decomposition = new EigenvalueDecomposition(rows, { assumeSymmetric: true });
  const eigenvalues = decomposition.realEigenvalues;
  const order = eigenvalues.map((_, index) => index).sort((left, right) => eigenvalues[right]! - eigenvalues[left]!);
  const eigenvectors = decomposition.eigenvectorMatrix;
  const vectors: DenseMatrix = { rows: size, columns: size, data: new Float64Array(size * size) };
  order.forEach((source, target) => {
    for (let row = 0; row < size; row += 1) vectors.data[row * size + target] = eigenvectors.get(row, source);
  });
  return { values: Float64Array.from(order, (index) => eigenvalues[index]!), vectors };
}

/**
 * An orthonormal basis of X's column space: X·W·Λ^(-1/2) from the eigenpairs (Λ, W) of XᵀX, leaving out
 * directions whose eigenvalue is numerically zero. Orthonormal up to ~1e-16·cond(X)²; a second pass makes
 * it orthonormal to rounding.
 */
function orthonormalizeColumns(dense: DenseMatrix): DenseMatrix {
  const { values, vectors } = decomposeSymmetric(multiplyTransposed(dense, dense));
  const largest = values[0] ?? 0;
  let kept = 0;
  while (kept < values.length && (values[kept] ?? 0) > largest * RELATIVE_EIGENVALUE_FLOOR) kept += 1;
  const scaling: DenseMatrix = { rows: vectors.rows, columns: kept, data: new Float64Array(vectors.rows * kept) };
  for (let column = 0; column < kept; column += 1) {
    const scale = 1 / Math.sqrt(values[column]!);
    for (let row = 0; row < vectors.rows; row += 1) {
      scaling.data[row * kept + column] = vectors.data[row * vectors.columns + column]! * scale;
    }
  }
  return multiplyDense(dense, scaling);
}

/** A rows × columns matrix of standard normal values from a seeded mulberry32 stream (Box–Muller). */
function createGaussianMatrix(rows: number, columns: number, seed: number): DenseMatrix {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return (((value ^ (value >>> 14)) >>> 0) + 0.5) / 4_294_967_296;
  };
  const data = new Float64Array(rows * columns);
  for (let index = 0; index < data.length; index += 2) {
    const radius = Math.sqrt(-2 * Math.log(uniform()));
    const angle = 2 * Math.PI * uniform();
    data[index] = radius * Math.cos(angle);
    if (index + 1 < data.length) data[index + 1] = radius * Math.sin(angle);
  }
  return { rows, columns, data };
}
