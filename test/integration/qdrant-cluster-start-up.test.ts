/**
 * Start-up against a Qdrant cluster, checked on a local HTTP stand-in that answers as a 3-node cluster
 * does while a new collection settles (the failure a real 3-node Qdrant 1.16.3 cluster showed: reading a
 * collection right after creating it gave HTTP 500 "0 of 0 read operations failed"): the create body
 * carries the configured cluster settings, every replica waits until each shard has an active replica
 * before it reads, retries the settling answers with backoff, takes another replica's 409 for done, and
 * gives up after the start timeout naming the shards that are not active. Quantized collections ask for
 * rescoring. A real cluster runs the same through stores-qdrant.test.ts (`QDRANT_URL` to any node).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { LogFields, Logger } from "../../src/logger.js";
import { silentLogger } from "../../src/logger.js";
import type { QdrantCollectionSettings } from "../../src/stores/qdrant-collection-settings.js";
import { openQdrantIndex } from "../../src/stores/qdrant-index.js";
import {
  clusterInfo,
  collectionInfo,
  failure,
  ok,
  type QdrantStandIn,
  startQdrantStandIn,
} from "../support/qdrant-stand-in.js";

const COLLECTION = "folio_cluster";
const CLUSTER_SETTINGS: QdrantCollectionSettings = {
  shardNumber: 3,
  replicationFactor: 2,
  writeConsistencyFactor: 2,
  onDiskVectors: true,
  onDiskPayload: true,
  quantization: "int8",
  oversampling: 2.5,
};
/** Short pauses: what matters is that tries are bounded and ordered, not how long they take. */
const QUICK_SETTLING = { timeoutMs: 60_000, initialDelayMs: 1, maxDelayMs: 8 };
const CLUSTER_PARAMS = { shard_number: 3, replication_factor: 2, write_consistency_factor: 2, on_disk_payload: true };
const INT8 = { scalar: { type: "int8", quantile: 0.99, always_ram: true } };
const PAYLOAD_SCHEMA = Object.fromEntries(
  ["spaceId", "documentId", "denseModel"].map((field) => [field, { data_type: "keyword", points: 0 }]),
);

/** Three shards, two replicas each, spread over peers 1, 2 and 3, all in `state`. */
const replicas = (state: string) =>
  [0, 1, 2].flatMap((shardId) => [
    { shardId, peerId: 1 + (shardId % 3), state },
    { shardId, peerId: 1 + ((shardId + 1) % 3), state },
  ]);

let standIn: QdrantStandIn | null = null;
afterEach(async () => {
  await standIn?.close();
  standIn = null;
});

const lines = (server: QdrantStandIn) => server.requests.map((request) => `${request.method} ${request.path}`);
const unit = (index: number) => Array.from({ length: 384 }, (_, at) => (at === index ? 1 : 0));

function openReplica(server: QdrantStandIn, options: { settling?: typeof QUICK_SETTLING; logger?: Logger } = {}) {
  return openQdrantIndex({
    url: server.url,
    apiKey: null,
    collection: COLLECTION,
    denseDimensions: 384,
    logger: options.logger ?? silentLogger,
    settings: CLUSTER_SETTINGS,
    settling: options.settling ?? QUICK_SETTLING,
  });
}

/**
 * A cluster where the new collection settles: the first read of its shards answers 404 (this peer has
 * not applied the creation), the next reads show replicas still initializing, then all are active.
 * Until then, reading the collection answers 500 as Qdrant does; `readsBeforeActive` counts reads a
 * replica made anyway. The first payload index request answers 500 once.
 */
function settlingCluster(server: QdrantStandIn, options: { initializingReads: number }) {
  const counts = { shardReads: 0, readsBeforeActive: 0, indexFailures: 0 };
  let active = false;
  server.answer("GET", new RegExp(`^/collections/${COLLECTION}/cluster$`), () => {
    counts.shardReads += 1;
    if (counts.shardReads === 1) return failure(404, `Not found: Collection \`${COLLECTION}\` doesn't exist!`);
    if (counts.shardReads <= 1 + options.initializingReads) {
      // Shard 2's second replica lags behind the others.
      const states = replicas("Active").map((replica, at) =>
        at >= 4 ? { ...replica, state: "Initializing" } : replica,
      );
      return ok(clusterInfo({ peerId: 1, shards: states }));
    }
    active = true;
    return ok(clusterInfo({ peerId: 1, shards: replicas("Active") }));
  });
  server.answer("GET", new RegExp(`^/collections/${COLLECTION}$`), () => {
    if (!active) {
      counts.readsBeforeActive += 1;
      return failure(500, "Service internal error: 0 of 0 read operations failed");
    }
    return ok(
      collectionInfo({
        vectors: { dense: { size: 384, distance: "Cosine", on_disk: true } },
        sparseVectors: { sparse: { index: { on_disk: true } } },
        params: CLUSTER_PARAMS,
        quantizationConfig: INT8,
        payloadSchema: counts.indexFailures > 0 ? PAYLOAD_SCHEMA : {},
      }),
    );
  });
  server.answer("PUT", new RegExp(`^/collections/${COLLECTION}/index\\?`), () => {
    counts.indexFailures += 1;
    if (counts.indexFailures === 1) return failure(500, "Service internal error: 0 of 0 read operations failed");
    return ok({ operation_id: counts.indexFailures, status: "completed" });
  });
  return counts;
}

describe("Qdrant collection on a cluster", () => {
  it("creates the collection with the configured sharding, replication, on-disk storage and int8 quantization", async () => {
    standIn = await startQdrantStandIn({ collection: COLLECTION, exists: false });
    await openReplica(standIn);
    const create = standIn.requests.find(
      (request) => request.method === "PUT" && request.path === `/collections/${COLLECTION}`,
    );
    expect(create?.body).toEqual({
      vectors: { dense: { size: 384, distance: "Cosine", on_disk: true } },
      sparse_vectors: { sparse: { modifier: "none", index: { on_disk: true } } },
      shard_number: 3,
      replication_factor: 2,
      write_consistency_factor: 2,
      on_disk_payload: true,
      quantization_config: INT8,
    });
  });

  it("starts two replicas together on a settling cluster: one creates, both wait for active shards before reading", async () => {
    standIn = await startQdrantStandIn({ collection: COLLECTION, exists: false });
    const counts = settlingCluster(standIn, { initializingReads: 3 });
    const [first, second] = await Promise.all([openReplica(standIn), openReplica(standIn)]);
    expect(first.denseDimensions).toBe(384);
    expect(second.denseDimensions).toBe(384);
    const sent = lines(standIn);
    // Both tried to create it; the second got 409 "already exists" and went on.
    expect(sent.filter((line) => line === `PUT /collections/${COLLECTION}`)).toHaveLength(2);
    // 1 answer of 404 + 3 of initializing + at least one active answer per replica.
    expect(counts.shardReads).toBeGreaterThanOrEqual(6);
    expect(counts.readsBeforeActive).toBe(0);
    // The payload index request that failed with 500 was tried again; each field ends up indexed.
    const indexed = standIn.requests
      .filter((request) => request.path.startsWith(`/collections/${COLLECTION}/index`))
      .map((request) => (request.body as { field_name: string }).field_name);
    expect(new Set(indexed)).toEqual(new Set(["spaceId", "documentId", "denseModel"]));
    expect(indexed.length).toBeGreaterThan(3);
    // Nothing was read or written in points before start-up ended.
    expect(sent.some((line) => line.includes("/points"))).toBe(false);
  });

  it("retries a collection read that answers 500 while the shards are already reported active", async () => {
    standIn = await startQdrantStandIn({ collection: COLLECTION, exists: true });
    let reads = 0;
    standIn.answer("GET", new RegExp(`^/collections/${COLLECTION}$`), () => {
      reads += 1;
      if (reads <= 2) return failure(500, "Service internal error: 0 of 0 read operations failed");
      return ok(
        collectionInfo({
          vectors: { dense: { size: 384, distance: "Cosine" } },
          sparseVectors: { sparse: {} },
          params: CLUSTER_PARAMS,
          quantizationConfig: INT8,
          payloadSchema: PAYLOAD_SCHEMA,
        }),
      );
    });
    await openReplica(standIn);
    expect(reads).toBe(3);
  });

  it("gives up after the start timeout, naming the shard that never became active", async () => {
    standIn = await startQdrantStandIn({ collection: COLLECTION, exists: true });
    const stuck = replicas("Active").map((replica, at) => (at === 2 ? { ...replica, state: "Initializing" } : replica));
    standIn.answer("GET", new RegExp(`^/collections/${COLLECTION}/cluster$`), () =>
      ok(clusterInfo({ peerId: 1, shards: stuck })),
    );
    const error = await openReplica(standIn, { settling: { timeoutMs: 200, initialDelayMs: 1, maxDelayMs: 20 } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: "vector_store_not_ready", retryable: true });
    expect((error as Error).message).toContain("shard 1 (Initializing on peer 2, Active on peer 3)");
    expect((error as Error).message).toContain("QDRANT_START_TIMEOUT_SECONDS");
    expect(lines(standIn).filter((line) => line === `GET /collections/${COLLECTION}/cluster`).length).toBeGreaterThan(
      1,
    );
    // It never went on to read the collection.
    expect(lines(standIn)).not.toContain(`GET /collections/${COLLECTION}`);
  });

  it("warns when an existing collection was made with other settings than configured", async () => {
    standIn = await startQdrantStandIn({ collection: COLLECTION, exists: true });
    standIn.answer("GET", new RegExp(`^/collections/${COLLECTION}$`), () =>
      ok(
        collectionInfo({
          vectors: { dense: { size: 384, distance: "Cosine" } },
          sparseVectors: { sparse: {} },
          payloadSchema: PAYLOAD_SCHEMA,
        }),
      ),
    );
    const warnings: Array<{ fields: LogFields; message: string }> = [];
    const logger: Logger = {
      ...silentLogger,
      warn: (fields, message) => warnings.push({ fields, message }),
      child: () => logger,
    };
    await openReplica(standIn, { logger });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.fields.differences).toEqual([
      { setting: "QDRANT_SHARD_NUMBER", configured: 3, found: 1 },
      { setting: "QDRANT_REPLICATION_FACTOR", configured: 2, found: 1 },
      { setting: "QDRANT_WRITE_CONSISTENCY_FACTOR", configured: 2, found: 1 },
      { setting: "QDRANT_QUANTIZATION", configured: "int8", found: "none" },
    ]);
  });
});

describe("queries on a quantized collection", () => {
  it("ask for rescoring with the configured oversampling on dense queries and dense prefetches only", async () => {
    standIn = await startQdrantStandIn({ collection: COLLECTION, exists: false });
    const index = await openReplica(standIn);
    standIn.requests.length = 0;
    standIn.answer("POST", new RegExp(`^/collections/${COLLECTION}/points/query$`), () => ok({ points: [] }));
    await index.queryDense(unit(0), { spaceIds: ["console:a"], limit: 3 });
    await index.queryHybrid({
      dense: unit(1),
      sparse: { indices: [5], values: [1] },
      spaceIds: ["console:a"],
      limit: 3,
      candidates: 20,
      fusion: { k: 60, denseWeight: 1, sparseWeight: 1 },
    });
    const rescored = { quantization: { rescore: true, oversampling: 2.5 } };
    const [dense, hybrid] = standIn.requests.map((request) => request.body as Record<string, unknown>);
    expect(dense?.params).toEqual(rescored);
    const prefetch = hybrid?.prefetch as Array<{ using: string; params?: unknown }>;
    expect(prefetch.map((entry) => [entry.using, entry.params])).toEqual([
      ["dense", rescored],
      ["sparse", undefined],
    ]);
    // Qdrant counts ranks from 0, so Folio's k of 60 is its 61 (qdrant-fusion.ts).
    expect(hybrid?.query).toEqual({ rrf: { k: 61 } });
  });

  it("ignore the quantized copy when opened for exact search (the contract suite)", async () => {
    standIn = await startQdrantStandIn({ collection: COLLECTION, exists: false });
    const index = await openQdrantIndex({
      url: standIn.url,
      apiKey: null,
      collection: COLLECTION,
      denseDimensions: 384,
      logger: silentLogger,
      settings: CLUSTER_SETTINGS,
      settling: QUICK_SETTLING,
      exactSearch: true,
    });
    standIn.requests.length = 0;
    standIn.answer("POST", new RegExp(`^/collections/${COLLECTION}/points/query$`), () => ok({ points: [] }));
    await index.queryDense(unit(0), { spaceIds: ["console:a"], limit: 3 });
    expect((standIn.requests[0]?.body as { params?: unknown } | undefined)?.params).toEqual({
      exact: true,
      quantization: { ignore: true },
    });
  });
});
