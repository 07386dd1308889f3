/**
 * BM25 postings of one space, held compactly: per term, the chunk slots as an Int32Array and their
 * weights as a Float32Array (8 bytes a posting; plain JS arrays took 16 and more, which at 1M chunks of
 * ~100 terms each is the difference between 0.8 and 1.6+ GB). Lists grow by half again when full and
 * are trimmed to size once a space has loaded.
 */
type PostingList = { slots: Int32Array; weights: Float32Array; length: number };

const INITIAL_CAPACITY = 4;

export class PostingLists {
  private readonly lists = new Map<number, PostingList>();

  /**
   * Lists read back from a snapshot (space-snapshot-file.ts): `slots` and `weights` hold every list
   * end to end, in the order of `termIds`, with `lengths[i]` postings each. The lists are views into
   * them (no copy); one that grows later is copied out as any full list is.
   */
  static fromConcatenated(
    termIds: Int32Array,
    lengths: Int32Array,
    slots: Int32Array,
    weights: Float32Array,
  ): PostingLists {
    const postings = new PostingLists();
    let offset = 0;
    for (let term = 0; term < termIds.length; term += 1) {
      const length = lengths[term] as number;
      postings.lists.set(termIds[term] as number, {
        slots: slots.subarray(offset, offset + length),
        weights: weights.subarray(offset, offset + length),
        length,
      });
      offset += length;
    }
    return postings;
  }

  /** Every non-empty list, as views of its postings (for saving them). */
  *entries(): IterableIterator<{ termId: number; slots: Int32Array; weights: Float32Array }> {
    for (const [termId, list] of this.lists) {
      if (list.length === 0) continue;
      yield { termId, slots: list.slots.subarray(0, list.length), weights: list.weights.subarray(0, list.length) };
    }
  }

  get termCount(): number {
    let count = 0;
    for (const list of this.lists.values()) if (list.length > 0) count += 1;
    return count;
  }

  add(termId: number, slot: number, weight: number): void {
    let list = this.lists.get(termId);
    if (!list) {
      list = { slots: new Int32Array(INITIAL_CAPACITY), weights: new Float32Array(INITIAL_CAPACITY), length: 0 };
      this.lists.set(termId, list);
    }
    if (list.length === list.slots.length) {
      const capacity = Math.ceil(list.length * 1.5) + 1;
      const slots = new Int32Array(capacity);
      slots.set(list.slots);
      const weights = new Float32Array(capacity);
      weights.set(list.weights);
      list.slots = slots;
      list.weights = weights;
    }
    list.slots[list.length] = slot;
    list.weights[list.length] = weight;
    list.length += 1;
  }

  /** Adds `queryWeight` × each posting's weight of `termId` into `scores[slot]`. */
  accumulate(termId: number, queryWeight: number, scores: Float64Array): void {
    const list = this.lists.get(termId);
    if (!list) return;
    const { slots, weights, length } = list;
    for (let index = 0; index < length; index += 1) {
      const slot = slots[index] as number;
      scores[slot] = (scores[slot] as number) + (weights[index] as number) * queryWeight;
    }
  }

  /**
   * Moves every posting to `newSlot[slot]` and drops those whose new slot is negative (dead chunks).
   * With the identity for living slots this just drops the dead postings.
   */
  renumber(newSlot: (slot: number) => number): void {
    for (const [termId, list] of this.lists) {
      let kept = 0;
      for (let index = 0; index < list.length; index += 1) {
        const moved = newSlot(list.slots[index] as number);
        if (moved < 0) continue;
        list.slots[kept] = moved;
        list.weights[kept] = list.weights[index] as number;
        kept += 1;
      }
      if (kept === 0) this.lists.delete(termId);
      else list.length = kept;
    }
    this.trim();
  }

  /** Releases the spare capacity of every list (after a space has loaded, or been compacted). */
  trim(): void {
    for (const list of this.lists.values()) {
      if (list.slots.length === list.length) continue;
      list.slots = list.slots.slice(0, list.length);
      list.weights = list.weights.slice(0, list.length);
    }
  }

  /** Postings held, over all terms. */
  get postingCount(): number {
    let count = 0;
    for (const list of this.lists.values()) count += list.length;
    return count;
  }
}
