/**
 * BM25 postings in memory for the embedded store: term → (chunk slot, weight) lists per space, so a
 * keyword query touches only the chunks that share a term with it instead of scanning the whole space
 * (an exact sparsevec scan is ~45 ms at 5K chunks and grows linearly; postings stay a few ms at 100K).
 *
 * Only for embedded PGlite, which is one process by construction: a PostgreSQL deployment may run
 * several replicas, and an in-memory copy there could go stale, so it keeps the SQL scan.
 * A space is loaded from the database on its first query and kept in step by the index's own writes
 * (upsert, updateSparse, deleteByDocument), which always reach the database first. Replaced and deleted
 * chunks leave dead slots that are skipped, and compacted away once they are half of a space.
 * Weights are rounded to float32, as pgvector stores them, so scores match the SQL path.
 */
import type { SpaceId, SparseVector } from "../domain/types.js";
import type { ScoredChunkId, VectorQuery } from "./vector-index.js";

type PostingList = { slots: number[]; weights: number[] };

type SpacePostings = {
  chunkIds: string[];
  documentIds: string[];
  alive: boolean[];
  deadCount: number;
  slotByChunk: Map<string, number>;
  slotsByDocument: Map<string, Set<number>>;
  terms: Map<number, PostingList>;
};

export type StoredSparseVector = { chunkId: string; documentId: string; spaceId: SpaceId; sparse: SparseVector };

/** Reads every sparse vector of one space from the database. */
export type LoadSpace = (spaceId: SpaceId) => Promise<StoredSparseVector[]>;

const COMPACT_MIN_DEAD = 1000;

function emptySpace(): SpacePostings {
  return {
    chunkIds: [],
    documentIds: [],
    alive: [],
    deadCount: 0,
    slotByChunk: new Map(),
    slotsByDocument: new Map(),
    terms: new Map(),
  };
}

/** Higher score first, then chunk id ascending — the SQL path's order. */
function ranksBefore(left: ScoredChunkId, right: ScoredChunkId): boolean {
  return left.score > right.score || (left.score === right.score && left.chunkId < right.chunkId);
}

export class SparsePostings {
  private readonly spaces = new Map<SpaceId, Promise<SpacePostings>>();
  private readonly loaded = new Map<SpaceId, SpacePostings>();

  constructor(private readonly loadSpace: LoadSpace) {}

  private space(spaceId: SpaceId): Promise<SpacePostings> {
    let space = this.spaces.get(spaceId);
    if (!space) {
      space = this.loadSpace(spaceId).then((vectors) => {
        const postings = emptySpace();
        for (const vector of vectors) this.add(postings, vector);
        this.loaded.set(spaceId, postings);
        return postings;
      });
      this.spaces.set(spaceId, space);
      space.catch(() => this.spaces.delete(spaceId));
    }
    return space;
  }

  /** The space's postings when loaded or loading; undefined when nobody has queried it yet. */
  private async ifTracked(spaceId: SpaceId): Promise<SpacePostings | undefined> {
    const space = this.spaces.get(spaceId);
    return space ? await space : undefined;
  }

  private add(space: SpacePostings, vector: StoredSparseVector): void {
    this.remove(space, vector.chunkId);
    const slot = space.chunkIds.length;
    space.chunkIds.push(vector.chunkId);
    space.documentIds.push(vector.documentId);
    space.alive.push(true);
    space.slotByChunk.set(vector.chunkId, slot);
    let documentSlots = space.slotsByDocument.get(vector.documentId);
    if (!documentSlots) {
      documentSlots = new Set();
      space.slotsByDocument.set(vector.documentId, documentSlots);
    }
    documentSlots.add(slot);
    const weights = new Map<number, number>();
    vector.sparse.indices.forEach((termId, position) => {
      weights.set(termId, (weights.get(termId) ?? 0) + (vector.sparse.values[position] ?? 0));
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

  private remove(space: SpacePostings, chunkId: string): void {
    const slot = space.slotByChunk.get(chunkId);
    if (slot === undefined) return;
    space.alive[slot] = false;
    space.deadCount += 1;
    space.slotByChunk.delete(chunkId);
    space.slotsByDocument.get(space.documentIds[slot] ?? "")?.delete(slot);
  }

  /** Renumbers the living slots and drops dead postings, once dead slots are half the space. */
  private compactIfNeeded(space: SpacePostings): void {
    if (space.deadCount < COMPACT_MIN_DEAD || space.deadCount * 2 < space.chunkIds.length) return;
    const newSlot = new Int32Array(space.chunkIds.length).fill(-1);
    const chunkIds: string[] = [];
    const documentIds: string[] = [];
    space.alive.forEach((isAlive, slot) => {
      if (!isAlive) return;
      newSlot[slot] = chunkIds.length;
      chunkIds.push(space.chunkIds[slot] ?? "");
      documentIds.push(space.documentIds[slot] ?? "");
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
    space.chunkIds = chunkIds;
    space.documentIds = documentIds;
    space.alive = chunkIds.map(() => true);
    space.deadCount = 0;
    space.slotByChunk = new Map(chunkIds.map((chunkId, slot) => [chunkId, slot]));
    space.slotsByDocument = new Map();
    documentIds.forEach((documentId, slot) => {
      let slots = space.slotsByDocument.get(documentId);
      if (!slots) {
        slots = new Set();
        space.slotsByDocument.set(documentId, slots);
      }
      slots.add(slot);
    });
  }

  /** After the database has stored these vectors: mirrors them in the spaces already in memory. */
  async stored(vectors: StoredSparseVector[]): Promise<void> {
    for (const vector of vectors) {
      const space = await this.ifTracked(vector.spaceId);
      if (space) this.add(space, vector);
    }
  }

  /** After the database replaced these chunks' sparse vectors (their space and document unchanged). */
  async replaced(vectors: Array<{ chunkId: string; sparse: SparseVector }>): Promise<void> {
    await Promise.all([...this.spaces.values()]);
    for (const vector of vectors) {
      for (const [spaceId, space] of this.loaded) {
        const slot = space.slotByChunk.get(vector.chunkId);
        if (slot === undefined) continue;
        this.add(space, {
          chunkId: vector.chunkId,
          documentId: space.documentIds[slot] ?? "",
          spaceId,
          sparse: vector.sparse,
        });
        this.compactIfNeeded(space);
      }
    }
  }

  /** After the database deleted a document's vectors (or a chunk lost its sparse vector). */
  async removedDocument(documentId: string): Promise<void> {
    await Promise.all([...this.spaces.values()]);
    for (const space of this.loaded.values()) {
      for (const slot of [...(space.slotsByDocument.get(documentId) ?? [])])
        this.remove(space, space.chunkIds[slot] ?? "");
      space.slotsByDocument.delete(documentId);
      this.compactIfNeeded(space);
    }
  }

  async removedChunks(chunkIds: string[]): Promise<void> {
    await Promise.all([...this.spaces.values()]);
    for (const space of this.loaded.values()) for (const chunkId of chunkIds) this.remove(space, chunkId);
  }

  /** Inner products of `vector` with every chunk of the spaces that shares a term; the top `limit`. */
  async query(vector: SparseVector, query: VectorQuery): Promise<ScoredChunkId[]> {
    if (query.spaceIds.length === 0 || query.limit <= 0 || vector.indices.length === 0) return [];
    const top: ScoredChunkId[] = [];
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
        const hit = { chunkId: space.chunkIds[slot] ?? "", documentId: space.documentIds[slot] ?? "", spaceId, score };
        keepTop(top, hit, query.limit);
      }
    }
    return top.sort((left, right) => (ranksBefore(left, right) ? -1 : ranksBefore(right, left) ? 1 : 0));
  }
}

/** Keeps the best `limit` hits in `top` (unordered), replacing the worst when a better one comes. */
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
