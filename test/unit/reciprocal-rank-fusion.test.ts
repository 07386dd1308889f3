import { describe, expect, it } from "vitest";
import { fuseReciprocalRanks } from "../../src/stores/reciprocal-rank-fusion.js";

const hits = (...ids: string[]) => ids.map((id) => ({ chunkId: id, documentId: `doc-${id}`, spaceId: "s", score: 9 }));

describe("fuseReciprocalRanks", () => {
  it("sums weight / (k + rank) over the lists, ranks from 1", () => {
    const fused = fuseReciprocalRanks(
      [
        { results: hits("a", "b", "c"), weight: 1 },
        { results: hits("c", "a"), weight: 1 },
      ],
      { k: 60, limit: 10 },
    );
    expect(fused.map((hit) => hit.chunkId)).toEqual(["a", "c", "b"]);
    expect(fused[0]?.score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(fused[1]?.score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(fused[2]?.score).toBeCloseTo(1 / 62, 12);
    expect(fused[0]?.documentId).toBe("doc-a");
  });

  it("weights lists and skips a list of weight 0", () => {
    const lists = [
      { results: hits("a", "b"), weight: 1 },
      { results: hits("b", "a"), weight: 2 },
    ];
    expect(fuseReciprocalRanks(lists, { k: 10, limit: 2 }).map((hit) => hit.chunkId)).toEqual(["b", "a"]);
    const denseOnly = [{ ...lists[0], weight: 0 } as (typeof lists)[0], lists[1] as (typeof lists)[0]];
    expect(fuseReciprocalRanks(denseOnly, { k: 10, limit: 5 }).map((hit) => hit.chunkId)).toEqual(["b", "a"]);
  });

  it("breaks ties by first appearance and honours the limit", () => {
    const fused = fuseReciprocalRanks(
      [
        { results: hits("a"), weight: 1 },
        { results: hits("b"), weight: 1 },
      ],
      { k: 60, limit: 1 },
    );
    expect(fused.map((hit) => hit.chunkId)).toEqual(["a"]);
    expect(fuseReciprocalRanks([], { k: 60, limit: 5 })).toEqual([]);
  });
});
