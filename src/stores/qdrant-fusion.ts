/**
 * How Folio's weighted reciprocal rank fusion is expressed in one Qdrant Query API call.
 *
 * Folio scores a chunk Σ weight / (k + rank), rank 1-based (src/retrieval/reciprocal-rank-fusion.ts).
 * Qdrant's `{"rrf": {"k": K}}` (v1.16+) scores Σ 1 / (K + position), position 0-based, so K = k + 1 gives
 * the same terms when every weight is 1. Qdrant v1.16 has no per-prefetch weights (`rrf.weights` arrived
 * in v1.17, and its formula 1 / ((position + 1) / w + K - 1) is not Folio's w / (k + rank) anyway), so a
 * weight ratio a:b is sent as a copies of the dense prefetch and b of the sparse one: a list sent twice
 * contributes exactly 2 / (K + position). The fused scores then differ from Folio's by one common factor,
 * `scoreScale`, which the caller multiplies back in. The default 2:1 costs one extra dense search on the
 * server. Weights with no small integer ratio, or a k that is not a whole number (Qdrant's k is an
 * unsigned integer), cannot be expressed this way: the caller then fuses client-side (see qdrant-index.ts).
 */
import type { FusionParameters } from "./vector-index.js";

/** More copies would make the server repeat searches for a ratio nobody tunes to. */
export const MAX_PREFETCHES = 6;

export type ServerFusionPlan = {
  /** Qdrant's k: Folio's k + 1, because Qdrant counts positions from 0. */
  qdrantK: number;
  denseCopies: number;
  sparseCopies: number;
  /** Folio's fused score = Qdrant's fused score × scoreScale. */
  scoreScale: number;
};

/**
 * The prefetch copies that reproduce Folio's fusion exactly, or null when they cannot. A list whose
 * weight is 0 (or that is empty, e.g. a question with no known terms) gets no prefetch at all.
 */
export function planServerFusion(
  fusion: FusionParameters,
  lists: { dense: boolean; sparse: boolean },
): ServerFusionPlan | null {
  if (!Number.isInteger(fusion.k) || fusion.k < 0) return null;
  const qdrantK = fusion.k + 1;
  const denseWeight = lists.dense ? fusion.denseWeight : 0;
  const sparseWeight = lists.sparse ? fusion.sparseWeight : 0;
  if (denseWeight <= 0 && sparseWeight <= 0) return { qdrantK, denseCopies: 0, sparseCopies: 0, scoreScale: 0 };
  if (sparseWeight <= 0) return { qdrantK, denseCopies: 1, sparseCopies: 0, scoreScale: denseWeight };
  if (denseWeight <= 0) return { qdrantK, denseCopies: 0, sparseCopies: 1, scoreScale: sparseWeight };
  // The smallest whole numbers a:b with a / b = denseWeight / sparseWeight, up to rounding error.
  const tolerance = 1e-9 * Math.max(denseWeight, sparseWeight);
  for (let total = 2; total <= MAX_PREFETCHES; total += 1) {
    for (let denseCopies = 1; denseCopies < total; denseCopies += 1) {
      const sparseCopies = total - denseCopies;
      if (Math.abs(denseCopies * sparseWeight - sparseCopies * denseWeight) <= tolerance) {
        return { qdrantK, denseCopies, sparseCopies, scoreScale: denseWeight / denseCopies };
      }
    }
  }
  return null;
}
