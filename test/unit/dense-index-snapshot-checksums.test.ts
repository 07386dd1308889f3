/**
 * Saved approximate indexes are checked before anything reads them (issue #30): a `.usearch` file
 * damaged at its recorded size made usearch abort the process, a damaged header failed every question,
 * and a swapped chunk id in `.chunks` or `.space` made answers quote another space's document. Each
 * file's SHA-256 is in the manifest; a snapshot that does not match is refused before usearch loads it,
 * and the space is rebuilt from the database — answering exactly as before.
 */
import { mkdtemp, open as openFile, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SparseVector } from "../../src/domain/types.js";
import type { Logger } from "../../src/logger.js";
import { silentLogger } from "../../src/logger.js";
import { ApproximateDenseIndex } from "../../src/stores/approximate-dense-index.js";
import { DenseIndexSnapshots } from "../../src/stores/dense-index-snapshots.js";
import {
  type DenseSearchSettings,
  InMemorySpaceIndex,
  type SpaceSource,
} from "../../src/stores/in-memory-space-index.js";
import { createSeededRandom } from "../support/seeded-random.js";

type Stored = { chunkId: string; documentId: string; spaceId: string; dense: number[]; sparse: SparseVector };

const F32 = { quantization: "f32", connectivity: 16, expansionAdd: 64, expansionSearch: 200 } as const;
const SETTINGS: Partial<DenseSearchSettings> = { mode: "approximate", approximate: F32 };

function denseOf(random: () => number): number[] {
  const values = Array.from({ length: 4 }, () => Math.fround(random() * 2 - 1));
  const norm = Math.hypot(...values);
  return values.map((value) => Math.fround(value / norm));
}

function sparseOf(random: () => number): SparseVector {
  const indices = [...new Set(Array.from({ length: 6 }, () => Math.floor(random() * 40)))].sort((a, b) => a - b);
  return { indices, values: indices.map(() => Math.fround(0.1 + random())) };
}

function chunksFor(random: () => number, count: number, spaceId: string, from = 0): Stored[] {
  return Array.from({ length: count }, (_, offset) => ({
    chunkId: `c${String(from + offset).padStart(4, "0")}`,
    documentId: `${spaceId}-d${(from + offset) % 5}`,
    spaceId,
    dense: denseOf(random),
    sparse: sparseOf(random),
  }));
}

function sourceOver(stored: Map<string, Stored>, counters: { loads: number }): SpaceSource {
  return {
    async *rows(spaceId, { withDense }) {
      counters.loads += 1;
      yield [...stored.values()]
        .filter((entry) => entry.spaceId === spaceId)
        .map((entry) => (withDense ? entry : { ...entry, dense: undefined, hasDense: true }));
    },
    async *dense(chunkIds) {
      yield chunkIds.flatMap((chunkId) => {
        const entry = stored.get(chunkId);
        return entry ? [{ chunkId, dense: Float32Array.from(entry.dense) }] : [];
      });
    },
    version: async () => "7",
  };
}

function recordingLogger(): { logger: Logger; warnings: Array<Record<string, unknown>> } {
  const warnings: Array<Record<string, unknown>> = [];
  const logger: Logger = {
    ...silentLogger,
    warn: (fields: unknown) => {
      warnings.push(fields as Record<string, unknown>);
    },
    child: () => logger,
  } as Logger;
  return { logger, warnings };
}

describe("saved index checksums", () => {
  let directory: string;
  const random = createSeededRandom(23);
  const stored = new Map<string, Stored>();
  const query = denseOf(random);
  const request = { spaceIds: ["s"], limit: 10 };
  let expected: string[];

  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "folio-checksums-"));
    stored.clear();
    for (const chunk of [...chunksFor(random, 120, "s"), ...chunksFor(random, 30, "other", 500)])
      stored.set(chunk.chunkId, chunk);
    const first = new InMemorySpaceIndex(4, sourceOver(stored, { loads: 0 }), {
      settings: SETTINGS,
      snapshots: new DenseIndexSnapshots(directory, 4, F32),
    });
    expected = (await first.queryDense(query, request)).map((hit) => hit.chunkId);
    await first.close(); // saves the snapshot
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(directory, { recursive: true, force: true });
  });

  const fileEnding = async (ending: string) =>
    path.join(directory, (await readdir(directory)).find((name) => name.endsWith(ending)) ?? "");

  /** Reopens the space, reporting whether usearch was asked to load a file and whether the rows were read. */
  async function reopen() {
    const counters = { loads: 0 };
    const { logger, warnings } = recordingLogger();
    const load = vi.spyOn(ApproximateDenseIndex, "load");
    const memory = new InMemorySpaceIndex(4, sourceOver(stored, counters), {
      settings: SETTINGS,
      snapshots: new DenseIndexSnapshots(directory, 4, F32, { logger }),
    });
    const hits = (await memory.queryDense(query, request)).map((hit) => hit.chunkId);
    await memory.close();
    return { hits, rowsRead: counters.loads, usearchLoads: load.mock.calls.length, warnings };
  }

  it("takes an intact snapshot whole: usearch loads it and nothing is read from the database", async () => {
    expect(await reopen()).toEqual({ hits: expected, rowsRead: 0, usearchLoads: 1, warnings: [] });
    const manifest = JSON.parse(await readFile(await fileEnding(".json"), "utf8"));
    expect(manifest.format).toBe(2);
    expect(Object.keys(manifest.sha256)).toEqual(["index", "chunks", "space"]);
    expect(manifest.sha256.index).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a .usearch file damaged at its recorded size before usearch reads it, and rebuilds from the database", async () => {
    const file = await fileEnding(".usearch");
    const size = (await readFile(file)).length;
    const handle = await openFile(file, "r+");
    await handle.write(Buffer.alloc(256, 0xff), 0, 256, Math.floor(size / 2));
    await handle.close();
    expect((await readFile(file)).length).toBe(size);
    expect(await reopen()).toEqual({
      hits: expected,
      rowsRead: 1,
      usearchLoads: 0,
      warnings: [{ space: "s", file: "usearch" }],
    });
    // Saved again on the way out: the next start takes the new snapshot whole.
    expect(await reopen()).toMatchObject({ hits: expected, rowsRead: 0, usearchLoads: 1 });
  });

  it("refuses a .usearch file whose header is damaged", async () => {
    const file = await fileEnding(".usearch");
    const handle = await openFile(file, "r+");
    await handle.write(Buffer.from("garbage!"), 0, 8, 0);
    await handle.close();
    expect(await reopen()).toMatchObject({ hits: expected, rowsRead: 1, usearchLoads: 0 });
  });

  it("refuses a .chunks file with one chunk id swapped for another space's, so that chunk is never a hit", async () => {
    const file = await fileEnding(".chunks");
    const text = await readFile(file, "utf8");
    const victim = expected[0] as string;
    await writeFile(file, text.replace(`${victim}\n`, "c0500\n"));
    const reopened = await reopen();
    expect(reopened).toMatchObject({ hits: expected, rowsRead: 1, usearchLoads: 0 });
    expect(reopened.hits).not.toContain("c0500");
    expect(reopened.warnings).toEqual([{ space: "s", file: "chunks" }]);
  });

  it("refuses a damaged .space file alone by reconciling the checked index with the rows", async () => {
    const file = await fileEnding(".space");
    const bytes = await readFile(file);
    bytes.write("c0500", bytes.indexOf("c0"), "utf8");
    await writeFile(file, bytes);
    const reopened = await reopen();
    expect(reopened).toMatchObject({ hits: expected, rowsRead: 1, usearchLoads: 1 });
    expect(reopened.warnings).toEqual([{ space: "s", file: "space" }]);
  });

  it("rebuilds a snapshot saved before checksums (format 1) once", async () => {
    const file = await fileEnding(".json");
    const manifest = JSON.parse(await readFile(file, "utf8"));
    const { sha256: _sha256, ...older } = manifest;
    await writeFile(file, JSON.stringify({ ...older, format: 1 }));
    expect(await reopen()).toMatchObject({ hits: expected, rowsRead: 1, usearchLoads: 0 });
    expect(await reopen()).toMatchObject({ hits: expected, rowsRead: 0, usearchLoads: 1 });
  });
});

describe("saved exact space checksums", () => {
  let directory: string;
  const random = createSeededRandom(31);
  const stored = new Map<string, Stored>();
  const query = denseOf(random);
  const request = { spaceIds: ["s"], limit: 10 };
  const EXACT: Partial<DenseSearchSettings> = { mode: "exact" };
  let expected: string[];

  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "folio-exact-checksums-"));
    stored.clear();
    for (const chunk of chunksFor(random, 40, "s")) stored.set(chunk.chunkId, chunk);
    const first = new InMemorySpaceIndex(4, sourceOver(stored, { loads: 0 }), {
      settings: EXACT,
      snapshots: new DenseIndexSnapshots(directory, 4, F32),
    });
    expected = (await first.queryDense(query, request)).map((hit) => hit.chunkId);
    await first.close();
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  async function reopen() {
    const counters = { loads: 0 };
    const { logger, warnings } = recordingLogger();
    const memory = new InMemorySpaceIndex(4, sourceOver(stored, counters), {
      settings: EXACT,
      snapshots: new DenseIndexSnapshots(directory, 4, F32, { logger }),
    });
    const hits = (await memory.queryDense(query, request)).map((hit) => hit.chunkId);
    await memory.close();
    return { hits, rowsRead: counters.loads, warnings };
  }

  it("takes an intact exact snapshot whole, with the checksums of its two files", async () => {
    const name = (await readdir(directory)).find((file) => file.endsWith(".json")) ?? "";
    const manifest = JSON.parse(await readFile(path.join(directory, name), "utf8"));
    expect([manifest.kind, Object.keys(manifest.sha256)]).toEqual(["exact", ["space", "dense"]]);
    expect(await reopen()).toEqual({ hits: expected, rowsRead: 0, warnings: [] });
  });

  it("refuses a .dense file damaged at its recorded size and reads the space from the database", async () => {
    const file = path.join(directory, (await readdir(directory)).find((name) => name.endsWith(".dense")) ?? "");
    const bytes = await readFile(file);
    bytes.writeFloatLE(9, 0);
    await writeFile(file, bytes);
    expect(await reopen()).toEqual({ hits: expected, rowsRead: 1, warnings: [{ space: "s", file: "dense" }] });
  });
});
