/**
 * Answers queries from the spaces in memory: sparse by the BM25 postings, dense by scanning the exact
 * rows or by searching the approximate index. Each space has its own index, so the space filter is
 * inside the search; a query restricted to some documents is answered exactly from those documents'
 * vectors (read from the database when the space is approximate), as a document's few hundred chunks
 * are cheaper to scan than to filter for.
 */
import type { SpaceId, SparseVector } from "../domain/types.js";
import type { SpaceSource } from "./space-source.js";
import type { SpaceState } from "./space-state.js";
import { TopHits } from "./top-hits.js";
import type { ScoredChunkId, VectorQuery } from "./vector-index.js";

/** The space in memory, loaded on first use. */
export type SpaceLookup = (spaceId: SpaceId) => Promise<SpaceState>;

/** Inner products of `vector` with every chunk of the spaces that shares a term; the top `limit`. */
export async function querySparse(
  vector: SparseVector,
  query: VectorQuery,
  spaceOf: SpaceLookup,
): Promise<ScoredChunkId[]> {
  if (query.spaceIds.length === 0 || query.limit <= 0 || vector.indices.length === 0) return [];
  const top = new TopHits(query.limit);
  const allowedDocuments = query.documentIds ? new Set(query.documentIds) : null;
  for (const spaceId of new Set(query.spaceIds)) {
    const space = await spaceOf(spaceId);
    const scores = new Float64Array(space.chunkIds.length);
    vector.indices.forEach((termId, position) => {
      const queryWeight = vector.values[position] ?? 0;
      if (queryWeight !== 0) space.postings.accumulate(termId, queryWeight, scores);
    });
    for (let slot = 0; slot < scores.length; slot += 1) {
      const score = scores[slot] as number;
      if (score <= 0 || !space.alive[slot]) continue;
      if (allowedDocuments && !allowedDocuments.has(space.documentIds[slot] ?? "")) continue;
      top.keep(hitAt(space, slot, score));
    }
  }
  return top.sorted();
}

/**
 * Cosine (inner product of unit vectors) with the embedded chunks of the spaces; the top `limit`.
 * `source` gives the vectors of an approximate space's chunks for a query restricted to documents.
 */
export async function queryDense(
  vector: number[],
  query: VectorQuery,
  spaceOf: SpaceLookup,
  source: SpaceSource,
): Promise<ScoredChunkId[]> {
  if (query.spaceIds.length === 0 || query.limit <= 0) return [];
  const probe = Float32Array.from(vector);
  const top = new TopHits(query.limit);
  for (const spaceId of new Set(query.spaceIds)) {
    const space = await spaceOf(spaceId);
    if (query.documentIds) await scanDocuments(space, probe, query.documentIds, top, source);
    else if (space.approximate) searchApproximate(space, probe, query.limit, top);
    else scanAll(space, probe, top);
  }
  return top.sorted();
}

function hitAt(space: SpaceState, slot: number, score: number): ScoredChunkId {
  return {
    chunkId: space.chunkIds[slot] ?? "",
    documentId: space.documentIds[slot] ?? "",
    spaceId: space.spaceId,
    score,
  };
}

function scanAll(space: SpaceState, probe: Float32Array, top: TopHits): void {
  const rows = space.dense;
  if (!rows) return;
  for (let slot = 0; slot < space.chunkIds.length; slot += 1) {
    if (!space.alive[slot] || !space.hasDense[slot]) continue;
    top.keep(hitAt(space, slot, dot(rows, slot * space.dimensions, probe)));
  }
}

function searchApproximate(space: SpaceState, probe: Float32Array, limit: number, top: TopHits): void {
  const approximate = space.approximate;
  if (!approximate) return;
  const { keys, scores } = approximate.index.search(probe, limit);
  keys.forEach((key, position) => {
    const slot = approximate.slotOfKey[key] ?? -1;
    if (slot < 0 || !space.alive[slot]) return;
    top.keep(hitAt(space, slot, scores[position] as number));
  });
}

/** Exact scores over the chunks of some documents: from the rows, or read by id when approximate. */
async function scanDocuments(
  space: SpaceState,
  probe: Float32Array,
  documentIds: string[],
  top: TopHits,
  source: SpaceSource,
): Promise<void> {
  const slots = [...new Set(documentIds)].flatMap((documentId) => [...(space.slotsByDocument.get(documentId) ?? [])]);
  const rows = space.dense;
  if (rows) {
    for (const slot of slots) {
      if (space.alive[slot] && space.hasDense[slot])
        top.keep(hitAt(space, slot, dot(rows, slot * space.dimensions, probe)));
    }
    return;
  }
  const chunkIds = slots.filter((slot) => space.hasDense[slot]).map((slot) => space.chunkIds[slot] ?? "");
  for await (const batch of source.dense(chunkIds)) {
    for (const { chunkId, dense } of batch) {
      // The space may have changed while the vectors were read: only chunks still in it count.
      const slot = space.slotByChunk.get(chunkId);
      if (slot === undefined) continue;
      top.keep(hitAt(space, slot, dot(dense, 0, probe)));
    }
  }
}

/** Inner product of `probe` with the vector at `offset` in `rows`. */
function dot(rows: Float32Array, offset: number, probe: Float32Array): number {
  let score = 0;
  for (let dimension = 0; dimension < probe.length; dimension += 1) {
    score += (rows[offset + dimension] as number) * (probe[dimension] as number);
  }
  return score;
}
