/**
 * The vector index on a Qdrant server (used when QDRANT_URL is set): one collection, one point per chunk
 * (the chunk id is the point id), named vectors `dense` (cosine, HNSW) and `sparse` (BM25), and the
 * payload {spaceId, documentId, denseModel} with keyword indexes (qdrant-collection.ts). Every query
 * filters by the asker's spaces inside the request, and hybrid search is one Query API call: dense and
 * sparse prefetches, each with the space filter, fused by Qdrant's RRF (qdrant-fusion.ts). Writes are in
 * qdrant-writes.ts, queries in qdrant-queries.ts.
 *
 * Why no `modifier: "idf"` on the sparse vector: points store BM25-saturated term frequencies and the
 * query carries IDF from the live statistics of exactly the spaces asked (src/retrieval/bm25.ts). Qdrant's
 * modifier would compute IDF over the whole collection — every tenant's documents — so one team's
 * uploads would shift another team's scores, and results would differ from the embedded store's.
 */
import { QdrantClient } from "@qdrant/js-client-rest";
import type { Logger } from "../logger.js";
import { ensureQdrantCollection, type QdrantCall } from "./qdrant-collection.js";
import type { SettlingOptions } from "./qdrant-collection-readiness.js";
import {
  DEFAULT_QDRANT_COLLECTION_SETTINGS,
  denseSearchParams,
  type QdrantCollectionSettings,
} from "./qdrant-collection-settings.js";
import { callQdrant } from "./qdrant-errors.js";
import type { QdrantIndexContext } from "./qdrant-index-context.js";
import { createQdrantQueries } from "./qdrant-queries.js";
import { createQdrantWrites } from "./qdrant-writes.js";
import type { VectorIndex } from "./vector-index.js";

export { toQdrantSparseVector } from "./qdrant-index-context.js";

export type QdrantIndexOptions = {
  url: string;
  apiKey: string | null;
  collection: string;
  denseDimensions: number;
  logger: Logger;
  /**
   * Full scans instead of the indexes (HNSW for dense, the inverted index for sparse): the contract suite
   * compares with brute force, so it asks for scans and checks the scoring, not the index's recall.
   * Product queries leave this off; HNSW is approximate, the sparse inverted index is meant to be exact.
   */
  exactSearch?: boolean;
  /** Per-request timeout; a slow server becomes a retryable `vector_store_unavailable`. */
  timeoutMs?: number;
  /** Sharding, replication, on-disk storage and quantization of a new collection; one-node defaults. */
  settings?: QdrantCollectionSettings;
  /** How long start-up waits for a new collection to settle on a cluster, and how it backs off. */
  settling?: SettlingOptions;
};

const DEFAULT_TIMEOUT_MS = 30_000;

/** Connects, creates or checks the collection, and returns the index; fails at start on a schema mismatch. */
export async function openQdrantIndex(options: QdrantIndexOptions): Promise<VectorIndex> {
  const { url, apiKey, collection, denseDimensions, logger } = options;
  if (apiKey && url.startsWith("http://")) {
    logger.warn({ url }, "QDRANT_API_KEY is sent over plain http; use an https QDRANT_URL outside a private network");
  }
  const client = new QdrantClient({
    url,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    // The compatibility probe would print to the console on its own; the schema check below covers what matters.
    checkCompatibility: false,
    headers: apiKey ? { "api-key": apiKey } : {},
  });
  const call: QdrantCall = (operation, request) => callQdrant({ operation, url, collection }, request);
  const settings = options.settings ?? DEFAULT_QDRANT_COLLECTION_SETTINGS;
  await ensureQdrantCollection({
    client,
    call,
    collection,
    denseDimensions,
    logger,
    settings,
    settling: options.settling,
  });
  const exactSearch = options.exactSearch ?? false;
  return createQdrantIndex({
    client,
    call,
    collection,
    denseDimensions,
    denseParams: denseSearchParams(settings, exactSearch),
    sparseParams: exactSearch ? { exact: true } : undefined,
  });
}

function createQdrantIndex(context: QdrantIndexContext): VectorIndex {
  return {
    denseDimensions: context.denseDimensions,
    ...createQdrantWrites(context),
    ...createQdrantQueries(context),
    async close() {
      // REST over keep-alive connections: nothing to release; idle sockets close on their own.
    },
  };
}
