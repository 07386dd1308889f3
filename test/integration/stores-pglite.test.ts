/** Runs the catalog and vector-index contracts on embedded PGlite + pgvector, plus embedded start-up. */
import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { openStores } from "../../src/stores/open-stores.js";
import { toSparsevecLiteral } from "../../src/stores/pgvector-index.js";
import type { IndexedChunk } from "../../src/stores/vector-index.js";
import { createSeededRandom } from "../support/seeded-random.js";
import { runCatalogContract } from "./catalog-contract.js";
import { runVectorIndexContract } from "./vector-index-contract.js";

const openEmbeddedStores = (dataDir: string, denseDimensions = 384) =>
  openStores({ mode: "embedded", dataDir }, { denseDimensions, logger: silentLogger });

runCatalogContract("PGlite", async () => {
  const stores = await openEmbeddedStores("memory://");
  return { catalog: stores.catalog, close: () => stores.client.close() };
});

runVectorIndexContract("pgvector on PGlite", async () => {
  const stores = await openEmbeddedStores("memory://");
  if (!stores.vectorIndex) throw new Error("PGlite was opened without pgvector");
  return { vectorIndex: stores.vectorIndex, close: () => stores.client.close() };
});

// The contract asks for exact rankings; the approximate path (HNSW, keys, deletes, filters, fusion) gives
// them when its vectors are float32 and its search breadth covers the contract's 1,000 chunks a space.
// Its recall at realistic settings is measured by bench/scale-benchmark.ts and SciFact instead.
runVectorIndexContract("pgvector on PGlite, approximate dense index forced on", async () => {
  const stores = await openStores(
    { mode: "embedded", dataDir: "memory://" },
    {
      denseDimensions: 384,
      logger: silentLogger,
      denseSearch: {
        mode: "approximate",
        approximate: { quantization: "f32", connectivity: 16, expansionAdd: 128, expansionSearch: 1000 },
      },
    },
  );
  if (!stores.vectorIndex) throw new Error("PGlite was opened without pgvector");
  return { vectorIndex: stores.vectorIndex, close: () => stores.client.close() };
});

describe("embedded stores on disk", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "folio-stores-"));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it("creates the data directory, keeps data across restarts and refuses another embedding size", async () => {
    const dataDir = path.join(directory, "nested", "db");
    const first = await openEmbeddedStores(dataDir);
    expect(first.vectorBackend).toBe("pgvector");
    expect((await stat(dataDir)).isDirectory()).toBe(true);
    const { document } = await first.catalog.addDocument({
      document: {
        spaceId: "console:disk",
        title: "Notes",
        fileName: "notes.txt",
        mediaType: "text/plain",
        sha256: "ab".repeat(32),
        byteSize: 3,
        pageCount: null,
        uploader: null,
        bytes: new Uint8Array([1, 2, 3]),
      },
      pages: [],
      chunks: [],
    });
    await first.vectorIndex?.upsert([
      {
        chunkId: "00000000-0000-4000-8000-000000000001",
        documentId: document.id,
        spaceId: "console:disk",
        sparse: { indices: [4], values: [2] },
      },
    ]);
    // Closing the ports leaves the shared client usable; only client.close() ends it.
    await first.catalog.close();
    await first.vectorIndex?.close();
    expect(await first.catalog.getDocumentBytes(document.id)).toEqual(new Uint8Array([1, 2, 3]));
    await first.client.close();

    const second = await openEmbeddedStores(dataDir);
    expect(await second.catalog.getDocument(document.id)).toMatchObject({ fileName: "notes.txt" });
    const hits = await second.vectorIndex?.querySparse(
      { indices: [4], values: [1.5] },
      { spaceIds: ["console:disk"], limit: 5 },
    );
    expect(hits?.map((hit) => [hit.chunkId, hit.score])).toEqual([["00000000-0000-4000-8000-000000000001", 3]]);
    await second.client.close();

    await expect(openEmbeddedStores(dataDir, 768)).rejects.toMatchObject({ code: "dense_dimension_mismatch" });
  });
});

describe("embedded approximate dense index across restarts", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "folio-ann-"));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  const DIMENSIONS = 8;
  // float32 and a search breadth over the whole space, so the expected answer is the exact one.
  const denseSearch = {
    mode: "approximate" as const,
    approximate: { quantization: "f32" as const, connectivity: 16, expansionAdd: 64, expansionSearch: 500 },
  };
  const unit = (random: () => number) => {
    const values = Array.from({ length: DIMENSIONS }, () => random() * 2 - 1);
    const norm = Math.hypot(...values);
    return values.map((value) => value / norm);
  };
  const dot = (left: number[], right: number[]) =>
    left.reduce((sum, value, index) => sum + value * (right[index] ?? 0), 0);

  it("saves each space's index beside the database, loads it after a restart without rebuilding, and keeps to the asked space", async () => {
    const dataDir = path.join(directory, "db");
    const open = () =>
      openStores({ mode: "embedded", dataDir }, { denseDimensions: DIMENSIONS, logger: silentLogger, denseSearch });
    const random = createSeededRandom(24);
    const spaces = ["console:ann-a", "console:ann-b"];
    const documents = Array.from({ length: 6 }, () => randomUUID());
    const chunks: IndexedChunk[] = Array.from({ length: 400 }, (_, position) => ({
      chunkId: randomUUID(),
      documentId: documents[position % documents.length] ?? "",
      spaceId: spaces[position % 2] ?? "",
      dense: unit(random),
      denseModel: "test-embedder",
    }));
    const query = unit(random);
    // The best match of all is in the other space.
    chunks.push({
      chunkId: randomUUID(),
      documentId: randomUUID(),
      spaceId: spaces[1] ?? "",
      dense: query,
      denseModel: "test-embedder",
    });
    const expectedTop = (among: IndexedChunk[]) =>
      among
        .filter((chunk) => chunk.spaceId === spaces[0])
        .sort((left, right) => dot(right.dense ?? [], query) - dot(left.dense ?? [], query))
        .slice(0, 10)
        .map((chunk) => chunk.chunkId);
    const ask = async (stores: Awaited<ReturnType<typeof open>>) =>
      (await stores.vectorIndex?.queryDense(query, { spaceIds: [spaces[0] ?? ""], limit: 10 }))?.map(
        (hit) => hit.chunkId,
      );

    const first = await open();
    await ask(first); // the space is in memory before the chunks arrive: its index is built as they do
    await first.vectorIndex?.upsert(chunks);
    expect(await ask(first)).toEqual(expectedTop(chunks));
    await first.vectorIndex?.close();
    await first.client.close();
    const snapshotDirectory = `${dataDir}.dense-index`;
    const manifests = (await readdir(snapshotDirectory)).filter((name) => name.endsWith(".json"));
    // Only the space that was asked is in memory, so only its index exists (the other loads when asked).
    expect(manifests).toHaveLength(1);
    const savedAt = await Promise.all(
      manifests.map(async (name) => (await stat(path.join(snapshotDirectory, name))).mtimeMs),
    );

    const second = await open();
    expect(await ask(second)).toEqual(expectedTop(chunks));
    await second.vectorIndex?.close();
    await second.client.close();
    // Loaded as saved: nothing changed, so nothing was rebuilt or written again.
    expect(
      await Promise.all(manifests.map(async (name) => (await stat(path.join(snapshotDirectory, name))).mtimeMs)),
    ).toEqual(savedAt);

    // A document deleted after a restart stays deleted after the next one.
    const third = await open();
    await third.vectorIndex?.deleteByDocument(documents[0] ?? "");
    const remaining = chunks.filter((chunk) => chunk.documentId !== documents[0]);
    expect(await ask(third)).toEqual(expectedTop(remaining));
    await third.vectorIndex?.close();
    await third.client.close();
    const fourth = await open();
    expect(await ask(fourth)).toEqual(expectedTop(remaining));
    await fourth.client.close();
  });
});

describe("embedded saved spaces (slots and postings) across restarts", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "folio-space-snapshot-"));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  const DIMENSIONS = 8;
  const denseSearch = {
    mode: "approximate" as const,
    approximate: { quantization: "f32" as const, connectivity: 16, expansionAdd: 64, expansionSearch: 500 },
  };

  it("answers identically after a restart from the saved space, and rebuilds it when the database changed behind it", async () => {
    const dataDir = path.join(directory, "db");
    const open = () =>
      openStores({ mode: "embedded", dataDir }, { denseDimensions: DIMENSIONS, logger: silentLogger, denseSearch });
    const random = createSeededRandom(2424);
    const unit = () => {
      const values = Array.from({ length: DIMENSIONS }, () => random() * 2 - 1);
      const norm = Math.hypot(...values);
      return values.map((value) => value / norm);
    };
    const sparse = () => {
      const indices = [...new Set(Array.from({ length: 8 }, () => Math.floor(random() * 60)))].sort((a, b) => a - b);
      return { indices, values: indices.map(() => Math.fround(0.2 + random())) };
    };
    const spaceId = "console:saved-space";
    const documents = Array.from({ length: 5 }, () => randomUUID());
    const chunks: IndexedChunk[] = Array.from({ length: 300 }, (_, position) => ({
      chunkId: randomUUID(),
      documentId: documents[position % documents.length] ?? "",
      spaceId,
      dense: unit(),
      denseModel: "test-embedder",
      sparse: sparse(),
    }));
    const denseQuery = unit();
    const sparseQuery = { indices: [3, 7, 11, 19, 23], values: [1, 2, 0.5, 1, 1.5] };
    const request = { spaceIds: [spaceId], limit: 10 };
    const answers = async (stores: Awaited<ReturnType<typeof open>>) => {
      const index = stores.vectorIndex;
      if (!index) throw new Error("no vector index");
      return {
        dense: await index.queryDense(denseQuery, request),
        sparse: await index.querySparse(sparseQuery, request),
        hybrid: await index.queryHybrid({
          ...request,
          dense: denseQuery,
          sparse: sparseQuery,
          candidates: 50,
          fusion: { k: 60, denseWeight: 2, sparseWeight: 1 },
        }),
      };
    };
    const snapshotDirectory = `${dataDir}.dense-index`;
    const manifest = async () => {
      const name = (await readdir(snapshotDirectory)).find((file) => file.endsWith(".json")) ?? "";
      const file = path.join(snapshotDirectory, name);
      return {
        ...(JSON.parse(await readFile(file, "utf8")) as { version: string }),
        mtimeMs: (await stat(file)).mtimeMs,
      };
    };

    const first = await open();
    await answers(first); // in memory before the chunks arrive
    await first.vectorIndex?.upsert(chunks);
    await first.vectorIndex?.updateSparse(
      chunks.slice(0, 30).map((chunk) => ({ chunkId: chunk.chunkId, sparse: sparse() })),
    );
    await first.vectorIndex?.deleteByDocument(documents[1] ?? "");
    const before = await answers(first);
    expect(before.sparse).toHaveLength(10);
    await first.vectorIndex?.close();
    await first.client.close();
    const saved = await manifest();

    const second = await open();
    const { rows } = await second.client.query<{ version: string }>(
      "SELECT version::text AS version FROM chunk_vector_space_versions WHERE space_id = $1",
      [spaceId],
    );
    expect(saved.version).toBe(rows[0]?.version);
    expect(await answers(second)).toEqual(before);
    // Another program changes a chunk's terms behind the store's back (the version moves with it).
    const target = before.sparse.at(-1)?.chunkId ?? "";
    await second.client.query("UPDATE chunk_vectors SET sparse = $1::sparsevec WHERE chunk_id = $2", [
      toSparsevecLiteral({ indices: [3, 7], values: [40, 40] }),
      target,
    ]);
    await second.vectorIndex?.close();
    await second.client.close();
    expect((await manifest()).mtimeMs).toBe(saved.mtimeMs); // loaded as saved, nothing written again

    const third = await open();
    const after = await answers(third);
    expect(after.sparse[0]?.chunkId).toBe(target);
    expect(after.dense).toEqual(before.dense);
    await third.client.close();
    const rebuilt = await manifest();
    expect(Number(rebuilt.version)).toBeGreaterThan(Number(saved.version));
  });
});

describe("embedded data directory lock", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "folio-lock-"));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it("refuses a second open while the first is live, and takes over a lock left by a dead process", async () => {
    const dataDir = path.join(directory, "db");
    const first = await openEmbeddedStores(dataDir);
    await expect(openEmbeddedStores(dataDir)).rejects.toMatchObject({ code: "data_dir_in_use" });
    await first.client.close();
    // A pid that cannot be alive (above the kernel's pid_max).
    await writeFile(`${dataDir}.lock`, "99999999");
    const second = await openEmbeddedStores(dataDir);
    expect(await readFile(`${dataDir}.lock`, "utf8")).toBe(String(process.pid));
    await second.client.close();
    await expect(stat(`${dataDir}.lock`)).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("pgvector sparse literal", () => {
  it("writes 1-based indices over 2^29 dimensions, sums repeated ids and drops zeros", () => {
    expect(toSparsevecLiteral({ indices: [0, 7, 536_870_911], values: [0.5, 0, 2] })).toBe(
      "{1:0.5,536870912:2}/536870912",
    );
    expect(toSparsevecLiteral({ indices: [4, 4], values: [1, 1.5] })).toBe("{5:2.5}/536870912");
    expect(() => toSparsevecLiteral({ indices: [2 ** 29], values: [1] })).toThrow(
      expect.objectContaining({ code: "sparse_index_out_of_range" }),
    );
  });
});
