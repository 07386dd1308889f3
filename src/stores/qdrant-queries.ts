/**
 * Queries of the Qdrant collection, each filtered by the asker's spaces inside the request: dense,
 * sparse, and hybrid as one Query API call (dense and sparse prefetches fused by Qdrant's RRF, or both
 * lists in one batch fused here when Qdrant cannot express the fusion: qdrant-fusion.ts), and the count
 * of chunks by embedding model.
 */
import type { Schemas } from "@qdrant/js-client-rest";
import type { SpaceId } from "../domain/types.js";
import { DENSE_VECTOR, PAYLOAD, SPARSE_VECTOR } from "./qdrant-collection.js";
import { planServerFusion } from "./qdrant-fusion.js";
import { checkDense, type QdrantIndexContext, toQdrantSparseVector } from "./qdrant-index-context.js";
import { fuseHybridLists } from "./reciprocal-rank-fusion.js";
import {
  candidateQuery,
  type DenseModelCount,
  type ScoredChunkId,
  type VectorIndex,
  type VectorQuery,
} from "./vector-index.js";

/** More distinct embedding models than this in one collection is not a state Folio produces. */
const FACET_LIMIT = 1000;
const RETURNED_PAYLOAD = [PAYLOAD.spaceId, PAYLOAD.documentId];

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

/** Chunks sharing no term with the query score 0; they are not matches (as in pgvector-index.ts). */
const positive = (hits: ScoredChunkId[]) => hits.filter((hit) => hit.score > 0);

export function createQdrantQueries(
  context: QdrantIndexContext,
): Pick<VectorIndex, "queryDense" | "querySparse" | "queryHybrid" | "countByDenseModel"> {
  const { client, call, collection, denseParams, sparseParams } = context;

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

  return {
    async queryDense(vector, query) {
      checkDense(context, vector);
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
      checkDense(context, query.dense);
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
  };
}
