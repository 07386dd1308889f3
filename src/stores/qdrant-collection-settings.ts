/**
 * The collection settings a Qdrant cluster needs, read from configuration, with defaults that are safe
 * on one node: one shard, one copy, writes acknowledged by that copy, vectors in RAM, payload on disk
 * (Qdrant's own default), no quantization. Builds the create-collection body and the dense search
 * parameters from them, and lists where an existing collection differs (sharding is fixed at creation).
 */
import type { Schemas } from "@qdrant/js-client-rest";

export type QdrantQuantization = "none" | "int8";
export const QDRANT_QUANTIZATIONS: readonly QdrantQuantization[] = ["none", "int8"];

export type QdrantCollectionSettings = {
  /** QDRANT_SHARD_NUMBER: shards the points are spread over; on a cluster, a multiple of the node count. */
  shardNumber: number;
  /** QDRANT_REPLICATION_FACTOR: copies of each shard, on different nodes. */
  replicationFactor: number;
  /** QDRANT_WRITE_CONSISTENCY_FACTOR: copies that must apply a write before it is acknowledged. */
  writeConsistencyFactor: number;
  /** QDRANT_ON_DISK_VECTORS: original dense vectors and the sparse index memory-mapped from disk. */
  onDiskVectors: boolean;
  /** QDRANT_ON_DISK_PAYLOAD: payload read from disk (indexed fields stay in RAM). */
  onDiskPayload: boolean;
  /** QDRANT_QUANTIZATION: int8 scalar quantization of dense vectors, kept in RAM, rescored at query time. */
  quantization: QdrantQuantization;
  /** QDRANT_OVERSAMPLING: candidates fetched by the quantized vectors per result kept after rescoring. */
  oversampling: number;
};

export const DEFAULT_QDRANT_COLLECTION_SETTINGS: QdrantCollectionSettings = {
  shardNumber: 1,
  replicationFactor: 1,
  writeConsistencyFactor: 1,
  onDiskVectors: false,
  onDiskPayload: true,
  quantization: "none",
  oversampling: 2,
};

/**
 * Quantile 0.99 clips the outlying 1% of component values when the int8 range is fitted, as Qdrant's
 * documentation recommends; always_ram keeps the quantized copy in RAM when the originals are on disk.
 */
const SCALAR_QUANTIZATION: Schemas["ScalarQuantization"] = {
  scalar: { type: "int8", quantile: 0.99, always_ram: true },
};

export function collectionCreateBody(
  layout: { denseVector: string; sparseVector: string; denseDimensions: number },
  settings: QdrantCollectionSettings,
): Schemas["CreateCollection"] {
  return {
    vectors: {
      [layout.denseVector]: {
        size: layout.denseDimensions,
        distance: "Cosine",
        ...(settings.onDiskVectors ? { on_disk: true } : {}),
      },
    },
    sparse_vectors: {
      [layout.sparseVector]: { modifier: "none", ...(settings.onDiskVectors ? { index: { on_disk: true } } : {}) },
    },
    shard_number: settings.shardNumber,
    replication_factor: settings.replicationFactor,
    write_consistency_factor: settings.writeConsistencyFactor,
    on_disk_payload: settings.onDiskPayload,
    ...(settings.quantization === "int8" ? { quantization_config: SCALAR_QUANTIZATION } : {}),
  };
}

/**
 * Search parameters of a dense query. With int8 the quantized vectors pick `oversampling` × limit
 * candidates and the original vectors rescore them, so scores are exact cosines. A full scan (the
 * contract suite's `exact`) ignores the quantized copy, so it compares the originals.
 */
export function denseSearchParams(
  settings: QdrantCollectionSettings,
  exactSearch: boolean,
): Schemas["SearchParams"] | undefined {
  const quantized = settings.quantization !== "none";
  if (exactSearch) return quantized ? { exact: true, quantization: { ignore: true } } : { exact: true };
  if (!quantized) return undefined;
  return { quantization: { rescore: true, oversampling: settings.oversampling } };
}

/**
 * Where an existing collection differs from the configured settings, in words. Shard number is fixed at
 * creation; the others can be changed on the server (PATCH /collections/{name}), which Folio leaves to
 * the operator, so a difference is reported, not refused.
 */
export function settingsDifferences(
  info: Schemas["CollectionInfo"],
  settings: QdrantCollectionSettings,
): Array<{ setting: string; configured: unknown; found: unknown }> {
  const params = info.config.params;
  const found = {
    QDRANT_SHARD_NUMBER: params.shard_number ?? 1,
    QDRANT_REPLICATION_FACTOR: params.replication_factor ?? 1,
    QDRANT_WRITE_CONSISTENCY_FACTOR: params.write_consistency_factor ?? 1,
    QDRANT_ON_DISK_PAYLOAD: params.on_disk_payload ?? true,
    QDRANT_QUANTIZATION:
      info.config.quantization_config && "scalar" in info.config.quantization_config ? "int8" : "none",
  };
  const configured = {
    QDRANT_SHARD_NUMBER: settings.shardNumber,
    QDRANT_REPLICATION_FACTOR: settings.replicationFactor,
    QDRANT_WRITE_CONSISTENCY_FACTOR: settings.writeConsistencyFactor,
    QDRANT_ON_DISK_PAYLOAD: settings.onDiskPayload,
    QDRANT_QUANTIZATION: settings.quantization,
  };
  return (Object.keys(found) as Array<keyof typeof found>)
    .filter((setting) => found[setting] !== configured[setting])
    .map((setting) => ({ setting, configured: configured[setting], found: found[setting] }));
}
