import { mkdtemp, readdir, rm, truncate } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SparseVector } from "../../src/domain/types.js";
import { DenseIndexSnapshots } from "../../src/stores/dense-index-snapshots.js";
import {
  type DenseSearchSettings,
  InMemorySpaceIndex,
  type SpaceSource,
} from "../../src/stores/in-memory-space-index.js";
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

/** The database's side, over a map of stored chunks: pages of rows, and vectors by chunk id. */
function sourceOver(stored: Map<string, Stored>, counters = { loads: 0, denseReads: 0 }): SpaceSource {
  return {
    async *rows(spaceId, { withDense }) {
      counters.loads += 1;
      const inSpace = [...stored.values()]
        .filter((entry) => entry.spaceId === spaceId)
        .map((entry) => (withDense ? entry : { ...entry, dense: undefined, hasDense: true }));
      // Two pages, as the database reads a large space.
      yield inSpace.slice(0, Math.ceil(inSpace.length / 2));
      yield inSpace.slice(Math.ceil(inSpace.length / 2));
    },
    async *dense(chunkIds) {
      counters.denseReads += 1;
      yield chunkIds.flatMap((chunkId) => {
        const entry = stored.get(chunkId);
        return entry ? [{ chunkId, dense: Float32Array.from(entry.dense) }] : [];
      });
    },
  };
}

/** float32 inside the approximate index, so its scores can be compared with exact ones to 5 places. */
const APPROXIMATE: Partial<DenseSearchSettings> = {
  mode: "approximate",
  approximate: { quantization: "f32", connectivity: 16, expansionAdd: 64, expansionSearch: 96 },
};

describe.each([
  ["exact", { mode: "exact" } as Partial<DenseSearchSettings>],
  ["approximate", APPROXIMATE],
])("InMemorySpaceIndex (%s dense search)", (_name, settings) => {
  it("returns the exact top hits for dense and sparse queries through replacements, deletions and compactions", async () => {
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
    const counters = { loads: 0, denseReads: 0 };
    const memory = new InMemorySpaceIndex(4, sourceOver(stored, counters), { settings });
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
    // A query restricted to documents is exact whichever way the space is held.
    const inDocuments = await memory.queryDense(denseQuery, { spaceIds: ["s"], limit: 5, documentIds: ["d1", "d2"] });
    const documentsExpected = expectedTop(
      new Map([...stored].filter(([, entry]) => entry.documentId === "d1" || entry.documentId === "d2")),
      denseScore,
      5,
    );
    expect(inDocuments.map((hit) => hit.chunkId)).toEqual(documentsExpected.map((entry) => entry.chunkId));
    expect(counters.loads).toBe(1);
    expect((await memory.describe("s")).approximate).toBe(settings.mode === "approximate");
    expect(await memory.querySparse(sparseQuery, { spaceIds: ["other"], limit: 10 })).toEqual([]);
    expect(await memory.queryDense(denseQuery, { spaceIds: ["other"], limit: 10 })).toEqual([]);
  });
});

describe("InMemorySpaceIndex threshold and snapshots", () => {
  const F32 = { quantization: "f32", connectivity: 16, expansionAdd: 64, expansionSearch: 200 } as const;

  function chunksFor(random: () => number, count: number, from = 0): Stored[] {
    return Array.from({ length: count }, (_, offset) => {
      const index = from + offset;
      return {
        chunkId: `c${String(index).padStart(4, "0")}`,
        documentId: `d${index % 7}`,
        spaceId: "s",
        dense: denseOf(random),
        sparse: sparseOf(random),
      };
    });
  }

  it("searches exactly up to the threshold, switches a growing space to the approximate index past it, and never in exact mode", async () => {
    const random = createSeededRandom(11);
    const stored = new Map<string, Stored>();
    const auto = new InMemorySpaceIndex(4, sourceOver(stored), {
      settings: { mode: "auto", exactMaxChunks: 50, approximate: F32 },
    });
    const exact = new InMemorySpaceIndex(4, sourceOver(stored), { settings: { mode: "exact", exactMaxChunks: 50 } });
    expect((await auto.describe("s")).approximate).toBe(false);
    expect((await exact.describe("s")).approximate).toBe(false);
    const first = chunksFor(random, 50);
    for (const chunk of first) stored.set(chunk.chunkId, chunk);
    await auto.stored(first);
    await exact.stored(first);
    expect(await auto.describe("s")).toMatchObject({ approximate: false, denseChunks: 50 });
    const more = chunksFor(random, 10, 50);
    for (const chunk of more) stored.set(chunk.chunkId, chunk);
    await auto.stored(more);
    await exact.stored(more);
    expect(await auto.describe("s")).toMatchObject({ approximate: true, denseChunks: 60, chunks: 60 });
    expect((await exact.describe("s")).approximate).toBe(false);
    const query = denseOf(random);
    const score = (entry: Stored) => entry.dense.reduce((sum, value, index) => sum + value * (query[index] ?? 0), 0);
    const expected = expectedTop(stored, score, 10).map((entry) => entry.chunkId);
    expect((await auto.queryDense(query, { spaceIds: ["s"], limit: 10 })).map((hit) => hit.chunkId)).toEqual(expected);
    expect((await exact.queryDense(query, { spaceIds: ["s"], limit: 10 })).map((hit) => hit.chunkId)).toEqual(expected);
  });

  it("loads a saved index on restart, reading only the vectors of chunks stored since, and drops chunks deleted since", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "folio-snapshots-"));
    try {
      const settings: Partial<DenseSearchSettings> = { mode: "approximate", approximate: F32 };
      const snapshots = () => new DenseIndexSnapshots(directory, 4, F32);
      const random = createSeededRandom(13);
      const stored = new Map<string, Stored>();
      const before = new InMemorySpaceIndex(4, sourceOver(stored), { settings, snapshots: snapshots() });
      await before.describe("s");
      const initial = chunksFor(random, 120);
      for (const chunk of initial) stored.set(chunk.chunkId, chunk);
      await before.stored(initial);
      await before.close();

      // While the process was down (or before it could save): 5 chunks stored, document d3 deleted.
      const added = chunksFor(random, 5, 120);
      for (const chunk of added) stored.set(chunk.chunkId, chunk);
      for (const [chunkId, entry] of stored) if (entry.documentId === "d3") stored.delete(chunkId);

      const counters = { loads: 0, denseReads: 0 };
      const readIds: string[] = [];
      const source = sourceOver(stored, counters);
      const after = new InMemorySpaceIndex(
        4,
        {
          rows: source.rows,
          dense(chunkIds) {
            readIds.push(...chunkIds);
            return source.dense(chunkIds);
          },
        },
        { settings, snapshots: snapshots() },
      );
      expect(await after.describe("s")).toMatchObject({
        approximate: true,
        chunks: stored.size,
        denseChunks: stored.size,
      });
      expect(readIds.sort()).toEqual(added.filter((chunk) => chunk.documentId !== "d3").map((chunk) => chunk.chunkId));
      for (let round = 0; round < 5; round += 1) {
        const query = denseOf(random);
        const score = (entry: Stored) =>
          entry.dense.reduce((sum, value, index) => sum + value * (query[index] ?? 0), 0);
        const hits = await after.queryDense(query, { spaceIds: ["s"], limit: 10 });
        expect(hits.map((hit) => hit.chunkId)).toEqual(expectedTop(stored, score, 10).map((entry) => entry.chunkId));
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it.each([
    ["approximate", { mode: "approximate", approximate: F32 } as Partial<DenseSearchSettings>, ".usearch"],
    [
      "exact (below the threshold)",
      { mode: "auto", exactMaxChunks: 10_000, approximate: F32 } as Partial<DenseSearchSettings>,
      ".dense",
    ],
  ])(
    "restores a saved %s space whole while its database version is unchanged, and rebuilds it when the version moved or the file is damaged",
    async (_kind, settings, vectorFile) => {
      const directory = await mkdtemp(path.join(tmpdir(), "folio-space-snapshots-"));
      try {
        const snapshots = () => new DenseIndexSnapshots(directory, 4, F32);
        const random = createSeededRandom(17);
        const stored = new Map<string, Stored>();
        let version = 1;
        const counters = { loads: 0, denseReads: 0 };
        const versioned = (): SpaceSource => ({
          ...sourceOver(stored, counters),
          version: async () => String(version),
        });
        const open = () => new InMemorySpaceIndex(4, versioned(), { settings, snapshots: snapshots() });

        const first = open();
        await first.describe("s");
        const initial = chunksFor(random, 150);
        for (const chunk of initial) stored.set(chunk.chunkId, chunk);
        version += 1;
        await first.stored(initial);
        // Replaced sparse vectors and a deleted document leave dead slots in the saved space.
        const replaced = initial.slice(0, 20).map((chunk) => ({ chunkId: chunk.chunkId, sparse: sparseOf(random) }));
        for (const entry of replaced)
          stored.set(entry.chunkId, { ...(stored.get(entry.chunkId) as Stored), sparse: entry.sparse });
        version += 1;
        await first.replacedSparse(replaced);
        for (const [chunkId, entry] of stored) if (entry.documentId === "d2") stored.delete(chunkId);
        version += 1;
        await first.removedDocument("d2");

        const sparseQuery = { indices: [1, 5, 9, 13, 21, 34], values: [1, 0.5, 2, 1, 0.25, 1.5] };
        const denseQuery = denseOf(random);
        const request = { spaceIds: ["s"], limit: 10 };
        const answers = async (memory: InMemorySpaceIndex) => ({
          dense: await memory.queryDense(denseQuery, request),
          sparse: await memory.querySparse(sparseQuery, request),
          inDocument: await memory.querySparse(sparseQuery, { ...request, documentIds: ["d4"] }),
          describe: await memory.describe("s"),
        });
        const before = await answers(first);
        expect(before.sparse.map((hit) => hit.chunkId)).toEqual(
          expectedTop(stored, sparseScore(sparseQuery), 10)
            .filter((entry) => entry.score > 0)
            .map((entry) => entry.chunkId),
        );
        await first.close();

        // Same version: the space comes back from the files alone, answering exactly as before.
        expect((await readdir(directory)).map((name) => path.extname(name)).sort()).toEqual(
          vectorFile === ".dense" ? [".dense", ".json", ".space"] : [".chunks", ".json", ".space", ".usearch"],
        );
        counters.loads = 0;
        const second = open();
        expect(await answers(second)).toEqual(before);
        expect(counters.loads).toBe(0);
        await second.close();

        // Written while the process was down (the version moved): rebuilt from the rows, the new chunk found.
        const added = {
          ...chunksFor(random, 1, 500)[0],
          sparse: { indices: [1, 5, 9], values: [50, 50, 50] },
        } as Stored;
        stored.set(added.chunkId, added);
        version += 1;
        const third = open();
        expect((await third.querySparse(sparseQuery, request))[0]?.chunkId).toBe(added.chunkId);
        expect(counters.loads).toBe(1);
        const afterAdding = await answers(third);
        await third.close();

        // A damaged space file under a current version: refused, rebuilt from the rows.
        const spaceFile = (await readdir(directory)).find((name) => name.endsWith(".space")) ?? "";
        await truncate(path.join(directory, spaceFile), 100);
        counters.loads = 0;
        const fourth = open();
        expect(await answers(fourth)).toEqual(afterAdding);
        expect(counters.loads).toBe(1);
        await fourth.close();

        // A damaged vector file under a current version: refused too.
        const vectors = (await readdir(directory)).find((name) => name.endsWith(vectorFile)) ?? "";
        await truncate(path.join(directory, vectors), 64);
        counters.loads = 0;
        const fifth = open();
        expect(await answers(fifth)).toEqual(afterAdding);
        expect(counters.loads).toBe(1);
        await fifth.close();
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    },
  );
});
