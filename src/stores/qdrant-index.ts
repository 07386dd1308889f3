/**
 * The vector index on a Qdrant server (used when QDRANT_URL is set): one collection, one point per chunk
 * (the chunk id is the point id), named vectors `dense` (cosine, HNSW) and `sparse` (BM25), and the
 * payload {spaceId, documentId, denseModel} with keyword indexes (qdrant-collection.ts). Every query
 * filters by the asker's spaces inside the request, and hybrid search is one Query API call: dense and
 * sparse prefetches, each with the space filter, fused by Qdrant's RRF (qdrant-fusion.ts).
 *
 * Why no `modifier: "idf"` on the sparse vector: points store BM25-saturated term frequencies and the
 * query carries IDF from the live statistics of exactly the spaces asked (src/retrieval/bm25.ts). Qdrant's
 * modifier would compute IDF over the whole collection — every tenant's documents — so one team's
 * uploads would shift another team's scores, and results would differ from the embedded store's.
 */
import { QdrantClient, type Schemas } from "@qdrant/js-client-rest";
import type { SpaceId, SparseVector } from "../domain/types.js";
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import { DENSE_VECTOR, ensureQdrantCollection, PAYLOAD, type QdrantCall, SPARSE_VECTOR } from "./qdrant-collection.js";
import type { SettlingOptions } from "./qdrant-collection-readiness.js";
import {
  DEFAULT_QDRANT_COLLECTION_SETTINGS,
  denseSearchParams,
  type QdrantCollectionSettings,
} from "./qdrant-collection-settings.js";
import { callQdrant } from "./qdrant-errors.js";
import { planServerFusion } from "./qdrant-fusion.js";
import { fuseHybridLists } from "./reciprocal-rank-fusion.js";
import { mergeSparseVector } from "./sparse-dimensions.js";
import {
  CHUNK_ID_PATTERN,
  candidateQuery,
  type DenseModelCount,
  type IndexedChunk,
  requireDenseModel,
  type ScoredChunkId,
  type VectorIndex,
  type VectorQuery,
} from "./vector-index.js";

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

/** Points per write request: ~8 KB of JSON each with a 384-d vector, far below Qdrant's 32 MB request limit. */
const WRITE_BATCH_SIZE = 256;
/** More distinct embedding models than this in one collection is not a state Folio produces. */
const FACET_LIMIT = 1000;
const DEFAULT_TIMEOUT_MS = 30_000;
const RETURNED_PAYLOAD = [PAYLOAD.spaceId, PAYLOAD.documentId];

/** A sparse vector as Qdrant accepts it: unique ascending indices, no zeros (mergeSparseVector). */
export function toQdrantSparseVector(vector: SparseVector): Schemas["SparseVector"] {
  return mergeSparseVector(vector);
}

function spaceCondition(spaceIds: SpaceId[]): Schemas["FieldCondition"] {
  const [only] = spaceIds;
  const match = spaceIds.length === 1 && only !== undefined ? { value: only } : { any: spaceIds };
  return { key: PAYLOAD.spaceId, match };
}

/** The asker's spaces, and the query's documents when it names some. */
function queryFilter(query: VectorQuery): Schemas["Filter"] {
  const must: Schemas["FieldCondition"][] = [spaceCondition(query.spaceIds)];
  if (query.documentIds) must.push({ key: PAYLOAD.documentId, match: { any: query.documentIds } });
  return { must };
}

function toScored(point: Schemas["ScoredPoint"], scale = 1): ScoredChunkId {
  const payload = point.payload ?? {};
  return {
    chunkId: String(point.id),
    documentId: String(payload[PAYLOAD.documentId] ?? ""),
    spaceId: String(payload[PAYLOAD.spaceId] ?? ""),
    score: point.score * scale,
  };
}

function toPoint(chunk: IndexedChunk): Schemas["PointStruct"] {
  const vector: Record<string, number[] | Schemas["SparseVector"]> = {};
  if (chunk.dense) vector[DENSE_VECTOR] = chunk.dense;
  const sparse = chunk.sparse ? toQdrantSparseVector(chunk.sparse) : null;
  if (sparse && sparse.indices.length > 0) vector[SPARSE_VECTOR] = sparse;
  return {
    id: chunk.chunkId,
    vector,
    payload: {
      [PAYLOAD.spaceId]: chunk.spaceId,
      [PAYLOAD.documentId]: chunk.documentId,
      // null, not absent: countByDenseModel counts chunks without a dense vector by this.
      [PAYLOAD.denseModel]: chunk.dense ? requireDenseModel(chunk.denseModel) : null,
    },
  };
}

function inBatches<Item>(items: Item[]): Item[][] {
  const batches: Item[][] = [];
  for (let start = 0; start < items.length; start += WRITE_BATCH_SIZE) {
    batches.push(items.slice(start, start + WRITE_BATCH_SIZE));
  }
  return batches;
}

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

function createQdrantIndex(options: {
  client: QdrantClient;
  call: QdrantCall;
  collection: string;
  denseDimensions: number;
  denseParams: Schemas["SearchParams"] | undefined;
  sparseParams: Schemas["SearchParams"] | undefined;
}): VectorIndex {
  const { client, call, collection, denseDimensions, denseParams, sparseParams } = options;

  function checkDense(vector: number[]): void {
    if (vector.length !== denseDimensions) {
      throw new FolioError(
        "dense_dimension_mismatch",
        `A dense vector has ${vector.length} dimensions but the index holds ${denseDimensions}; re-index with the configured embedding model.`,
      );
    }
  }

  /**
   * Which of these chunk ids are points in the collection. Updating the vectors of a missing point is an
   * error in Qdrant, while the port ignores such ids; a point deleted between this read and the update
   * still fails the update (vector_store_error), which the caller may retry.
   */
  async function existingIds(chunkIds: string[]): Promise<Set<string>> {
    const valid = [...new Set(chunkIds.filter((chunkId) => CHUNK_ID_PATTERN.test(chunkId)))];
    if (valid.length === 0) return new Set();
    const records = await call("read points", () =>
      client.retrieve(collection, { ids: valid, with_payload: false, with_vector: false }),
    );
    return new Set(records.map((record) => String(record.id).toLowerCase()));
  }

  function denseRequest(vector: number[], query: VectorQuery) {
    return {
      query: vector,
      using: DENSE_VECTOR,
      filter: queryFilter(query),
      params: denseParams,
      limit: query.limit,
    };
  }

  function sparseRequest(vector: Schemas["SparseVector"], query: VectorQuery) {
    return {
      query: vector,
      using: SPARSE_VECTOR,
      filter: queryFilter(query),
      params: sparseParams,
      limit: query.limit,
    };
  }

  /** Chunks sharing no term with the query score 0; they are not matches (as in pgvector-index.ts). */
  const positive = (hits: ScoredChunkId[]) => hits.filter((hit) => hit.score > 0);

  return {
    denseDimensions,

    async upsert(chunks) {
      for (const batch of inBatches(chunks)) {
        for (const chunk of batch) if (chunk.dense) checkDense(chunk.dense);
        const points = batch.map(toPoint);
        await call("upsert points", () => client.upsert(collection, { wait: true, points }));
      }
    },

    async updateSparse(chunks) {
      for (const batch of inBatches(chunks)) {
        const present = await existingIds(batch.map((chunk) => chunk.chunkId));
        const kept = batch.filter((chunk) => present.has(chunk.chunkId.toLowerCase()));
        if (kept.length === 0) continue;
        const replaced: Schemas["PointVectors"][] = [];
        const emptied: string[] = [];
        for (const chunk of kept) {
          const sparse = toQdrantSparseVector(chunk.sparse);
          if (sparse.indices.length > 0) replaced.push({ id: chunk.chunkId, vector: { [SPARSE_VECTOR]: sparse } });
          else emptied.push(chunk.chunkId);
        }
        const operations: Schemas["UpdateOperation"][] = [];
        if (replaced.length > 0) operations.push({ update_vectors: { points: replaced } });
        if (emptied.length > 0) operations.push({ delete_vectors: { points: emptied, vector: [SPARSE_VECTOR] } });
        await call("update sparse vectors", () => client.batchUpdate(collection, { wait: true, operations }));
      }
    },

    async updateDense(chunks) {
      for (const batch of inBatches(chunks)) {
        for (const chunk of batch) checkDense(chunk.dense);
        const present = await existingIds(batch.map((chunk) => chunk.chunkId));
        const kept = batch.filter((chunk) => present.has(chunk.chunkId.toLowerCase()));
        if (kept.length === 0) continue;
        const byModel = new Map<string, string[]>();
        for (const chunk of kept) {
          const model = requireDenseModel(chunk.denseModel);
          byModel.set(model, [...(byModel.get(model) ?? []), chunk.chunkId]);
        }
        const operations: Schemas["UpdateOperation"][] = [
          {
            update_vectors: {
              points: kept.map((chunk) => ({ id: chunk.chunkId, vector: { [DENSE_VECTOR]: chunk.dense } })),
            },
          },
          ...[...byModel].map(([model, points]) => ({
            set_payload: { payload: { [PAYLOAD.denseModel]: model }, points },
          })),
        ];
        await call("update dense vectors", () => client.batchUpdate(collection, { wait: true, operations }));
      }
    },

    async deleteByDocument(documentId) {
      await call("delete document", () =>
        client.delete(collection, {
          wait: true,
          filter: { must: [{ key: PAYLOAD.documentId, match: { value: documentId } }] },
        }),
      );
    },

    async queryDense(vector, query) {
      checkDense(vector);
      if (query.spaceIds.length === 0 || query.limit <= 0) return [];
      const { points } = await call("dense query", () =>
        client.query(collection, { ...denseRequest(vector, query), with_payload: RETURNED_PAYLOAD }),
      );
      return points.map((point) => toScored(point));
    },

    async querySparse(vector, query) {
      if (query.spaceIds.length === 0 || query.limit <= 0) return [];
      const sparse = toQdrantSparseVector(vector);
      if (sparse.indices.length === 0) return [];
      const { points } = await call("sparse query", () =>
        client.query(collection, { ...sparseRequest(sparse, query), with_payload: RETURNED_PAYLOAD }),
      );
      return positive(points.map((point) => toScored(point)));
    },

    async queryHybrid(query) {
      checkDense(query.dense);
      if (query.spaceIds.length === 0 || query.limit <= 0) return [];
      const sparse = toQdrantSparseVector(query.sparse);
      const perList = candidateQuery(query);
      const plan = planServerFusion(query.fusion, { dense: true, sparse: sparse.indices.length > 0 });
      if (plan === null) {
        // Fusion Qdrant cannot express (see qdrant-fusion.ts): both lists in one batch request, fused here.
        const [dense, keyword] = await call("hybrid query batch", () =>
          client.queryBatch(collection, {
            searches: [
              { ...denseRequest(query.dense, perList), with_payload: RETURNED_PAYLOAD },
              { ...sparseRequest(sparse, perList), with_payload: RETURNED_PAYLOAD },
            ],
          }),
        );
        return fuseHybridLists(
          (dense?.points ?? []).map((point) => toScored(point)),
          positive((keyword?.points ?? []).map((point) => toScored(point))),
          query,
        );
      }
      if (plan.denseCopies + plan.sparseCopies === 0) return [];
      const prefetch: Schemas["Prefetch"][] = [
        ...Array.from({ length: plan.denseCopies }, () => denseRequest(query.dense, perList)),
        ...Array.from({ length: plan.sparseCopies }, () => sparseRequest(sparse, perList)),
      ];
      const { points } = await call("hybrid query", () =>
        client.query(collection, {
          prefetch,
          query: { rrf: { k: plan.qdrantK } },
          limit: query.limit,
          with_payload: RETURNED_PAYLOAD,
        }),
      );
      return points.map((point) => toScored(point, plan.scoreScale));
    },

    async countByDenseModel(spaceId) {
      const must = spaceId === undefined ? [] : [spaceCondition([spaceId])];
      const [facet, withoutModel] = await Promise.all([
        call("count by dense model", () =>
          client.facet(collection, {
            key: PAYLOAD.denseModel,
            filter: must.length > 0 ? { must } : undefined,
            limit: FACET_LIMIT,
            exact: true,
          }),
        ),
        // The facet leaves out points whose denseModel is null; they are counted separately.
        call("count without dense model", () =>
          client.count(collection, {
            filter: { must: [...must, { is_empty: { key: PAYLOAD.denseModel } }] },
            exact: true,
          }),
        ),
      ]);
      const counts: DenseModelCount[] = facet.hits
        .map((hit) => ({ model: String(hit.value), chunks: hit.count }))
        .sort((left, right) => (left.model < right.model ? -1 : left.model > right.model ? 1 : 0));
      if (withoutModel.count > 0) counts.push({ model: null, chunks: withoutModel.count });
      return counts;
    },

    async close() {
      // REST over keep-alive connections: nothing to release; idle sockets close on their own.
    },
  };
}
