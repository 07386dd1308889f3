/**
 * Loads a space into memory on its first query, and moves it to an approximate index when it grows.
 * A space whose approximate index was saved (dense-index-snapshots.ts) is taken whole from the snapshot
 * while the database has not changed it since; otherwise the rows are read and the saved index is
 * reconciled with them by chunk id, never rebuilt. A space without a snapshot is read from the rows and
 * switches to approximate as soon as it holds enough embedded chunks (dense-search-settings.ts). An exact
 * space's snapshot is taken whole under the same version and ignored under another.
 */
import type { SpaceId } from "../domain/types.js";
import { ApproximateDenseIndex, type ApproximateIndexSettings } from "./approximate-dense-index.js";
import type { DenseIndexSnapshots } from "./dense-index-snapshots.js";
import { type DenseSearchSettings, wantsApproximate } from "./dense-search-settings.js";
import type { SpaceRows } from "./space-snapshot-file.js";
import type { SpaceSource } from "./space-source.js";
import {
  type ApproximateSpace,
  addChunk,
  addDocumentSlot,
  emptySpace,
  type SpaceState,
  setDense,
} from "./space-state.js";

/** Vectors added to an index between yields to the event loop while a space switches to approximate. */
const BUILD_SLICE = 1000;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export type SpaceLoading = {
  dimensions: number;
  settings: DenseSearchSettings;
  source: SpaceSource;
  snapshots: DenseIndexSnapshots | null;
};

/**
 * The space as the database holds it, from its snapshot where there is one. Its `unsavedChanges` say
 * whether the snapshot needs saving again (rebuilt slots and postings, a reconciled index).
 */
export async function loadSpace(
  spaceId: SpaceId,
  { dimensions, settings, source, snapshots }: SpaceLoading,
): Promise<SpaceState> {
  const saved = snapshots ? await snapshots.read(spaceId) : null;
  const state = emptySpace(spaceId, dimensions);
  const versionMatches = async () =>
    saved?.version != null && source.version !== undefined && saved.version === (await source.version(spaceId));
  // A saved exact space is used only as the database still holds it and as the settings still want it.
  const exact = saved?.kind === "exact" && (await versionMatches()) ? await saved.rows() : null;
  const snapshot = saved?.kind === "approximate" && settings.mode !== "exact" ? saved : null;
  const current = snapshot && (await versionMatches()) ? await snapshot.rows() : null;
  if (exact && !wantsApproximate(settings, 0) && restoreExact(state, exact.rows, exact.dense, settings)) {
    // The database has not changed the space since the snapshot: nothing to read from it.
  } else if (snapshot && current && restore(state, snapshot.index, snapshot.chunkIdByKey, current)) {
    // The database has not changed the space since the snapshot: nothing to read from it.
  } else if (snapshot) {
    await loadOntoSnapshot(state, snapshot.index, snapshot.chunkIdByKey, source);
    state.unsavedChanges += 1; // the slots and postings were rebuilt: save them with the index
  } else {
    if (wantsApproximate(settings, 0)) await switchToApproximate(state, settings.approximate);
    for await (const batch of source.rows(spaceId, { withDense: true })) {
      for (const vectors of batch) addChunk(state, vectors);
      if (state.dense && wantsApproximate(settings, state.denseCount)) {
        await switchToApproximate(state, settings.approximate);
      }
    }
    // Read from the database: saved, so the next start need not (an empty space has nothing to save).
    state.unsavedChanges = state.chunkIds.length > 0 ? 1 : 0;
  }
  state.postings.trim();
  return state;
}

/**
 * Takes a saved space as it is (its index, slots and postings), after checking that the slots and the
 * index's keys name the same chunks; false (nothing taken) when they do not.
 */
function restore(state: SpaceState, index: ApproximateDenseIndex, chunkIdByKey: string[], rows: SpaceRows): boolean {
  const slotCount = rows.chunkIds.length;
  if (rows.documentIds.length !== slotCount || rows.alive.length !== slotCount) return false;
  if (rows.keyOfSlot.length !== slotCount) return false;
  const slotOfKey = new Array<number>(chunkIdByKey.length).fill(-1);
  const slotByChunk = new Map<string, number>();
  const slotsByDocument = new Map<string, number[]>();
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
    addDocumentSlot(slotsByDocument, rows.documentIds[slot] as string, slot);
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
 * Takes a saved exact space as it is, after checking that its parts add up and that it is still below
 * the approximate threshold; false (nothing taken) otherwise.
 */
function restoreExact(state: SpaceState, rows: SpaceRows, dense: Float32Array, settings: DenseSearchSettings): boolean {
  const slotCount = rows.chunkIds.length;
  if (rows.documentIds.length !== slotCount || rows.alive.length !== slotCount) return false;
  if (rows.keyOfSlot.length !== slotCount || dense.length !== slotCount * state.dimensions) return false;
  const slotByChunk = new Map<string, number>();
  const slotsByDocument = new Map<string, number[]>();
  let denseCount = 0;
  let deadCount = 0;
  for (let slot = 0; slot < slotCount; slot += 1) {
    if (!rows.alive[slot]) {
      deadCount += 1;
      continue;
    }
    const chunkId = rows.chunkIds[slot] as string;
    if (slotByChunk.has(chunkId)) return false;
    slotByChunk.set(chunkId, slot);
    addDocumentSlot(slotsByDocument, rows.documentIds[slot] as string, slot);
    if ((rows.keyOfSlot[slot] as number) >= 0) denseCount += 1;
  }
  if (wantsApproximate(settings, denseCount)) return false;
  Object.assign(state, {
    chunkIds: rows.chunkIds,
    documentIds: rows.documentIds,
    alive: rows.alive,
    hasDense: rows.keyOfSlot.map((key, slot) => key >= 0 && (rows.alive[slot] ?? false)),
    dense,
    approximate: null,
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
async function loadOntoSnapshot(
  state: SpaceState,
  index: ApproximateDenseIndex,
  chunkIdByKey: string[],
  source: SpaceSource,
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
  for await (const batch of source.rows(state.spaceId, { withDense: false })) {
    for (const vectors of batch) {
      const key = vectors.hasDense ? keyByChunk.get(vectors.chunkId) : undefined;
      if (key !== undefined) keyByChunk.delete(vectors.chunkId);
      addChunk(state, { ...vectors, dense: undefined }, key);
      if (vectors.hasDense && key === undefined) missing.push(vectors.chunkId);
    }
  }
  for (const key of keyByChunk.values()) {
    index.remove(key);
    state.unsavedChanges += 1;
  }
  for await (const batch of source.dense(missing)) {
    for (const { chunkId, dense } of batch) {
      const slot = state.slotByChunk.get(chunkId);
      if (slot !== undefined) setDense(state, slot, dense);
    }
    await yieldToEventLoop();
  }
}

/** Moves a space's dense vectors from its exact rows into a new approximate index, in slices. */
export async function switchToApproximate(space: SpaceState, settings: ApproximateIndexSettings): Promise<void> {
  const { dimensions } = space;
  const index = await ApproximateDenseIndex.create(dimensions, settings);
  const approximate: ApproximateSpace = { index, keyOfSlot: [], slotOfKey: [] };
  const rows = space.dense;
  const slots = space.hasDense.flatMap((has, slot) => (has && space.alive[slot] ? [slot] : []));
  for (let start = 0; start < slots.length; start += BUILD_SLICE) {
    const slice = slots.slice(start, start + BUILD_SLICE);
    const vectors = new Float32Array(slice.length * dimensions);
    const keys = slice.map((slot, position) => {
      if (rows) vectors.set(rows.subarray(slot * dimensions, (slot + 1) * dimensions), position * dimensions);
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
