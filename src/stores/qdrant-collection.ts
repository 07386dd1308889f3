/**
 * Creates Folio's Qdrant collection when it is missing (with the configured cluster settings, waiting
 * until it is ready on every peer) and refuses one whose schema does not fit, at start-up rather than
 * on the first write. The schema: named vectors `dense` (cosine, HNSW, the
 * embedder's size) and `sparse` (BM25 weights, no `modifier`: the query carries IDF, see
 * qdrant-index.ts), and keyword payload indexes on spaceId (the tenant), documentId and denseModel.
 */
import type { QdrantClient, Schemas } from "@qdrant/js-client-rest";
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import {
  DEFAULT_SETTLING_OPTIONS,
  isAlreadyExists,
  retryWhileSettling,
  type SettlingOptions,
  waitForActiveShards,
} from "./qdrant-collection-readiness.js";
import {
  collectionCreateBody,
  DEFAULT_QDRANT_COLLECTION_SETTINGS,
  type QdrantCollectionSettings,
  settingsDifferences,
} from "./qdrant-collection-settings.js";

/** The collection name when QDRANT_COLLECTION is not set. */
export const DEFAULT_QDRANT_COLLECTION = "folio_chunks";

export const DENSE_VECTOR = "dense";
export const SPARSE_VECTOR = "sparse";

/** Payload keys; the chunk id is the point id. */
export const PAYLOAD = { spaceId: "spaceId", documentId: "documentId", denseModel: "denseModel" } as const;

const PAYLOAD_INDEXES: Array<{ field: string; schema: Schemas["KeywordIndexParams"] }> = [
  // is_tenant: Qdrant keeps each space's points together on disk, so a space's queries read little.
  { field: PAYLOAD.spaceId, schema: { type: "keyword", is_tenant: true } },
  { field: PAYLOAD.documentId, schema: { type: "keyword" } },
  { field: PAYLOAD.denseModel, schema: { type: "keyword" } },
];

/** Runs one request through the error mapping (qdrant-errors.ts). */
export type QdrantCall = <Result>(operation: string, request: () => Promise<Result>) => Promise<Result>;

/** The create-collection body for the configured settings (qdrant-collection-settings.ts). */
export function collectionSchema(
  denseDimensions: number,
  settings: QdrantCollectionSettings = DEFAULT_QDRANT_COLLECTION_SETTINGS,
): Schemas["CreateCollection"] {
  return collectionCreateBody({ denseVector: DENSE_VECTOR, sparseVector: SPARSE_VECTOR, denseDimensions }, settings);
}

/**
 * Creates the collection if it is missing, waits until its shards are active (on a cluster, for every
 * replica that starts at once: qdrant-collection-readiness.ts), checks its schema, and adds the payload
 * indexes it lacks. Reports configured settings an existing collection does not have.
 */
export async function ensureQdrantCollection(options: {
  client: QdrantClient;
  call: QdrantCall;
  collection: string;
  denseDimensions: number;
  logger: Logger;
  settings?: QdrantCollectionSettings;
  settling?: SettlingOptions;
}): Promise<void> {
  const { client, call, collection, denseDimensions, logger } = options;
  const settings = options.settings ?? DEFAULT_QDRANT_COLLECTION_SETTINGS;
  const settling = options.settling ?? DEFAULT_SETTLING_OPTIONS;
  const retried = <Result>(operation: string, request: () => Promise<Result>) =>
    retryWhileSettling(operation, () => call(operation, request), { options: settling, logger, collection });

  const { exists } = await retried("check collection", () => client.collectionExists(collection));
  if (!exists) {
    try {
      await call("create collection", () =>
        client.createCollection(collection, collectionSchema(denseDimensions, settings)),
      );
      logger.info(
        {
          collection,
          denseDimensions,
          shardNumber: settings.shardNumber,
          replicationFactor: settings.replicationFactor,
        },
        "qdrant collection created",
      );
    } catch (error) {
      // Another replica starting at the same moment may have created it first; then its schema is checked below.
      if (!isAlreadyExists(error)) {
        const { exists: createdMeanwhile } = await retried("check collection", () =>
          client.collectionExists(collection),
        );
        if (!createdMeanwhile) throw error;
      }
    }
  }
  await waitForActiveShards({ client, call, collection, settling, logger });
  const info = await retried("read collection", () => client.getCollection(collection));
  checkCollectionSchema(info, { collection, denseDimensions });
  const differences = settingsDifferences(info, settings);
  if (differences.length > 0) {
    logger.warn(
      { collection, differences },
      "the qdrant collection was created with other settings than configured; they apply to a new collection (QDRANT_COLLECTION), or change them on the server",
    );
  }
  for (const index of PAYLOAD_INDEXES) {
    if (info.payload_schema[index.field]) continue;
    await retried("create payload index", () =>
      client.createPayloadIndex(collection, { field_name: index.field, field_schema: index.schema, wait: true }),
    );
  }
}

function schemaMismatch(collection: string, problem: string, details: Record<string, unknown>): FolioError {
  return new FolioError(
    "vector_store_schema_mismatch",
    `The Qdrant collection "${collection}" ${problem}, so Folio cannot use it. Set QDRANT_COLLECTION to a new name and run \`folio reindex\` to fill it, or delete the collection if its contents can go.`,
    { details: { collection, ...details } },
  );
}

export function checkCollectionSchema(
  info: Schemas["CollectionInfo"],
  expected: { collection: string; denseDimensions: number },
): void {
  const { collection, denseDimensions } = expected;
  const vectors = info.config.params.vectors ?? {};
  // A single unnamed vector is `{size, distance}`; named vectors are a map of those.
  const named = "size" in vectors ? {} : (vectors as Record<string, Schemas["VectorParams"] | undefined>);
  const dense = named[DENSE_VECTOR];
  const sparse = info.config.params.sparse_vectors?.[SPARSE_VECTOR];
  if (!dense || !sparse) {
    const found = [
      "size" in vectors ? "one unnamed dense vector" : Object.keys(named).join(", ") || "no dense vectors",
    ];
    found.push(`sparse: ${Object.keys(info.config.params.sparse_vectors ?? {}).join(", ") || "none"}`);
    throw schemaMismatch(
      collection,
      `has vectors (${found.join("; ")}) instead of "${DENSE_VECTOR}" and "${SPARSE_VECTOR}"`,
      { found },
    );
  }
  if (dense.size !== denseDimensions) {
    throw new FolioError(
      "dense_dimension_mismatch",
      `The Qdrant collection "${collection}" holds ${dense.size}-dimensional embeddings but the configured embedding model makes ${denseDimensions}; use the model the collection was built with, or set QDRANT_COLLECTION to a new name and run \`folio reindex\` (or delete the collection).`,
      { details: { collection, stored: dense.size, configured: denseDimensions } },
    );
  }
  if (dense.distance !== "Cosine") {
    throw schemaMismatch(collection, `compares "${DENSE_VECTOR}" vectors by ${dense.distance} instead of Cosine`, {
      distance: dense.distance,
    });
  }
  if (sparse.modifier === "idf") {
    throw schemaMismatch(
      collection,
      `applies Qdrant's IDF modifier to "${SPARSE_VECTOR}" vectors (Folio's queries already carry IDF, so scores would count it twice)`,
      { modifier: sparse.modifier },
    );
  }
}
