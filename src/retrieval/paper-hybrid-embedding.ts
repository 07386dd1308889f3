/**
 * The combined embedding of Liang et al. (2024), "Efficient and verifiable responses using RAG": a
 * passage (or question) is its dense embedding and its SVD-reduced TF-IDF vector, each scaled to unit
 * length, weighted and concatenated; passages are ranked by cosine with the question's.
 *
 * Weighting convention: [√α·d̂, √(1−α)·ŝ]. With both parts unit-length the concatenation is unit-length
 * too, so its cosine is exactly α·cos(dense) + (1−α)·cos(tf-idf svd): α is the score's weight, as the
 * paper describes it. The other reading, [α·d̂, (1−α)·ŝ], gives (α²·cos_d + (1−α)²·cos_s) / (α² + (1−α)²),
 * which ranks identically at the paper's α = 0.5 and differs elsewhere. A part that is all zeros (a
 * question with no term in the space's vocabulary) stays zero; the result is scaled to unit length
 * afterwards, so dot products of combined embeddings are always the concatenations' cosines.
 */

/** The paper's weight of the dense part. */
export const PAPER_HYBRID_ALPHA = 0.5;

/** The unit-length combined embedding [√α·dense/|dense|, √(1−α)·reduced/|reduced|] / norm. */
export function combineEmbeddings(dense: ArrayLike<number>, reduced: ArrayLike<number>, alpha: number): Float64Array {
  const combined = new Float64Array(dense.length + reduced.length);
  writeCombinedEmbedding(combined, 0, dense, reduced, alpha);
  return combined;
}

/** combineEmbeddings into `target` at `offset` (rows of one flat matrix, without a copy per row). */
export function writeCombinedEmbedding(
  target: Float64Array,
  offset: number,
  dense: ArrayLike<number>,
  reduced: ArrayLike<number>,
  alpha: number,
): void {
  const denseNorm = euclideanNorm(dense);
  const reducedNorm = euclideanNorm(reduced);
  const denseScale = denseNorm > 0 ? Math.sqrt(alpha) / denseNorm : 0;
  const reducedScale = reducedNorm > 0 ? Math.sqrt(1 - alpha) / reducedNorm : 0;
  const squaredNorm = (denseNorm > 0 ? alpha : 0) + (reducedNorm > 0 ? 1 - alpha : 0);
  const unit = squaredNorm > 0 ? 1 / Math.sqrt(squaredNorm) : 0;
  for (let index = 0; index < dense.length; index += 1) {
    target[offset + index] = (dense[index] ?? 0) * denseScale * unit;
  }
  for (let index = 0; index < reduced.length; index += 1) {
    target[offset + dense.length + index] = (reduced[index] ?? 0) * reducedScale * unit;
  }
}

function euclideanNorm(vector: ArrayLike<number>): number {
  let sum = 0;
  for (let index = 0; index < vector.length; index += 1) sum += (vector[index] ?? 0) ** 2;
  return Math.sqrt(sum);
}
