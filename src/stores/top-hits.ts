/**
 * The best `limit` hits of a query, kept as they are scored: a heap once full, whose root is the worst
 * hit kept, so each later hit costs a comparison (and a sift when it is better). Ranked as the SQL path
 * ranks: higher score first, then chunk id ascending.
 */
import type { ScoredChunkId } from "./vector-index.js";

export class TopHits {
  private readonly hits: ScoredChunkId[] = [];

  constructor(private readonly limit: number) {}

  /** Keeps `hit` while fewer than `limit` are kept, or in place of the worst kept when it is better. */
  keep(hit: ScoredChunkId): void {
    const top = this.hits;
    if (top.length < this.limit) {
      top.push(hit);
      if (top.length === this.limit) heapify(top);
      return;
    }
    const worst = top[0];
    if (!worst || !ranksBefore(hit, worst)) return;
    top[0] = hit;
    siftDown(top, 0);
  }

  /** The hits kept, best first; sorts them in place, so no hit is kept after this. */
  sorted(): ScoredChunkId[] {
    return this.hits.sort((left, right) => (ranksBefore(left, right) ? -1 : ranksBefore(right, left) ? 1 : 0));
  }
}

/** Higher score first, then chunk id ascending — the SQL path's order. */
function ranksBefore(left: ScoredChunkId, right: ScoredChunkId): boolean {
  return left.score > right.score || (left.score === right.score && left.chunkId < right.chunkId);
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
