/**
 * Writes to the Qdrant collection: points upserted in batches (payload {spaceId, documentId,
 * denseModel}), sparse and dense vectors replaced on points that exist, a document's points deleted.
 */
import type { Schemas } from "@qdrant/js-client-rest";
import { DENSE_VECTOR, PAYLOAD, SPARSE_VECTOR } from "./qdrant-collection.js";
import { checkDense, type QdrantIndexContext, toQdrantSparseVector } from "./qdrant-index-context.js";
import { CHUNK_ID_PATTERN, type IndexedChunk, requireDenseModel, type VectorIndex } from "./vector-index.js";

/** Points per write request: ~8 KB of JSON each with a 384-d vector, far below Qdrant's 32 MB request limit. */
const WRITE_BATCH_SIZE = 256;

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

export function createQdrantWrites(
  context: QdrantIndexContext,
): Pick<VectorIndex, "upsert" | "updateSparse" | "updateDense" | "deleteByDocument"> {
  const { client, call, collection } = context;

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

  return {
    async upsert(chunks) {
      for (const batch of inBatches(chunks)) {
        for (const chunk of batch) if (chunk.dense) checkDense(context, chunk.dense);
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
        for (const chunk of batch) checkDense(context, chunk.dense);
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
  };
}
