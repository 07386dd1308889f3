/**
 * The embedded store's search structures, in memory, per space: BM25 postings (term → chunk slots and
 * weights) and the dense vectors as rows of one Float32Array. A keyword query touches only the chunks
 * that share a term with it; a dense query is an exact scan of contiguous floats — a few milliseconds
 * at SciFact's 5K chunks, where pgvector in PGlite (WebAssembly) took ~70 ms exact or ~50–90 ms through
 * HNSW, whose inserts also cost ~12 ms each there. Results are exact, so recall is 1 by construction.
 *
 * Only for embedded PGlite, which is one process by construction: a PostgreSQL deployment may run
 * several replicas, and an in-memory copy there could go stale, so it queries pgvector (HNSW).
 * A space is loaded from the database on its first query and kept in step by the index's own writes,
 * which always reach the database first. Replaced and deleted chunks leave dead slots that are skipped,
 * and compacted away once they are half of a space. Values are float32, as pgvector stores them.
 */
import type { SpaceId, SparseVector } from "../domain/types.js";
import type { ScoredChunkId, VectorQuery } from "./vector-index.js";

type PostingList = { slots: number[]; weights: number[] };

type SpaceState = {
  chunkIds: string[];
  documentIds: string[];
  alive: boolean[];
  hasDense: boolean[];
  /** Row `slot` holds the slot's dense vector (zeros without one). */
  dense: Float32Array;
  deadCount: number;
  slotByChunk: Map<string, number>;
  slotsByDocument: Map<string, Set<number>>;
  terms: Map<number, PostingList>;
};

export type StoredChunkVectors = {
  chunkId: string;
  documentId: string;
  spaceId: SpaceId;
  dense?: number[] | Float32Array;
  sparse?: SparseVector;
};

/**
 * Reads every vector of one space from the database, in batches: a large space read in one piece holds
 * all its rows as text at once (500K chunks ran the default 4 GB heap out of memory).
 */
export type LoadSpace = (spaceId: SpaceId) => AsyncIterable<StoredChunkVectors[]>;

const COMPACT_MIN_DEAD = 1000;

/** Higher score first, then chunk id ascending — the SQL path's order. */
function ranksBefore(left: ScoredChunkId, right: ScoredChunkId): boolean {
  return left.score > right.score || (left.score === right.score && left.chunkId < right.chunkId);
}

export class InMemorySpaceIndex {
  private readonly spaces = new Map<SpaceId, Promise<SpaceState>>();
  private readonly loaded = new Map<SpaceId, SpaceState>();

  constructor(
    private readonly dimensions: number,
    private readonly loadSpace: LoadSpace,
  ) {}

  private emptySpace(): SpaceState {
    return {
      chunkIds: [],
      documentIds: [],
      alive: [],
      hasDense: [],
      dense: new Float32Array(1024 * this.dimensions),
      deadCount: 0,
      slotByChunk: new Map(),
      slotsByDocument: new Map(),
      terms: new Map(),
    };
  }

  private space(spaceId: SpaceId): Promise<SpaceState> {
    let space = this.spaces.get(spaceId);
    if (!space) {
      space = (async () => {
        const state = this.emptySpace();
        for await (const batch of this.loadSpace(spaceId)) for (const vectors of batch) this.add(state, vectors);
        this.loaded.set(spaceId, state);
        return state;
      })();
      this.spaces.set(spaceId, space);
      space.catch(() => this.spaces.delete(spaceId));
    }
    return space;
  }

  private setDense(space: SpaceState, slot: number, dense: number[] | Float32Array | undefined): void {
    const needed = (slot + 1) * this.dimensions;
    if (needed > space.dense.length) {
      const grown = new Float32Array(Math.max(needed, space.dense.length * 2));
      grown.set(space.dense);
      space.dense = grown;
    }
    if (dense && dense.length === this.dimensions) {
      space.dense.set(dense, slot * this.dimensions);
      space.hasDense[slot] = true;
    } else {
      space.dense.fill(0, slot * this.dimensions, needed);
      space.hasDense[slot] = false;
    }
  }

  private add(space: SpaceState, vectors: StoredChunkVectors): void {
    this.remove(space, vectors.chunkId);
    const slot = space.chunkIds.length;
    space.chunkIds.push(vectors.chunkId);
    space.documentIds.push(vectors.documentId);
    space.alive.push(true);
    this.setDense(space, slot, vectors.dense);
    space.slotByChunk.set(vectors.chunkId, slot);
    let documentSlots = space.slotsByDocument.get(vectors.documentId);
    if (!documentSlots) {
      documentSlots = new Set();
      space.slotsByDocument.set(vectors.documentId, documentSlots);
    }
    documentSlots.add(slot);
    if (vectors.sparse) this.addPostings(space, slot, vectors.sparse);
  }

  private addPostings(space: SpaceState, slot: number, sparse: SparseVector): void {
    const weights = new Map<number, number>();
    sparse.indices.forEach((termId, position) => {
      weights.set(termId, (weights.get(termId) ?? 0) + (sparse.values[position] ?? 0));
    });
    for (const [termId, weight] of weights) {
      if (weight === 0) continue;
      let list = space.terms.get(termId);
      if (!list) {
        list = { slots: [], weights: [] };
        space.terms.set(termId, list);
      }
      list.slots.push(slot);
      list.weights.push(Math.fround(weight));
    }
  }

  private remove(space: SpaceState, chunkId: string): void {
    const slot = space.slotByChunk.get(chunkId);
    if (slot === undefined) return;
    space.alive[slot] = false;
    space.deadCount += 1;
    space.slotByChunk.delete(chunkId);
    space.slotsByDocument.get(space.documentIds[slot] ?? "")?.delete(slot);
  }

  /** The dense vector stored in `slot`, copied (a replacement slot is filled from it). */
  private denseOf(space: SpaceState, slot: number): Float32Array | undefined {
    if (!space.hasDense[slot]) return undefined;
    return space.dense.slice(slot * this.dimensions, (slot + 1) * this.dimensions);
  }

  /** Renumbers the living slots and drops dead postings, once dead slots are half the space. */
  private compactIfNeeded(space: SpaceState): void {
    if (space.deadCount < COMPACT_MIN_DEAD || space.deadCount * 2 < space.chunkIds.length) return;
    const newSlot = new Int32Array(space.chunkIds.length).fill(-1);
    const living = space.alive.flatMap((isAlive, slot) => (isAlive ? [slot] : []));
    const dense = new Float32Array(Math.max(1024, living.length) * this.dimensions);
    living.forEach((slot, position) => {
      newSlot[slot] = position;
      dense.set(space.dense.subarray(slot * this.dimensions, (slot + 1) * this.dimensions), position * this.dimensions);
    });
    for (const [termId, list] of space.terms) {
      const slots: number[] = [];
      const weights: number[] = [];
      list.slots.forEach((slot, position) => {
        const moved = newSlot[slot] ?? -1;
        if (moved < 0) return;
        slots.push(moved);
        weights.push(list.weights[position] ?? 0);
      });
      if (slots.length === 0) space.terms.delete(termId);
      else space.terms.set(termId, { slots, weights });
    }
    space.chunkIds = living.map((slot) => space.chunkIds[slot] ?? "");
    space.documentIds = living.map((slot) => space.documentIds[slot] ?? "");
    space.hasDense = living.map((slot) => space.hasDense[slot] ?? false);
    space.alive = living.map(() => true);
    space.dense = dense;
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

  /** After the database has stored these chunks' vectors: mirrors them in the spaces already in memory. */
  async stored(chunks: StoredChunkVectors[]): Promise<void> {
    const spaces = await this.loadedSpaces();
    for (const chunk of chunks) {
      // A chunk moved to another space leaves its old one.
      for (const [spaceId, space] of spaces) if (spaceId !== chunk.spaceId) this.remove(space, chunk.chunkId);
      const space = spaces.get(chunk.spaceId);
      if (space) this.add(space, chunk);
    }
  }

  /** After the database replaced these chunks' sparse vectors (their space, document and dense unchanged). */
  async replacedSparse(chunks: Array<{ chunkId: string; sparse: SparseVector }>): Promise<void> {
    for (const [spaceId, space] of await this.loadedSpaces()) {
      for (const chunk of chunks) {
        const slot = space.slotByChunk.get(chunk.chunkId);
        if (slot === undefined) continue;
        const documentId = space.documentIds[slot] ?? "";
        this.add(space, {
          chunkId: chunk.chunkId,
          documentId,
          spaceId,
          dense: this.denseOf(space, slot),
          sparse: chunk.sparse,
        });
      }
      this.compactIfNeeded(space);
    }
  }

  /** After the database replaced these chunks' dense vectors; rows are overwritten in place. */
  async replacedDense(chunks: Array<{ chunkId: string; dense: number[] }>): Promise<void> {
    for (const space of (await this.loadedSpaces()).values()) {
      for (const chunk of chunks) {
        const slot = space.slotByChunk.get(chunk.chunkId);
        if (slot !== undefined) this.setDense(space, slot, chunk.dense);
      }
    }
  }

  /** After the database deleted a document's vectors. */
  async removedDocument(documentId: string): Promise<void> {
    for (const space of (await this.loadedSpaces()).values()) {
      for (const slot of [...(space.slotsByDocument.get(documentId) ?? [])])
        this.remove(space, space.chunkIds[slot] ?? "");
      space.slotsByDocument.delete(documentId);
      this.compactIfNeeded(space);
    }
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
        const list = space.terms.get(termId);
        const queryWeight = vector.values[position] ?? 0;
        if (!list || queryWeight === 0) return;
        for (let index = 0; index < list.slots.length; index += 1) {
          const slot = list.slots[index] as number;
          scores[slot] = (scores[slot] ?? 0) + (list.weights[index] as number) * queryWeight;
        }
      });
      for (let slot = 0; slot < scores.length; slot += 1) {
        const score = scores[slot] ?? 0;
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

  /** Cosine (inner product of unit vectors) with every embedded chunk of the spaces; the top `limit`. */
  async queryDense(vector: number[], query: VectorQuery): Promise<ScoredChunkId[]> {
    if (query.spaceIds.length === 0 || query.limit <= 0) return [];
    const dimensions = this.dimensions;
    const probe = Float32Array.from(vector);
    const top: ScoredChunkId[] = [];
    const allowedDocuments = query.documentIds ? new Set(query.documentIds) : null;
    for (const spaceId of new Set(query.spaceIds)) {
      const space = await this.space(spaceId);
      const rows = space.dense;
      for (let slot = 0; slot < space.chunkIds.length; slot += 1) {
        if (!space.alive[slot] || !space.hasDense[slot]) continue;
        if (allowedDocuments && !allowedDocuments.has(space.documentIds[slot] ?? "")) continue;
        let score = 0;
        const offset = slot * dimensions;
        for (let dimension = 0; dimension < dimensions; dimension += 1) {
          score += (rows[offset + dimension] as number) * (probe[dimension] as number);
        }
        keepTop(
          top,
          { chunkId: space.chunkIds[slot] ?? "", documentId: space.documentIds[slot] ?? "", spaceId, score },
          query.limit,
        );
      }
    }
    return sortHits(top);
  }
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
