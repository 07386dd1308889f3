/**
 * What the Qdrant index's writes (qdrant-writes.ts) and queries (qdrant-queries.ts) share: the client,
 * the error-mapping call wrapper, the collection, its dense size and the search parameters.
 */
import type { QdrantClient, Schemas } from "@qdrant/js-client-rest";
import type { SparseVector } from "../domain/types.js";
import { FolioError } from "../errors.js";
import type { QdrantCall } from "./qdrant-collection.js";
import { mergeSparseVector } from "./sparse-dimensions.js";

export type QdrantIndexContext = {
  client: QdrantClient;
  call: QdrantCall;
  collection: string;
  denseDimensions: number;
  denseParams: Schemas["SearchParams"] | undefined;
  sparseParams: Schemas["SearchParams"] | undefined;
};

/** A sparse vector as Qdrant accepts it: unique ascending indices, no zeros (mergeSparseVector). */
export function toQdrantSparseVector(vector: SparseVector): Schemas["SparseVector"] {
  return mergeSparseVector(vector);
}

export function checkDense(context: Pick<QdrantIndexContext, "denseDimensions">, vector: number[]): void {
  if (vector.length !== context.denseDimensions) {
    throw new FolioError(
      "dense_dimension_mismatch",
      `A dense vector has ${vector.length} dimensions but the index holds ${context.denseDimensions}; re-index with the configured embedding model.`,
    );
  }
}
