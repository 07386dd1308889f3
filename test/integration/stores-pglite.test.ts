/** Runs the catalog and vector-index contracts on embedded PGlite + pgvector, plus embedded start-up. */
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { openStores } from "../../src/stores/open-stores.js";
import { toSparsevecLiteral } from "../../src/stores/pgvector-index.js";
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
