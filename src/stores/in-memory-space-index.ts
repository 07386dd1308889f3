/**
 * The embedded store's search structures, in memory, per space: BM25 postings (term → chunk slots and
 * weights, compact typed arrays: posting-lists.ts) and the dense vectors, searched one of two ways:
 * - exact: rows of one Float32Array scanned in full — a few milliseconds at SciFact's 5K chunks,
 *   ~65 ms at 100K; recall 1 by construction, nothing to build, nothing saved;
 * - approximate: an HNSW index (approximate-dense-index.ts, usearch) that holds the vectors itself
 *   (f16 by default) — ~1 ms a query at 1M — built incrementally as chunks arrive and saved per space
 *   (dense-index-snapshots.ts) so a restart loads it instead of rebuilding it.
 * Which way a space is held: dense-search-settings.ts.
 *
 * Only for embedded PGlite, which is one process by construction: a PostgreSQL deployment may run
 * several replicas, and an in-memory copy there could go stale, so it queries pgvector (HNSW).
 * A space is loaded from the database on its first query (space-loading.ts) and kept in step by the
 * index's own writes, which always reach the database first and run here one at a time, in order.
 * This class ties the parts together: a space's slots (space-state.ts), the queries (space-search.ts)
 * and the snapshot saves (space-snapshot-saver.ts).
 */
import type { SpaceId, SparseVector } from "../domain/types.js";
import type { DenseIndexSnapshots } from "./dense-index-snapshots.js";
import { DEFAULT_DENSE_SEARCH_SETTINGS, type DenseSearchSettings, wantsApproximate } from "./dense-search-settings.js";
import { loadSpace, switchToApproximate } from "./space-loading.js";
import { queryDense, querySparse } from "./space-search.js";
import { SpaceSnapshotSaver } from "./space-snapshot-saver.js";
import type { SpaceSource, StoredChunkVectors } from "./space-source.js";
import {
  addChunk,
  compactIfNeeded,
  removeChunk,
  removeDocument,
  replaceSparse,
  type SpaceState,
  setDense,
} from "./space-state.js";
import type { ScoredChunkId, VectorQuery } from "./vector-index.js";

export {
  DEFAULT_DENSE_SEARCH_SETTINGS,
  DENSE_INDEX_MODES,
  type DenseIndexMode,
  type DenseSearchSettings,
} from "./dense-search-settings.js";
export type { SpaceSource, StoredChunkVectors } from "./space-source.js";

export class InMemorySpaceIndex {
  private readonly spaces = new Map<SpaceId, Promise<SpaceState>>();
  private readonly loaded = new Map<SpaceId, SpaceState>();
  private readonly settings: DenseSearchSettings;
  private readonly snapshots: DenseIndexSnapshots | null;
  private readonly snapshotSaver: SpaceSnapshotSaver;
  /** Writes (and snapshot saves) run one at a time, in order. */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dimensions: number,
    private readonly source: SpaceSource,
    options: { settings?: Partial<DenseSearchSettings>; snapshots?: DenseIndexSnapshots | null } = {},
  ) {
    this.settings = { ...DEFAULT_DENSE_SEARCH_SETTINGS, ...options.settings };
    this.snapshots = options.snapshots ?? null;
    this.snapshotSaver = new SpaceSnapshotSaver(this.snapshots, source, {
      delayMs: this.settings.snapshotDelayMs,
      spaces: () => this.loaded.values(),
      inTurn: (work) => this.exclusive(work),
    });
  }

  /**
   * Runs a write that goes to the database and is then mirrored here (`work` does both). While one
   * runs, the database may hold rows this copy does not yet, so no snapshot is saved until it ends.
   */
  writing<T>(work: () => Promise<T>): Promise<T> {
    return this.snapshotSaver.writing(work);
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writes.then(work);
    this.writes = run.catch(() => undefined);
    return run;
  }

  private space(spaceId: SpaceId): Promise<SpaceState> {
    let space = this.spaces.get(spaceId);
    if (!space) {
      space = this.load(spaceId).then((state) => {
        this.loaded.set(spaceId, state);
        return state;
      });
      this.spaces.set(spaceId, space);
      space.catch(() => this.spaces.delete(spaceId));
    }
    return space;
  }

  private async load(spaceId: SpaceId): Promise<SpaceState> {
    const { dimensions, settings, source, snapshots } = this;
    const state = await loadSpace(spaceId, { dimensions, settings, source, snapshots });
    if (state.unsavedChanges > 0) await this.snapshotSaver.save(state);
    return state;
  }

  private async loadedSpaces(): Promise<Map<SpaceId, SpaceState>> {
    await Promise.allSettled([...this.spaces.values()]);
    return this.loaded;
  }

  /** After a write: exact spaces that grew past the threshold switch; a snapshot save is scheduled. */
  private async afterWrite(spaces: Iterable<SpaceState>): Promise<void> {
    for (const space of spaces) {
      if (space.dense && wantsApproximate(this.settings, space.denseCount)) {
        await switchToApproximate(space, this.settings.approximate);
      }
    }
    this.snapshotSaver.schedule();
  }

  /**
   * Before the database replaces dense vectors under existing chunk ids: a snapshot cannot tell an old
   * vector from a new one under the same id, so the snapshots of the spaces holding them are dropped
   * (and saved afresh later). `chunkIds` null: every space (re-embedding with another model).
   */
  async replacingDense(chunkIds: string[] | null): Promise<void> {
    if (!this.snapshots) return;
    const snapshots = this.snapshots;
    await this.exclusive(async () => {
      const spaces = await this.loadedSpaces();
      if (chunkIds === null) await snapshots.invalidateAll();
      for (const space of spaces.values()) {
        if (chunkIds !== null && !chunkIds.some((chunkId) => space.hasDense[space.slotByChunk.get(chunkId) ?? -1])) {
          continue;
        }
        await snapshots.invalidate(space.spaceId);
        space.unsavedChanges += 1;
      }
    });
  }

  /** After the database has stored these chunks' vectors: mirrors them in the spaces already in memory. */
  stored(chunks: StoredChunkVectors[]): Promise<void> {
    return this.exclusive(async () => {
      const spaces = await this.loadedSpaces();
      const touched = new Set<SpaceState>();
      for (const chunk of chunks) {
        // A chunk moved to another space leaves its old one.
        for (const [spaceId, space] of spaces) if (spaceId !== chunk.spaceId) removeChunk(space, chunk.chunkId);
        const space = spaces.get(chunk.spaceId);
        if (space) {
          addChunk(space, chunk);
          touched.add(space);
        }
      }
      await this.afterWrite(touched);
    });
  }

  /** After the database replaced these chunks' sparse vectors (their space, document and dense unchanged). */
  replacedSparse(chunks: Array<{ chunkId: string; sparse: SparseVector }>): Promise<void> {
    return this.exclusive(async () => {
      for (const space of (await this.loadedSpaces()).values()) {
        for (const chunk of chunks) replaceSparse(space, chunk);
        compactIfNeeded(space);
      }
    });
  }

  /** After the database replaced these chunks' dense vectors. */
  replacedDense(chunks: Array<{ chunkId: string; dense: number[] }>): Promise<void> {
    return this.exclusive(async () => {
      const spaces = await this.loadedSpaces();
      for (const space of spaces.values()) {
        for (const chunk of chunks) {
          const slot = space.slotByChunk.get(chunk.chunkId);
          if (slot !== undefined) setDense(space, slot, chunk.dense);
        }
      }
      await this.afterWrite(spaces.values());
    });
  }

  /** After the database deleted a document's vectors. */
  removedDocument(documentId: string): Promise<void> {
    return this.exclusive(async () => {
      const spaces = await this.loadedSpaces();
      for (const space of spaces.values()) {
        removeDocument(space, documentId);
        compactIfNeeded(space);
      }
      this.snapshotSaver.schedule();
    });
  }

  /** Saves what has changed since the last snapshots; later calls find nothing to do. */
  close(): Promise<void> {
    this.snapshotSaver.cancelScheduled();
    return this.exclusive(async () => {
      await this.loadedSpaces();
      await this.snapshotSaver.saveChanged();
    });
  }

  /** How a space is held: for the benchmark and the logs. Loads the space. */
  async describe(
    spaceId: SpaceId,
  ): Promise<{ chunks: number; denseChunks: number; approximate: boolean; postings: number }> {
    const space = await this.space(spaceId);
    return {
      chunks: space.slotByChunk.size,
      denseChunks: space.denseCount,
      approximate: space.approximate !== null,
      postings: space.postings.postingCount,
    };
  }

  /** Inner products of `vector` with every chunk of the spaces that shares a term; the top `limit`. */
  querySparse(vector: SparseVector, query: VectorQuery): Promise<ScoredChunkId[]> {
    return querySparse(vector, query, (spaceId) => this.space(spaceId));
  }

  /** Cosine (inner product of unit vectors) with the embedded chunks of the spaces; the top `limit`. */
  queryDense(vector: number[], query: VectorQuery): Promise<ScoredChunkId[]> {
    return queryDense(vector, query, (spaceId) => this.space(spaceId), this.source);
  }
}
