/**
 * The embedded store's search structures, in memory, per space: BM25 postings (term → chunk slots and
 * weights, compact typed arrays: posting-lists.ts) and the dense vectors, searched one of two ways:
 * - exact: rows of one Float32Array scanned in full — a few milliseconds at SciFact's 5K chunks,
 *   ~65 ms at 100K; recall 1 by construction, nothing to build, nothing saved;
 * - approximate: an HNSW index (approximate-dense-index.ts, usearch) that holds the vectors itself
 *   (f16 by default) — ~1 ms a query at 1M — built incrementally as chunks arrive and saved per space
 *   (dense-index-snapshots.ts) so a restart loads it instead of rebuilding it.
 * A space is exact until it holds more embedded chunks than `exactMaxChunks` (setting
 * FOLIO_DENSE_EXACT_MAX_CHUNKS), then switches for good; FOLIO_DENSE_INDEX=approximate or exact forces
 * one way. Each space has its own index, so the space filter is inside the search; a query restricted
 * to some documents is answered exactly from those documents' vectors (read from the database when the
 * space is approximate), as a document's few hundred chunks are cheaper to scan than to filter for.
 *
 * Only for embedded PGlite, which is one process by construction: a PostgreSQL deployment may run
 * several replicas, and an in-memory copy there could go stale, so it queries pgvector (HNSW).
 * A space is loaded from the database on its first query and kept in step by the index's own writes,
 * which always reach the database first. Replaced and deleted chunks leave dead slots that are skipped,
 * and compacted away once they are half of a space. Values are float32, as pgvector stores them.
 */
import type { SpaceId, SparseVector } from "../domain/types.js";
import {
  ApproximateDenseIndex,
  type ApproximateIndexSettings,
  DEFAULT_APPROXIMATE_INDEX_SETTINGS,
} from "./approximate-dense-index.js";
import type { DenseIndexSnapshots } from "./dense-index-snapshots.js";
import { PostingLists } from "./posting-lists.js";
import type { SpaceRows } from "./space-snapshot-file.js";
import type { ScoredChunkId, VectorQuery } from "./vector-index.js";

export const DENSE_INDEX_MODES = ["auto", "approximate", "exact"] as const;
export type DenseIndexMode = (typeof DENSE_INDEX_MODES)[number];

export type DenseSearchSettings = {
  /** auto: exact up to `exactMaxChunks` embedded chunks a space, approximate past it. */
  mode: DenseIndexMode;
  exactMaxChunks: number;
  approximate: ApproximateIndexSettings;
  /** A space's snapshot is saved once its writes have paused this long (and when the store closes). */
  snapshotDelayMs: number;
};

export const DEFAULT_DENSE_SEARCH_SETTINGS: DenseSearchSettings = {
  mode: "auto",
  exactMaxChunks: 20_000,
  approximate: DEFAULT_APPROXIMATE_INDEX_SETTINGS,
  snapshotDelayMs: 10_000,
};

/** Term ids and weights, as plain arrays (from callers) or typed arrays (read from the database). */
type SparseLike = { indices: ArrayLike<number>; values: ArrayLike<number> };

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

/** The approximate side of a space: the HNSW index, keyed by numbers that stay with a chunk when its slot moves. */
type ApproximateSpace = {
  index: ApproximateDenseIndex;
  /** Key of each slot's vector in the index; -1 for none. */
  keyOfSlot: number[];
  /** Slot of each key; -1 for a key no longer used. */
  slotOfKey: number[];
};

type SpaceState = {
  spaceId: SpaceId;
  chunkIds: string[];
  documentIds: string[];
  alive: boolean[];
  hasDense: boolean[];
  /** Exact: row `slot` holds the slot's dense vector (zeros without one). Null once approximate. */
  dense: Float32Array | null;
  approximate: ApproximateSpace | null;
  /** Living chunks with a dense vector. */
  denseCount: number;
  deadCount: number;
  slotByChunk: Map<string, number>;
  slotsByDocument: Map<string, Set<number>>;
  postings: PostingLists;
  /** Changes to an approximate space (its index, slots or postings) since its snapshot was saved. */
  unsavedChanges: number;
};

const COMPACT_MIN_DEAD = 1000;
/** Vectors added to an index between yields to the event loop while a space switches to approximate. */
const BUILD_SLICE = 1000;

/** Higher score first, then chunk id ascending — the SQL path's order. */
function ranksBefore(left: ScoredChunkId, right: ScoredChunkId): boolean {
  return left.score > right.score || (left.score === right.score && left.chunkId < right.chunkId);
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class InMemorySpaceIndex {
  private readonly spaces = new Map<SpaceId, Promise<SpaceState>>();
  private readonly loaded = new Map<SpaceId, SpaceState>();
  private readonly settings: DenseSearchSettings;
  private readonly snapshots: DenseIndexSnapshots | null;
  /** Writes (and snapshot saves) run one at a time, in order. */
  private writes: Promise<unknown> = Promise.resolve();
  private saveTimer: NodeJS.Timeout | null = null;
  /** Writes between their database statement and their mirror here: no snapshot is saved meanwhile. */
  private writesInFlight = 0;
  private writesBegun = 0;

  constructor(
    private readonly dimensions: number,
    private readonly source: SpaceSource,
    options: { settings?: Partial<DenseSearchSettings>; snapshots?: DenseIndexSnapshots | null } = {},
  ) {
    this.settings = { ...DEFAULT_DENSE_SEARCH_SETTINGS, ...options.settings };
    this.snapshots = options.snapshots ?? null;
  }

  /**
   * Runs a write that goes to the database and is then mirrored here (`work` does both). While one
   * runs, the database may hold rows this copy does not yet, so no snapshot is saved until it ends.
   */
  async writing<T>(work: () => Promise<T>): Promise<T> {
    this.writesInFlight += 1;
    this.writesBegun += 1;
    try {
      return await work();
    } finally {
      this.writesInFlight -= 1;
    }
  }

  /** The space's version in the database, when no write is between database and memory; else undefined. */
  private async quietVersion(spaceId: SpaceId): Promise<string | null | undefined> {
    if (this.writesInFlight > 0) return undefined;
    const begun = this.writesBegun;
    const version = this.source.version ? await this.source.version(spaceId) : null;
    return this.writesInFlight > 0 || this.writesBegun !== begun ? undefined : version;
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writes.then(work);
    this.writes = run.catch(() => undefined);
    return run;
  }

  private wantsApproximate(denseCount: number): boolean {
    if (this.settings.mode === "approximate") return true;
    if (this.settings.mode === "exact") return false;
    return denseCount > this.settings.exactMaxChunks;
  }

  private emptySpace(spaceId: SpaceId): SpaceState {
    return {
      spaceId,
      chunkIds: [],
      documentIds: [],
      alive: [],
      hasDense: [],
      dense: new Float32Array(1024 * this.dimensions),
      approximate: null,
      denseCount: 0,
      deadCount: 0,
      slotByChunk: new Map(),
      slotsByDocument: new Map(),
      postings: new PostingLists(),
      unsavedChanges: 0,
    };
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
    const snapshot = this.snapshots && this.settings.mode !== "exact" ? await this.snapshots.read(spaceId) : null;
    const state = this.emptySpace(spaceId);
    const current =
      snapshot?.version && this.source.version && snapshot.version === (await this.source.version(spaceId))
        ? await snapshot.rows()
        : null;
    if (snapshot && current && this.restore(state, snapshot.index, snapshot.chunkIdByKey, current)) {
      // The database has not changed the space since the snapshot: nothing to read from it.
    } else if (snapshot) {
      await this.loadOntoSnapshot(state, snapshot.index, snapshot.chunkIdByKey);
      state.unsavedChanges += 1; // the slots and postings were rebuilt: save them with the index
    } else {
      if (this.wantsApproximate(0)) await this.switchToApproximate(state);
      for await (const batch of this.source.rows(spaceId, { withDense: true })) {
        for (const vectors of batch) this.add(state, vectors);
        if (state.dense && this.wantsApproximate(state.denseCount)) await this.switchToApproximate(state);
      }
    }
    state.postings.trim();
    if (state.approximate && state.unsavedChanges > 0) await this.saveSnapshot(state);
    return state;
  }

  /**
   * Takes a saved space as it is (its index, slots and postings), after checking that the slots and the
   * index's keys name the same chunks; false (nothing taken) when they do not.
   */
  private restore(state: SpaceState, index: ApproximateDenseIndex, chunkIdByKey: string[], rows: SpaceRows): boolean {
    const slotCount = rows.chunkIds.length;
    if (rows.documentIds.length !== slotCount || rows.alive.length !== slotCount) return false;
    if (rows.keyOfSlot.length !== slotCount) return false;
    const slotOfKey = new Array<number>(chunkIdByKey.length).fill(-1);
    const slotByChunk = new Map<string, number>();
    const slotsByDocument = new Map<string, Set<number>>();
    let denseCount = 0;
    let deadCount = 0;
    for (let slot = 0; slot < slotCount; slot += 1) {
      const key = rows.keyOfSlot[slot] as number;
      const chunkId = rows.chunkIds[slot] as string;
      if (!rows.alive[slot]) {
        if (key >= 0) return false;
        deadCount += 1;
        continue;
      }
      if (slotByChunk.has(chunkId)) return false;
      slotByChunk.set(chunkId, slot);
      const documentId = rows.documentIds[slot] as string;
      let documentSlots = slotsByDocument.get(documentId);
      if (!documentSlots) {
        documentSlots = new Set();
        slotsByDocument.set(documentId, documentSlots);
      }
      documentSlots.add(slot);
      if (key < 0) continue;
      if (key >= chunkIdByKey.length || chunkIdByKey[key] !== chunkId || slotOfKey[key] !== -1) return false;
      slotOfKey[key] = slot;
      denseCount += 1;
    }
    // Every key the index still uses belongs to a slot.
    for (let key = 0; key < chunkIdByKey.length; key += 1) {
      if (chunkIdByKey[key] !== "" && slotOfKey[key] === -1) return false;
    }
    Object.assign(state, {
      chunkIds: rows.chunkIds,
      documentIds: rows.documentIds,
      alive: rows.alive,
      hasDense: rows.keyOfSlot.map((key) => key >= 0),
      dense: null,
      approximate: { index, keyOfSlot: rows.keyOfSlot, slotOfKey },
      denseCount,
      deadCount,
      slotByChunk,
      slotsByDocument,
      postings: rows.postings,
      unsavedChanges: 0,
    } satisfies Partial<SpaceState>);
    return true;
  }

  /**
   * Loads a space whose approximate index was saved: the rows are read without their dense vectors,
   * and the snapshot is brought up to the database — chunks stored since it was saved are added to it
   * (their vectors read by id), chunks deleted since are removed from it.
   */
  private async loadOntoSnapshot(
    state: SpaceState,
    index: ApproximateDenseIndex,
    chunkIdByKey: string[],
  ): Promise<void> {
    const keyByChunk = new Map<string, number>();
    chunkIdByKey.forEach((chunkId, key) => {
      if (chunkId !== "") keyByChunk.set(chunkId, key);
    });
    const approximate: ApproximateSpace = {
      index,
      keyOfSlot: [],
      slotOfKey: new Array<number>(chunkIdByKey.length).fill(-1),
    };
    state.approximate = approximate;
    state.dense = null;
    const missing: string[] = [];
    for await (const batch of this.source.rows(state.spaceId, { withDense: false })) {
      for (const vectors of batch) {
        const key = vectors.hasDense ? keyByChunk.get(vectors.chunkId) : undefined;
        if (key !== undefined) keyByChunk.delete(vectors.chunkId);
        this.add(state, { ...vectors, dense: undefined }, key);
        if (vectors.hasDense && key === undefined) missing.push(vectors.chunkId);
      }
    }
    for (const key of keyByChunk.values()) {
      index.remove(key);
      state.unsavedChanges += 1;
    }
    for await (const batch of this.source.dense(missing)) {
      for (const { chunkId, dense } of batch) {
        const slot = state.slotByChunk.get(chunkId);
        if (slot !== undefined) this.setDense(state, slot, dense);
      }
      await yieldToEventLoop();
    }
  }

  /** Moves a space's dense vectors from its exact rows into a new approximate index, in slices. */
  private async switchToApproximate(space: SpaceState): Promise<void> {
    const index = await ApproximateDenseIndex.create(this.dimensions, this.settings.approximate);
    const approximate: ApproximateSpace = { index, keyOfSlot: [], slotOfKey: [] };
    const rows = space.dense;
    const slots = space.hasDense.flatMap((has, slot) => (has && space.alive[slot] ? [slot] : []));
    for (let start = 0; start < slots.length; start += BUILD_SLICE) {
      const slice = slots.slice(start, start + BUILD_SLICE);
      const vectors = new Float32Array(slice.length * this.dimensions);
      const keys = slice.map((slot, position) => {
        if (rows) {
          vectors.set(rows.subarray(slot * this.dimensions, (slot + 1) * this.dimensions), position * this.dimensions);
        }
        const key = approximate.slotOfKey.length;
        approximate.slotOfKey.push(slot);
        approximate.keyOfSlot[slot] = key;
        return key;
      });
      index.add(keys, vectors);
      if (slots.length > BUILD_SLICE) await yieldToEventLoop();
    }
    for (let slot = 0; slot < space.chunkIds.length; slot += 1) approximate.keyOfSlot[slot] ??= -1;
    space.approximate = approximate;
    space.dense = null;
    space.unsavedChanges += slots.length + 1;
  }

  /** Stores the slot's dense vector (or clears it) in whichever form the space holds vectors. */
  private setDense(space: SpaceState, slot: number, dense: ArrayLike<number> | undefined): void {
    const valid = dense !== undefined && dense.length === this.dimensions;
    if (space.hasDense[slot] && space.alive[slot]) space.denseCount -= 1;
    if (space.approximate) {
      const { index, keyOfSlot, slotOfKey } = space.approximate;
      const oldKey = keyOfSlot[slot] ?? -1;
      if (oldKey >= 0) {
        index.remove(oldKey);
        slotOfKey[oldKey] = -1;
        space.unsavedChanges += 1;
      }
      keyOfSlot[slot] = -1;
      if (valid) {
        const key = slotOfKey.length;
        slotOfKey.push(slot);
        keyOfSlot[slot] = key;
        index.add([key], dense instanceof Float32Array ? dense : Float32Array.from(dense));
        space.unsavedChanges += 1;
      }
    } else if (space.dense) {
      const needed = (slot + 1) * this.dimensions;
      if (needed > space.dense.length) {
        const grown = new Float32Array(Math.max(needed, space.dense.length * 2));
        grown.set(space.dense);
        space.dense = grown;
      }
      if (valid) space.dense.set(dense, slot * this.dimensions);
      else space.dense.fill(0, slot * this.dimensions, needed);
    }
    space.hasDense[slot] = valid;
    if (valid && space.alive[slot]) space.denseCount += 1;
  }

  /**
   * Appends the chunk in a new slot (replacing any earlier one). `carriedKey`: the chunk's vector is
   * already in the approximate index under this key (a slot moved, or a snapshot loaded).
   */
  private add(space: SpaceState, vectors: StoredChunkVectors, carriedKey?: number): void {
    this.remove(space, vectors.chunkId);
    const slot = space.chunkIds.length;
    space.chunkIds.push(vectors.chunkId);
    space.documentIds.push(vectors.documentId);
    space.alive.push(true);
    space.hasDense.push(false);
    if (carriedKey !== undefined && space.approximate) {
      space.approximate.keyOfSlot[slot] = carriedKey;
      space.approximate.slotOfKey[carriedKey] = slot;
      space.hasDense[slot] = true;
      space.denseCount += 1;
    } else {
      if (space.approximate) space.approximate.keyOfSlot[slot] = -1;
      this.setDense(space, slot, vectors.dense);
    }
    space.slotByChunk.set(vectors.chunkId, slot);
    let documentSlots = space.slotsByDocument.get(vectors.documentId);
    if (!documentSlots) {
      documentSlots = new Set();
      space.slotsByDocument.set(vectors.documentId, documentSlots);
    }
    documentSlots.add(slot);
    if (vectors.sparse) this.addPostings(space, slot, vectors.sparse);
    if (space.approximate) space.unsavedChanges += 1;
  }

  private addPostings(space: SpaceState, slot: number, sparse: SparseLike): void {
    const { indices, values } = sparse;
    let ascending = true;
    for (let position = 1; position < indices.length && ascending; position += 1) {
      ascending = (indices[position] as number) > (indices[position - 1] as number);
    }
    if (ascending) {
      // The database's form: each term once, in order.
      for (let position = 0; position < indices.length; position += 1) {
        const weight = values[position] ?? 0;
        if (weight !== 0) space.postings.add(indices[position] as number, slot, weight);
      }
      return;
    }
    const weights = new Map<number, number>();
    for (let position = 0; position < indices.length; position += 1) {
      const termId = indices[position] as number;
      weights.set(termId, (weights.get(termId) ?? 0) + (values[position] ?? 0));
    }
    for (const [termId, weight] of weights) if (weight !== 0) space.postings.add(termId, slot, weight);
  }

  private remove(space: SpaceState, chunkId: string): void {
    const slot = space.slotByChunk.get(chunkId);
    if (slot === undefined) return;
    this.setDense(space, slot, undefined);
    space.alive[slot] = false;
    space.deadCount += 1;
    space.slotByChunk.delete(chunkId);
    space.slotsByDocument.get(space.documentIds[slot] ?? "")?.delete(slot);
    if (space.approximate) space.unsavedChanges += 1;
  }

  /** The dense vector stored in `slot` of an exact space, copied (a replacement slot is filled from it). */
  private denseOf(space: SpaceState, slot: number): Float32Array | undefined {
    if (!space.hasDense[slot] || !space.dense) return undefined;
    return space.dense.slice(slot * this.dimensions, (slot + 1) * this.dimensions);
  }

  /** Renumbers the living slots and drops dead postings, once dead slots are half the space. */
  private compactIfNeeded(space: SpaceState): void {
    if (space.deadCount < COMPACT_MIN_DEAD || space.deadCount * 2 < space.chunkIds.length) return;
    const newSlot = new Int32Array(space.chunkIds.length).fill(-1);
    const living = space.alive.flatMap((isAlive, slot) => (isAlive ? [slot] : []));
    living.forEach((slot, position) => {
      newSlot[slot] = position;
    });
    const rows = space.dense;
    if (rows) {
      const dense = new Float32Array(Math.max(1024, living.length) * this.dimensions);
      living.forEach((slot, position) => {
        dense.set(rows.subarray(slot * this.dimensions, (slot + 1) * this.dimensions), position * this.dimensions);
      });
      space.dense = dense;
    }
    if (space.approximate) {
      const { keyOfSlot, slotOfKey } = space.approximate;
      const keys = living.map((slot) => keyOfSlot[slot] ?? -1);
      keys.forEach((key, position) => {
        if (key >= 0) slotOfKey[key] = position;
      });
      space.approximate.keyOfSlot = keys;
    }
    space.postings.renumber((slot) => newSlot[slot] ?? -1);
    space.chunkIds = living.map((slot) => space.chunkIds[slot] ?? "");
    space.documentIds = living.map((slot) => space.documentIds[slot] ?? "");
    space.hasDense = living.map((slot) => space.hasDense[slot] ?? false);
    space.alive = living.map(() => true);
    space.deadCount = 0;
    space.slotByChunk = new Map(space.chunkIds.map((chunkId, slot) => [chunkId, slot]));
    space.slotsByDocument = new Map();
    space.documentIds.forEach((documentId, slot) => {
      let slots = space.slotsByDocument.get(documentId);
      if (!slots) {
        slots = new Set();
        space.slotsByDocument.set(documentId, slots);
      }
      slots.add(slot);
    });
  }

  private async loadedSpaces(): Promise<Map<SpaceId, SpaceState>> {
    await Promise.allSettled([...this.spaces.values()]);
    return this.loaded;
  }

  /** After a write: exact spaces that grew past the threshold switch; a snapshot save is scheduled. */
  private async afterWrite(spaces: Iterable<SpaceState>): Promise<void> {
    for (const space of spaces) {
      if (space.dense && this.wantsApproximate(space.denseCount)) await this.switchToApproximate(space);
    }
    this.scheduleSnapshots();
  }

  private scheduleSnapshots(): void {
    if (!this.snapshots) return;
    if (![...this.loaded.values()].some((space) => space.approximate && space.unsavedChanges > 0)) return;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.exclusive(() => this.saveChangedSnapshots()).catch(() => undefined);
    }, this.settings.snapshotDelayMs);
    this.saveTimer.unref();
  }

  private async saveChangedSnapshots(): Promise<void> {
    for (const space of this.loaded.values()) {
      if (space.approximate && space.unsavedChanges > 0) await this.saveSnapshot(space);
    }
  }

  /**
   * Saves the space with the database version it matches; while a write is between the database and
   * this copy there is no such version, and the save is left to the next pause.
   */
  private async saveSnapshot(space: SpaceState): Promise<void> {
    if (!this.snapshots || !space.approximate) return;
    const version = await this.quietVersion(space.spaceId);
    if (version === undefined) {
      this.scheduleSnapshots();
      return;
    }
    const { slotOfKey, keyOfSlot, index } = space.approximate;
    const chunkIdByKey = slotOfKey.map((slot) => (slot >= 0 ? (space.chunkIds[slot] ?? "") : ""));
    const rows: SpaceRows = {
      chunkIds: space.chunkIds,
      documentIds: space.documentIds,
      alive: space.alive,
      keyOfSlot: space.chunkIds.map((_, slot) => keyOfSlot[slot] ?? -1),
      postings: space.postings,
    };
    await this.snapshots.save(space.spaceId, { index, chunkIdByKey, rows, version });
    space.unsavedChanges = 0;
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
        if (space.approximate) space.unsavedChanges += 1;
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
        for (const [spaceId, space] of spaces) if (spaceId !== chunk.spaceId) this.remove(space, chunk.chunkId);
        const space = spaces.get(chunk.spaceId);
        if (space) {
          this.add(space, chunk);
          touched.add(space);
        }
      }
      await this.afterWrite(touched);
    });
  }

  /** After the database replaced these chunks' sparse vectors (their space, document and dense unchanged). */
  replacedSparse(chunks: Array<{ chunkId: string; sparse: SparseVector }>): Promise<void> {
    return this.exclusive(async () => {
      for (const [spaceId, space] of await this.loadedSpaces()) {
        for (const chunk of chunks) {
          const slot = space.slotByChunk.get(chunk.chunkId);
          if (slot === undefined) continue;
          const documentId = space.documentIds[slot] ?? "";
          const replacement = { chunkId: chunk.chunkId, documentId, spaceId, sparse: chunk.sparse };
          if (space.approximate) {
            // The vector stays in the index under its key; only the slot moves.
            const key = space.approximate.keyOfSlot[slot] ?? -1;
            space.approximate.keyOfSlot[slot] = -1;
            if (key >= 0) {
              space.hasDense[slot] = false;
              space.denseCount -= 1;
            }
            this.add(space, replacement, key >= 0 ? key : undefined);
          } else {
            this.add(space, { ...replacement, dense: this.denseOf(space, slot) });
          }
        }
        this.compactIfNeeded(space);
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
          if (slot !== undefined) this.setDense(space, slot, chunk.dense);
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
        for (const slot of [...(space.slotsByDocument.get(documentId) ?? [])])
          this.remove(space, space.chunkIds[slot] ?? "");
        space.slotsByDocument.delete(documentId);
        this.compactIfNeeded(space);
      }
      this.scheduleSnapshots();
    });
  }

  /** Saves what has changed since the last snapshots; later calls find nothing to do. */
  close(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    return this.exclusive(async () => {
      await this.loadedSpaces();
      await this.saveChangedSnapshots();
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
  async querySparse(vector: SparseVector, query: VectorQuery): Promise<ScoredChunkId[]> {
    if (query.spaceIds.length === 0 || query.limit <= 0 || vector.indices.length === 0) return [];
    const top: ScoredChunkId[] = [];
    const allowedDocuments = query.documentIds ? new Set(query.documentIds) : null;
    for (const spaceId of new Set(query.spaceIds)) {
      const space = await this.space(spaceId);
      const scores = new Float64Array(space.chunkIds.length);
      vector.indices.forEach((termId, position) => {
        const queryWeight = vector.values[position] ?? 0;
        if (queryWeight !== 0) space.postings.accumulate(termId, queryWeight, scores);
      });
      for (let slot = 0; slot < scores.length; slot += 1) {
        const score = scores[slot] as number;
        if (score <= 0 || !space.alive[slot]) continue;
        if (allowedDocuments && !allowedDocuments.has(space.documentIds[slot] ?? "")) continue;
        keepTop(
          top,
          { chunkId: space.chunkIds[slot] ?? "", documentId: space.documentIds[slot] ?? "", spaceId, score },
          query.limit,
        );
      }
    }
    return sortHits(top);
  }

  /** Cosine (inner product of unit vectors) with the embedded chunks of the spaces; the top `limit`. */
  async queryDense(vector: number[], query: VectorQuery): Promise<ScoredChunkId[]> {
    if (query.spaceIds.length === 0 || query.limit <= 0) return [];
    const probe = Float32Array.from(vector);
    const top: ScoredChunkId[] = [];
    for (const spaceId of new Set(query.spaceIds)) {
      const space = await this.space(spaceId);
      if (query.documentIds) await this.scanDocuments(space, probe, query.documentIds, query.limit, top);
      else if (space.approximate) this.searchApproximate(space, probe, query.limit, top);
      else this.scanAll(space, probe, query.limit, top);
    }
    return sortHits(top);
  }

  private hit(space: SpaceState, slot: number, score: number): ScoredChunkId {
    return {
      chunkId: space.chunkIds[slot] ?? "",
      documentId: space.documentIds[slot] ?? "",
      spaceId: space.spaceId,
      score,
    };
  }

  private scanAll(space: SpaceState, probe: Float32Array, limit: number, top: ScoredChunkId[]): void {
    const rows = space.dense;
    if (!rows) return;
    for (let slot = 0; slot < space.chunkIds.length; slot += 1) {
      if (!space.alive[slot] || !space.hasDense[slot]) continue;
      keepTop(top, this.hit(space, slot, dot(rows, slot * this.dimensions, probe)), limit);
    }
  }

  private searchApproximate(space: SpaceState, probe: Float32Array, limit: number, top: ScoredChunkId[]): void {
    const approximate = space.approximate;
    if (!approximate) return;
    const { keys, scores } = approximate.index.search(probe, limit);
    keys.forEach((key, position) => {
      const slot = approximate.slotOfKey[key] ?? -1;
      if (slot < 0 || !space.alive[slot]) return;
      keepTop(top, this.hit(space, slot, scores[position] as number), limit);
    });
  }

  /** Exact scores over the chunks of some documents: from the rows, or read by id when approximate. */
  private async scanDocuments(
    space: SpaceState,
    probe: Float32Array,
    documentIds: string[],
    limit: number,
    top: ScoredChunkId[],
  ): Promise<void> {
    const slots = [...new Set(documentIds)].flatMap((documentId) => [...(space.slotsByDocument.get(documentId) ?? [])]);
    const rows = space.dense;
    if (rows) {
      for (const slot of slots) {
        if (space.alive[slot] && space.hasDense[slot])
          keepTop(top, this.hit(space, slot, dot(rows, slot * this.dimensions, probe)), limit);
      }
      return;
    }
    const chunkIds = slots.filter((slot) => space.hasDense[slot]).map((slot) => space.chunkIds[slot] ?? "");
    for await (const batch of this.source.dense(chunkIds)) {
      for (const { chunkId, dense } of batch) {
        // The space may have changed while the vectors were read: only chunks still in it count.
        const slot = space.slotByChunk.get(chunkId);
        if (slot === undefined) continue;
        keepTop(top, this.hit(space, slot, dot(dense, 0, probe)), limit);
      }
    }
  }
}

function dot(rows: Float32Array, offset: number, probe: Float32Array): number {
  let score = 0;
  for (let dimension = 0; dimension < probe.length; dimension += 1) {
    score += (rows[offset + dimension] as number) * (probe[dimension] as number);
  }
  return score;
}

function sortHits(hits: ScoredChunkId[]): ScoredChunkId[] {
  return hits.sort((left, right) => (ranksBefore(left, right) ? -1 : ranksBefore(right, left) ? 1 : 0));
}

/** Keeps the best `limit` hits in `top` (a heap once full), replacing the worst when a better one comes. */
function keepTop(top: ScoredChunkId[], hit: ScoredChunkId, limit: number): void {
  if (top.length < limit) {
    top.push(hit);
    if (top.length === limit) heapify(top);
    return;
  }
  const worst = top[0];
  if (!worst || !ranksBefore(hit, worst)) return;
  top[0] = hit;
  siftDown(top, 0);
}

/** A heap whose root is the worst-ranked hit. */
function heapify(heap: ScoredChunkId[]): void {
  for (let index = Math.floor(heap.length / 2) - 1; index >= 0; index -= 1) siftDown(heap, index);
}

function siftDown(heap: ScoredChunkId[], start: number): void {
  let index = start;
  for (;;) {
    const left = 2 * index + 1;
    const right = left + 1;
    let worst = index;
    if (left < heap.length && ranksBefore(heap[worst] as ScoredChunkId, heap[left] as ScoredChunkId)) worst = left;
    if (right < heap.length && ranksBefore(heap[worst] as ScoredChunkId, heap[right] as ScoredChunkId)) worst = right;
    if (worst === index) return;
    const swap = heap[index] as ScoredChunkId;
    heap[index] = heap[worst] as ScoredChunkId;
    heap[worst] = swap;
    index = worst;
  }
}
