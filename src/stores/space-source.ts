/**
 * The chunk vectors the in-memory space index (in-memory-space-index.ts) is given: by its writes, and
 * by the database it loads a space from.
 */
import type { SpaceId } from "../domain/types.js";

/** Term ids and weights, as plain arrays (from callers) or typed arrays (read from the database). */
export type SparseLike = { indices: ArrayLike<number>; values: ArrayLike<number> };

export type StoredChunkVectors = {
  chunkId: string;
  documentId: string;
  spaceId: SpaceId;
  dense?: number[] | Float32Array;
  /** Set when the rows were read without their dense vectors: whether the chunk has one. */
  hasDense?: boolean;
  sparse?: SparseLike;
};

/** Where a space's vectors come from when it is loaded (the database), read in pages. */
export type SpaceSource = {
  /** Every chunk of the space; without `withDense` the rows carry `hasDense` instead of the vector. */
  rows(spaceId: SpaceId, options: { withDense: boolean }): AsyncIterable<StoredChunkVectors[]>;
  /** The dense vectors of these chunks (those that have one). */
  dense(chunkIds: string[]): AsyncIterable<Array<{ chunkId: string; dense: Float32Array }>>;
  /**
   * The space's version: changes whenever any of its rows is written. A saved space whose version is
   * still the database's is loaded whole from its snapshot; without this, snapshots are always reconciled.
   */
  version?(spaceId: SpaceId): Promise<string>;
};
