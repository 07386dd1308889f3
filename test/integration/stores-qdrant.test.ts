/**
 * Runs the vector-index contract on a real Qdrant server (`QDRANT_URL`, optional `QDRANT_API_KEY`;
 * `npm run test:qdrant`), plus Qdrant's own start-up checks. Every suite works in a fresh collection
 * with a random name and deletes it afterwards, so runs repeat cleanly. Skipped without QDRANT_URL.
 * The collection settings come from the same variables Folio reads (QDRANT_SHARD_NUMBER,
 * QDRANT_REPLICATION_FACTOR, QDRANT_QUANTIZATION, …), so on a cluster (`QDRANT_URL` to any node) the
 * suite runs on sharded, replicated, quantized collections: see docs/operations.md.
 */
import { randomUUID } from "node:crypto";
import { QdrantClient } from "@qdrant/js-client-rest";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { silentLogger } from "../../src/logger.js";
import { openStores } from "../../src/stores/open-stores.js";
import { openQdrantIndex } from "../../src/stores/qdrant-index.js";
import { runVectorIndexContract } from "./vector-index-contract.js";

const url = process.env.QDRANT_URL;
const apiKey = process.env.QDRANT_API_KEY ?? null;
const configured = url ? loadConfig(process.env).qdrant : null;

const freshCollectionName = () => `folio_test_${randomUUID().replaceAll("-", "")}`;

async function deleteCollection(collection: string): Promise<void> {
  const client = new QdrantClient({ url, checkCompatibility: false, headers: apiKey ? { "api-key": apiKey } : {} });
  await client.deleteCollection(collection);
}

const openOn = (collection: string, denseDimensions = 384) =>
  openQdrantIndex({
    url: url ?? "",
    apiKey,
    collection,
    denseDimensions,
    logger: silentLogger,
    // The contract compares with brute force; product queries use HNSW.
    exactSearch: true,
    settings: configured?.settings,
    settling: configured?.settling,
  });

if (!url) console.warn("Qdrant tests skipped: set QDRANT_URL (and QDRANT_API_KEY if needed) to run them");

describe.skipIf(!url)("vector index on Qdrant", () => {
  runVectorIndexContract("Qdrant", async () => {
    const collection = freshCollectionName();
    const vectorIndex = await openOn(collection);
    return { vectorIndex, close: () => deleteCollection(collection) };
  });

  it("creates the collection once when two processes start together, with the tenant index on spaceId", async () => {
    const collection = freshCollectionName();
    try {
      await Promise.all([openOn(collection), openOn(collection)]);
      await openOn(collection);
      const client = new QdrantClient({ url, checkCompatibility: false, headers: apiKey ? { "api-key": apiKey } : {} });
      const info = await client.getCollection(collection);
      expect(info.config.params.vectors).toMatchObject({ dense: { size: 384, distance: "Cosine" } });
      expect(Object.keys(info.config.params.sparse_vectors ?? {})).toEqual(["sparse"]);
      expect(info.payload_schema.spaceId).toMatchObject({ data_type: "keyword", params: { is_tenant: true } });
      expect(Object.keys(info.payload_schema).sort()).toEqual(["denseModel", "documentId", "spaceId"]);
      expect(info.config.params.shard_number).toBe(configured?.settings.shardNumber);
      expect(info.config.params.replication_factor).toBe(configured?.settings.replicationFactor);
    } finally {
      await deleteCollection(collection);
    }
  });

  it("refuses at start a collection made for another embedding size, naming the fix", async () => {
    const collection = freshCollectionName();
    try {
      await openOn(collection, 384);
      await expect(openOn(collection, 768)).rejects.toMatchObject({
        code: "dense_dimension_mismatch",
        message: expect.stringContaining("QDRANT_COLLECTION"),
      });
    } finally {
      await deleteCollection(collection);
    }
  });

  it("refuses a collection whose vectors are not named dense and sparse", async () => {
    const collection = freshCollectionName();
    const client = new QdrantClient({ url, checkCompatibility: false, headers: apiKey ? { "api-key": apiKey } : {} });
    await client.createCollection(collection, { vectors: { size: 384, distance: "Cosine" } });
    try {
      await expect(openOn(collection)).rejects.toMatchObject({ code: "vector_store_schema_mismatch" });
    } finally {
      await deleteCollection(collection);
    }
  });

  it("keeps the catalog in embedded PGlite and the vectors in Qdrant", async () => {
    const collection = freshCollectionName();
    const stores = await openStores(
      { mode: "embedded", dataDir: "memory://" },
      {
        denseDimensions: 384,
        logger: silentLogger,
        qdrant: { url: url ?? "", apiKey, collection, settings: configured?.settings, settling: configured?.settling },
      },
    );
    try {
      expect(stores.vectorBackend).toBe("qdrant");
      const chunkId = randomUUID();
      const documentId = randomUUID();
      await stores.vectorIndex?.upsert([
        { chunkId, documentId, spaceId: "console:qdrant", sparse: { indices: [4, 4], values: [1, 1] } },
      ]);
      const hits = await stores.vectorIndex?.querySparse(
        { indices: [4], values: [1.5] },
        { spaceIds: ["console:qdrant"], limit: 5 },
      );
      expect(hits).toEqual([{ chunkId, documentId, spaceId: "console:qdrant", score: 3 }]);
    } finally {
      await stores.client.close();
      await deleteCollection(collection);
    }
  });
});
