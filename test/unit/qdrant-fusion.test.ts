import { describe, expect, it } from "vitest";
import { planServerFusion } from "../../src/stores/qdrant-fusion.js";
import { fuseReciprocalRanks } from "../../src/stores/reciprocal-rank-fusion.js";
import type { ScoredChunkId } from "../../src/stores/vector-index.js";

const both = { dense: true, sparse: true };

/** Qdrant's RRF as its source defines it (lib/segment/src/common/reciprocal_rank_fusion.rs, no weights). */
function qdrantRrf(lists: string[][], k: number): Map<string, number> {
  const scores = new Map<string, number>();
  for (const list of lists) {
    for (const [position, id] of list.entries()) scores.set(id, (scores.get(id) ?? 0) + 1 / (position + k));
  }
  return scores;
}

const hits = (ids: string[]): ScoredChunkId[] =>
  ids.map((chunkId) => ({ chunkId, documentId: "", spaceId: "", score: 0 }));

describe("planServerFusion", () => {
  it("turns Folio's 1-based k into Qdrant's 0-based k and weights into prefetch copies", () => {
    expect(planServerFusion({ k: 60, denseWeight: 2, sparseWeight: 1 }, both)).toEqual({
      qdrantK: 61,
      denseCopies: 2,
      sparseCopies: 1,
      scoreScale: 1,
    });
    expect(planServerFusion({ k: 60, denseWeight: 0.7, sparseWeight: 0.7 }, both)).toEqual({
      qdrantK: 61,
      denseCopies: 1,
      sparseCopies: 1,
      scoreScale: 0.7,
    });
    expect(planServerFusion({ k: 10, denseWeight: 1.5, sparseWeight: 1 }, both)).toEqual({
      qdrantK: 11,
      denseCopies: 3,
      sparseCopies: 2,
      scoreScale: 0.5,
    });
    expect(planServerFusion({ k: 60, denseWeight: 2, sparseWeight: 0 }, both)).toEqual({
      qdrantK: 61,
      denseCopies: 1,
      sparseCopies: 0,
      scoreScale: 2,
    });
    expect(planServerFusion({ k: 60, denseWeight: 2, sparseWeight: 1 }, { dense: true, sparse: false })).toEqual({
      qdrantK: 61,
      denseCopies: 1,
      sparseCopies: 0,
      scoreScale: 2,
    });
  });

  it("gives up (client-side fusion) on a fractional k or a ratio needing more than six prefetches", () => {
    expect(planServerFusion({ k: 60.5, denseWeight: 1, sparseWeight: 1 }, both)).toBeNull();
    expect(planServerFusion({ k: 60, denseWeight: 2.3, sparseWeight: 1 }, both)).toBeNull();
    expect(planServerFusion({ k: 60, denseWeight: 6, sparseWeight: 1 }, both)).toBeNull();
    expect(planServerFusion({ k: 60, denseWeight: 5, sparseWeight: 1 }, both)).toMatchObject({ denseCopies: 5 });
  });

  it("reproduces Folio's weighted fusion scores exactly with Qdrant's formula", () => {
    const dense = ["a", "b", "c", "d", "e", "f"];
    const sparse = ["d", "g", "a", "h", "b"];
    for (const fusion of [
      { k: 60, denseWeight: 2, sparseWeight: 1 },
      { k: 5, denseWeight: 1, sparseWeight: 3 },
      { k: 0, denseWeight: 0.4, sparseWeight: 0.6 },
    ]) {
      const plan = planServerFusion(fusion, both);
      if (!plan) throw new Error("expected a plan");
      const lists = [...Array(plan.denseCopies).fill(dense), ...Array(plan.sparseCopies).fill(sparse)];
      const server = qdrantRrf(lists, plan.qdrantK);
      const folio = fuseReciprocalRanks(
        [
          { results: hits(dense), weight: fusion.denseWeight },
          { results: hits(sparse), weight: fusion.sparseWeight },
        ],
        { k: fusion.k, limit: 100 },
      );
      expect(folio).toHaveLength(server.size);
      for (const hit of folio) expect((server.get(hit.chunkId) ?? 0) * plan.scoreScale).toBeCloseTo(hit.score, 12);
    }
  });
});
