import { describe, expect, it } from "vitest";
import type { SparseVector } from "../../src/domain/types.js";
import { InMemorySpaceIndex } from "../../src/stores/in-memory-space-index.js";
import { createSeededRandom } from "../support/seeded-random.js";

type Stored = { chunkId: string; documentId: string; spaceId: string; dense: number[]; sparse: SparseVector };

function sparseOf(random: () => number): SparseVector {
  const indices = [...new Set(Array.from({ length: 6 }, () => Math.floor(random() * 40)))].sort((a, b) => a - b);
  return { indices, values: indices.map(() => Math.fround(0.1 + random())) };
}

function denseOf(random: () => number): number[] {
  const values = Array.from({ length: 4 }, () => Math.fround(random() * 2 - 1));
  const norm = Math.hypot(...values);
  return values.map((value) => Math.fround(value / norm));
}

function expectedTop(stored: Map<string, Stored>, score: (entry: Stored) => number, limit: number) {
  return [...stored.values()]
    .map((entry) => ({ chunkId: entry.chunkId, score: score(entry) }))
    .filter((entry) => entry.score > -Infinity)
    .sort((left, right) => right.score - left.score || (left.chunkId < right.chunkId ? -1 : 1))
    .slice(0, limit);
}

function sparseScore(query: SparseVector) {
  const weights = new Map(query.indices.map((index, position) => [index, query.values[position] ?? 0]));
  return (entry: Stored) =>
    entry.sparse.indices.reduce(
      (sum, index, position) => sum + (entry.sparse.values[position] ?? 0) * (weights.get(index) ?? 0),
      0,
    );
}

describe("InMemorySpaceIndex", () => {
  it("stays exact for dense and sparse queries through replacements, deletions and compactions", async () => {
    const random = createSeededRandom(7);
    const stored = new Map<string, Stored>();
    for (let index = 0; index < 300; index += 1) {
      const chunkId = `c${String(index).padStart(4, "0")}`;
      stored.set(chunkId, {
        chunkId,
        documentId: `d${index % 30}`,
        spaceId: "s",
        dense: denseOf(random),
        sparse: sparseOf(random),
      });
    }
    let loads = 0;
    const memory = new InMemorySpaceIndex(4, async function* (spaceId) {
      loads += 1;
      const inSpace = [...stored.values()].filter((entry) => entry.spaceId === spaceId);
      // Two pages, as the database reads a large space.
      yield inSpace.slice(0, Math.ceil(inSpace.length / 2));
      yield inSpace.slice(Math.ceil(inSpace.length / 2));
    });
    const sparseQuery = { indices: [1, 5, 9, 13, 21, 34], values: [1, 0.5, 2, 1, 0.25, 1.5] };
    const denseQuery = denseOf(random);
    const denseScore = (entry: Stored) =>
      entry.dense.reduce((sum, value, index) => sum + value * (denseQuery[index] ?? 0), 0);
    const check = async () => {
      const sparseHits = await memory.querySparse(sparseQuery, { spaceIds: ["s"], limit: 10 });
      const sparseExpected = expectedTop(stored, sparseScore(sparseQuery), 10).filter((entry) => entry.score > 0);
      expect(sparseHits.map((hit) => hit.chunkId)).toEqual(sparseExpected.map((entry) => entry.chunkId));
      for (const [index, hit] of sparseHits.entries())
        expect(hit.score).toBeCloseTo(sparseExpected[index]?.score ?? 0, 9);
      const denseHits = await memory.queryDense(denseQuery, { spaceIds: ["s"], limit: 10 });
      const denseExpected = expectedTop(stored, denseScore, 10);
      expect(denseHits.map((hit) => hit.chunkId)).toEqual(denseExpected.map((entry) => entry.chunkId));
      for (const [index, hit] of denseHits.entries())
        expect(hit.score).toBeCloseTo(denseExpected[index]?.score ?? 0, 5);
    };
    await check();
    // 3,000 sparse replacements leave more dead slots than the 1,000 that trigger compaction.
    for (let round = 0; round < 10; round += 1) {
      const replaced = [...stored.values()].map((entry) => ({ chunkId: entry.chunkId, sparse: sparseOf(random) }));
      for (const entry of replaced)
        stored.set(entry.chunkId, { ...(stored.get(entry.chunkId) as Stored), sparse: entry.sparse });
      await memory.replacedSparse(replaced);
    }
    await check();
    const redense = [...stored.values()]
      .slice(0, 50)
      .map((entry) => ({ chunkId: entry.chunkId, dense: denseOf(random) }));
    for (const entry of redense)
      stored.set(entry.chunkId, { ...(stored.get(entry.chunkId) as Stored), dense: entry.dense });
    await memory.replacedDense(redense);
    await memory.removedDocument("d3");
    for (const [chunkId, entry] of stored) if (entry.documentId === "d3") stored.delete(chunkId);
    await check();
    expect(loads).toBe(1);
    expect(await memory.querySparse(sparseQuery, { spaceIds: ["other"], limit: 10 })).toEqual([]);
    expect(await memory.queryDense(denseQuery, { spaceIds: ["other"], limit: 10 })).toEqual([]);
  });
});
