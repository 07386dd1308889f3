/**
 * One space's search structures in memory and the bookkeeping of their slots. Each chunk has a slot:
 * its row of the exact dense vectors, its number in the BM25 postings (posting-lists.ts) and, once the
 * space is approximate, the slot a key of the HNSW index points to. Replaced and deleted chunks leave
 * dead slots that are skipped, and compacted away once they are half of a space. Values are float32,
 * as pgvector stores them.
 */
import type { SpaceId } from "../domain/types.js";
import type { ApproximateDenseIndex } from "./approximate-dense-index.js";
import { PostingLists } from "./posting-lists.js";
import type { SparseLike, StoredChunkVectors } from "./space-source.js";

/** The approximate side of a space: the HNSW index, keyed by numbers that stay with a chunk when its slot moves. */
export type ApproximateSpace = {
  index: ApproximateDenseIndex;
  /** Key of each slot's vector in the index; -1 for none. */
  keyOfSlot: number[];
  /** Slot of each key; -1 for a key no longer used. */
  slotOfKey: number[];
};

export type SpaceState = {
  spaceId: SpaceId;
  /** Length of every dense vector; a vector of another length is stored as none. */
  readonly dimensions: number;
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
  /** Living slots of each document, in no particular order (arrays: a Set per document cost 2.5× the memory). */
  slotsByDocument: Map<string, number[]>;
  postings: PostingLists;
  /** Changes to the space (its vectors, slots or postings) since its snapshot was saved. */
  unsavedChanges: number;
};

const COMPACT_MIN_DEAD = 1000;

export function emptySpace(spaceId: SpaceId, dimensions: number): SpaceState {
  return {
    spaceId,
    dimensions,
    chunkIds: [],
    documentIds: [],
    alive: [],
    hasDense: [],
    dense: new Float32Array(1024 * dimensions),
    approximate: null,
    denseCount: 0,
    deadCount: 0,
    slotByChunk: new Map(),
    slotsByDocument: new Map(),
    postings: new PostingLists(),
    unsavedChanges: 0,
  };
}

/** Records that `slot` holds a chunk of `documentId`. */
export function addDocumentSlot(slotsByDocument: Map<string, number[]>, documentId: string, slot: number): void {
  const documentSlots = slotsByDocument.get(documentId);
  if (documentSlots) documentSlots.push(slot);
  else slotsByDocument.set(documentId, [slot]);
}

function removeDocumentSlot(slotsByDocument: Map<string, number[]>, documentId: string, slot: number): void {
  const documentSlots = slotsByDocument.get(documentId);
  const position = documentSlots?.lastIndexOf(slot) ?? -1;
  if (!documentSlots || position < 0) return;
  documentSlots.splice(position, 1);
  if (documentSlots.length === 0) slotsByDocument.delete(documentId);
}

/** Stores the slot's dense vector (or clears it) in whichever form the space holds vectors. */
export function setDense(space: SpaceState, slot: number, dense: ArrayLike<number> | undefined): void {
  const { dimensions } = space;
  const valid = dense !== undefined && dense.length === dimensions;
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
    const needed = (slot + 1) * dimensions;
    if (needed > space.dense.length) {
      const grown = new Float32Array(Math.max(needed, space.dense.length * 2));
      grown.set(space.dense);
      space.dense = grown;
    }
    if (valid) space.dense.set(dense, slot * dimensions);
    else space.dense.fill(0, slot * dimensions, needed);
    space.unsavedChanges += 1;
  }
  space.hasDense[slot] = valid;
  if (valid && space.alive[slot]) space.denseCount += 1;
}

/**
 * Appends the chunk in a new slot (replacing any earlier one). `carriedKey`: the chunk's vector is
 * already in the approximate index under this key (a slot moved, or a snapshot loaded).
 */
export function addChunk(space: SpaceState, vectors: StoredChunkVectors, carriedKey?: number): void {
  removeChunk(space, vectors.chunkId);
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
    setDense(space, slot, vectors.dense);
  }
  space.slotByChunk.set(vectors.chunkId, slot);
  addDocumentSlot(space.slotsByDocument, vectors.documentId, slot);
  if (vectors.sparse) addPostings(space, slot, vectors.sparse);
  space.unsavedChanges += 1;
}

function addPostings(space: SpaceState, slot: number, sparse: SparseLike): void {
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

export function removeChunk(space: SpaceState, chunkId: string): void {
  const slot = space.slotByChunk.get(chunkId);
  if (slot === undefined) return;
  setDense(space, slot, undefined);
  space.alive[slot] = false;
  space.deadCount += 1;
  space.slotByChunk.delete(chunkId);
  removeDocumentSlot(space.slotsByDocument, space.documentIds[slot] ?? "", slot);
  space.unsavedChanges += 1;
}

/** Removes every chunk of the document from the space. */
export function removeDocument(space: SpaceState, documentId: string): void {
  const slots = space.slotsByDocument.get(documentId) ?? [];
  space.slotsByDocument.delete(documentId); // first: each removal then skips searching the list
  for (const slot of slots) removeChunk(space, space.chunkIds[slot] ?? "");
}

/**
 * Moves the chunk to a new slot with this sparse vector, its document and dense vector unchanged; a
 * chunk the space does not hold is left out.
 */
export function replaceSparse(space: SpaceState, chunk: { chunkId: string; sparse: SparseLike }): void {
  const slot = space.slotByChunk.get(chunk.chunkId);
  if (slot === undefined) return;
  const documentId = space.documentIds[slot] ?? "";
  const replacement = { chunkId: chunk.chunkId, documentId, spaceId: space.spaceId, sparse: chunk.sparse };
  if (space.approximate) {
    // The vector stays in the index under its key; only the slot moves.
    const key = space.approximate.keyOfSlot[slot] ?? -1;
    space.approximate.keyOfSlot[slot] = -1;
    if (key >= 0) {
      space.hasDense[slot] = false;
      space.denseCount -= 1;
    }
    addChunk(space, replacement, key >= 0 ? key : undefined);
  } else {
    addChunk(space, { ...replacement, dense: denseOf(space, slot) });
  }
}

/** The dense vector stored in `slot` of an exact space, copied (a replacement slot is filled from it). */
function denseOf(space: SpaceState, slot: number): Float32Array | undefined {
  if (!space.hasDense[slot] || !space.dense) return undefined;
  return space.dense.slice(slot * space.dimensions, (slot + 1) * space.dimensions);
}

/** Renumbers the living slots and drops dead postings, once dead slots are half the space. */
export function compactIfNeeded(space: SpaceState): void {
  if (space.deadCount < COMPACT_MIN_DEAD || space.deadCount * 2 < space.chunkIds.length) return;
  const { dimensions } = space;
  const newSlot = new Int32Array(space.chunkIds.length).fill(-1);
  const living = space.alive.flatMap((isAlive, slot) => (isAlive ? [slot] : []));
  living.forEach((slot, position) => {
    newSlot[slot] = position;
  });
  const rows = space.dense;
  if (rows) {
    const dense = new Float32Array(Math.max(1024, living.length) * dimensions);
    living.forEach((slot, position) => {
      dense.set(rows.subarray(slot * dimensions, (slot + 1) * dimensions), position * dimensions);
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
    addDocumentSlot(space.slotsByDocument, documentId, slot);
  });
}
