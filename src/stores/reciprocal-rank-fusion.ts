/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, 2009): each ranked list gives a result
 * weight / (k + rank) with 1-based ranks, and results are ordered by the sum. Ties keep the order in
 * which results were first seen (earlier lists first), so fusion is deterministic.
 */
import type { HybridQuery, ScoredChunkId } from "./vector-index.js";

export type RankedList<Hit extends ScoredChunkId = ScoredChunkId> = { results: Hit[]; weight: number };

export const DEFAULT_RRF_K = 60;

/** Hits keep their fields (a search result stays a search result); `score` becomes the fused score. */
export function fuseReciprocalRanks<Hit extends ScoredChunkId>(
  lists: RankedList<Hit>[],
  options: { k: number; limit: number },
): Hit[] {
  const fused = new Map<string, { hit: Hit; score: number; firstSeen: number }>();
  let seen = 0;
  for (const list of lists) {
    if (list.weight === 0) continue;
    list.results.forEach((hit, index) => {
      const contribution = list.weight / (options.k + index + 1);
      const entry = fused.get(hit.chunkId);
      if (entry) entry.score += contribution;
      else fused.set(hit.chunkId, { hit, score: contribution, firstSeen: seen++ });
    });
  }
  return [...fused.values()]
    .sort((left, right) => right.score - left.score || left.firstSeen - right.firstSeen)
    .slice(0, Math.max(0, options.limit))
    .map((entry) => ({ ...entry.hit, score: entry.score }));
}

/** The hybrid query's two candidate lists fused with its parameters; for indexes that fuse client-side. */
export function fuseHybridLists(dense: ScoredChunkId[], sparse: ScoredChunkId[], query: HybridQuery): ScoredChunkId[] {
  return fuseReciprocalRanks(
    [
      { results: dense, weight: query.fusion.denseWeight },
      { results: sparse, weight: query.fusion.sparseWeight },
    ],
    { k: query.fusion.k, limit: query.limit },
  );
}
