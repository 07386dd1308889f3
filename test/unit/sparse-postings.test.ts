import { describe, expect, it } from "vitest";
import { SparsePostings, type StoredSparseVector } from "../../src/stores/sparse-postings.js";
import { createSeededRandom } from "../support/seeded-random.js";

function vectorOf(random: () => number): StoredSparseVector["sparse"] {
  const indices = [...new Set(Array.from({ length: 6 }, () => Math.floor(random() * 40)))].sort((a, b) => a - b);
  return { indices, values: indices.map(() => Math.fround(0.1 + random())) };
}

function bruteForce(vectors: Map<string, StoredSparseVector>, query: StoredSparseVector["sparse"], limit: number) {
  const weights = new Map(query.indices.map((index, position) => [index, query.values[position] ?? 0]));
  return [...vectors.values()]
    .map((vector) => ({
      chunkId: vector.chunkId,
      score: vector.sparse.indices.reduce(
        (sum, index, position) => sum + Math.fround(vector.sparse.values[position] ?? 0) * (weights.get(index) ?? 0),
        0,
      ),
    }))
    .filter((entry) => entry.score > 0)
    .sort((left, right) => right.score - left.score || (left.chunkId < right.chunkId ? -1 : 1))
    .slice(0, limit);
}

describe("SparsePostings", () => {
  it("stays exact through many replacements, deletions and the compactions they cause", async () => {
    const random = createSeededRandom(7);
    const stored = new Map<string, StoredSparseVector>();
    for (let index = 0; index < 300; index += 1) {
      const chunkId = `c${String(index).padStart(4, "0")}`;
      stored.set(chunkId, { chunkId, documentId: `d${index % 30}`, spaceId: "s", sparse: vectorOf(random) });
    }
    let loads = 0;
    const postings = new SparsePostings(async (spaceId) => {
      loads += 1;
      return [...stored.values()].filter((vector) => vector.spaceId === spaceId);
    });
    const query = { indices: [1, 5, 9, 13, 21, 34], values: [1, 0.5, 2, 1, 0.25, 1.5] };
    expect(await postings.query(query, { spaceIds: ["s"], limit: 10 })).toMatchObject(bruteForce(stored, query, 10));
    // 3,000 replacements leave far more dead slots than the 1,000 that trigger compaction.
    for (let round = 0; round < 10; round += 1) {
      const replaced = [...stored.values()].map((vector) => ({ chunkId: vector.chunkId, sparse: vectorOf(random) }));
      for (const entry of replaced)
        stored.set(entry.chunkId, { ...(stored.get(entry.chunkId) as StoredSparseVector), sparse: entry.sparse });
      await postings.replaced(replaced);
    }
    await postings.removedDocument("d3");
    for (const [chunkId, vector] of stored) if (vector.documentId === "d3") stored.delete(chunkId);
    const hits = await postings.query(query, { spaceIds: ["s"], limit: 10 });
    const expected = bruteForce(stored, query, 10);
    expect(hits.map((hit) => hit.chunkId)).toEqual(expected.map((entry) => entry.chunkId));
    for (const [index, hit] of hits.entries()) expect(hit.score).toBeCloseTo(expected[index]?.score ?? Number.NaN, 9);
    expect(loads).toBe(1);
    expect(await postings.query(query, { spaceIds: ["other"], limit: 10 })).toEqual([]);
  });
});
