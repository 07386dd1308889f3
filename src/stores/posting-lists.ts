/**
 * BM25 postings of one space, held compactly and losslessly: per term, the chunk slots as the gaps
 * between them (a Uint16Array: slots only ever arrive in ascending order, so a gap is at least 1 and
 * nearly always under 65,536) and their weights as a Float32Array — ~6 bytes a posting. Plain JS arrays
 * took 16 and more; slots as Int32 took 8, which at 1M chunks of ~100 terms each held the embedded
 * store over 2 GB. The weights stay float32 (a quantized weight would change scores and near-tie ranks).
 * Lists grow by half again when full and are trimmed to size once a space has loaded.
 *
 * Gap coding: each gap is one unit; a gap of 65,536 or more is written as a 0 unit (never a gap, as
 * slots strictly ascend) followed by its high and low 16 bits. The first gap counts from slot -1.
 */
type PostingList = {
  gaps: Uint16Array;
  /** Units of `gaps` in use (a posting takes 1 or 3). */
  gapUnits: number;
  weights: Float32Array;
  /** Postings held. */
  length: number;
  /** The highest slot held (-1 for none): the next posting's gap counts from it. */
  lastSlot: number;
};

const INITIAL_CAPACITY = 4;
const ESCAPE = 0;
const LARGEST_SHORT_GAP = 0xffff;
const UNIT = 0x10000;

/** Calls `visit(slot, index)` for each posting of `list`, in order. */
function forEachSlot(list: PostingList, visit: (slot: number, index: number) => void): void {
  const { gaps, length } = list;
  let slot = -1;
  let unit = 0;
  for (let index = 0; index < length; index += 1) {
    let gap = gaps[unit] as number;
    unit += 1;
    if (gap === ESCAPE) {
      gap = (gaps[unit] as number) * UNIT + (gaps[unit + 1] as number);
      unit += 2;
    }
    slot += gap;
    visit(slot, index);
  }
}

/** `array`, or a copy half as large again when it has no room for `needed` elements. */
function withRoom<T extends Uint16Array | Float32Array>(array: T, needed: number, make: new (length: number) => T): T {
  if (needed <= array.length) return array;
  const larger = new make(Math.max(needed, Math.ceil(array.length * 1.5) + 1));
  larger.set(array);
  return larger;
}

function appendPosting(list: PostingList, slot: number, weight: number): void {
  const gap = slot - list.lastSlot;
  const units = gap > LARGEST_SHORT_GAP ? 3 : 1;
  list.gaps = withRoom(list.gaps, list.gapUnits + units, Uint16Array);
  list.weights = withRoom(list.weights, list.length + 1, Float32Array);
  if (units === 1) {
    list.gaps[list.gapUnits] = gap;
  } else {
    list.gaps[list.gapUnits] = ESCAPE;
    list.gaps[list.gapUnits + 1] = Math.floor(gap / UNIT);
    list.gaps[list.gapUnits + 2] = gap % UNIT;
  }
  list.gapUnits += units;
  list.weights[list.length] = weight;
  list.length += 1;
  list.lastSlot = slot;
}

const emptyList = (): PostingList => ({
  gaps: new Uint16Array(INITIAL_CAPACITY),
  gapUnits: 0,
  weights: new Float32Array(INITIAL_CAPACITY),
  length: 0,
  lastSlot: -1,
});

export class PostingLists {
  private readonly lists = new Map<number, PostingList>();

  /**
   * Lists read back from a snapshot (space-snapshot-file.ts): `gaps` and `weights` hold every list end to
   * end, in the order of `termIds`, with `lengths[i]` postings in `gapUnits[i]` units each. The lists are
   * views into them (no copy); one that grows later is copied out as any full list is. Null when the
   * lists do not add up (a unit count that does not match its postings, a slot at or past `slotCount`).
   */
  static fromConcatenated(
    concatenated: {
      termIds: Int32Array;
      lengths: Int32Array;
      gapUnits: Int32Array;
      gaps: Uint16Array;
      weights: Float32Array;
    },
    slotCount: number,
  ): PostingLists | null {
    const { termIds, lengths, gapUnits, gaps, weights } = concatenated;
    const postings = new PostingLists();
    let unitOffset = 0;
    let offset = 0;
    for (let term = 0; term < termIds.length; term += 1) {
      const length = lengths[term] as number;
      const units = gapUnits[term] as number;
      if (length < 0 || units < length || unitOffset + units > gaps.length || offset + length > weights.length) {
        return null;
      }
      const list: PostingList = {
        gaps: gaps.subarray(unitOffset, unitOffset + units),
        gapUnits: units,
        weights: weights.subarray(offset, offset + length),
        length,
        lastSlot: -1,
      };
      if (!PostingLists.decodesWhole(list, slotCount)) return null;
      postings.lists.set(termIds[term] as number, list);
      unitOffset += units;
      offset += length;
    }
    return unitOffset === gaps.length && offset === weights.length ? postings : null;
  }

  /** Whether the list's units are exactly its postings' gaps, each slot below `slotCount`; sets `lastSlot`. */
  private static decodesWhole(list: PostingList, slotCount: number): boolean {
    const { gaps, length, gapUnits } = list;
    let slot = -1;
    let unit = 0;
    for (let index = 0; index < length; index += 1) {
      if (unit >= gapUnits) return false;
      let gap = gaps[unit] as number;
      unit += 1;
      if (gap === ESCAPE) {
        if (unit + 2 > gapUnits) return false;
        gap = (gaps[unit] as number) * UNIT + (gaps[unit + 1] as number);
        unit += 2;
        if (gap <= LARGEST_SHORT_GAP) return false;
      }
      slot += gap;
    }
    list.lastSlot = slot;
    return unit === gapUnits && slot < slotCount;
  }

  /** Every non-empty list, as views of its gap units and weights (for saving them). */
  *entries(): IterableIterator<{ termId: number; length: number; gaps: Uint16Array; weights: Float32Array }> {
    for (const [termId, list] of this.lists) {
      if (list.length === 0) continue;
      yield {
        termId,
        length: list.length,
        gaps: list.gaps.subarray(0, list.gapUnits),
        weights: list.weights.subarray(0, list.length),
      };
    }
  }

  get termCount(): number {
    let count = 0;
    for (const list of this.lists.values()) if (list.length > 0) count += 1;
    return count;
  }

  /** Adds a posting; `slot` must be above every slot the term already has (slots are appended in order). */
  add(termId: number, slot: number, weight: number): void {
    let list = this.lists.get(termId);
    if (!list) {
      list = emptyList();
      this.lists.set(termId, list);
    }
    if (!Number.isInteger(slot) || slot <= list.lastSlot) {
      throw new Error(`Posting for term ${termId} at slot ${slot} is not after its last slot ${list.lastSlot}.`);
    }
    appendPosting(list, slot, weight);
  }

  /** Adds `queryWeight` × each posting's weight of `termId` into `scores[slot]`. */
  accumulate(termId: number, queryWeight: number, scores: Float64Array): void {
    const list = this.lists.get(termId);
    if (!list) return;
    // forEachSlot's loop, inlined: this is the sparse search's inner loop.
    const { gaps, weights, length } = list;
    let slot = -1;
    let unit = 0;
    for (let index = 0; index < length; index += 1) {
      let gap = gaps[unit] as number;
      unit += 1;
      if (gap === ESCAPE) {
        gap = (gaps[unit] as number) * UNIT + (gaps[unit + 1] as number);
        unit += 2;
      }
      slot += gap;
      scores[slot] = (scores[slot] as number) + (weights[index] as number) * queryWeight;
    }
  }

  /**
   * Moves every posting to `newSlot[slot]` and drops those whose new slot is negative (dead chunks).
   * `newSlot` must keep the living slots in their order (compaction does). With the identity for living
   * slots this just drops the dead postings.
   */
  renumber(newSlot: (slot: number) => number): void {
    for (const [termId, list] of [...this.lists]) {
      const moved = emptyList();
      forEachSlot(list, (slot, index) => {
        const target = newSlot(slot);
        if (target < 0) return;
        if (target <= moved.lastSlot) throw new Error("Renumbering postings must keep the slots in order.");
        appendPosting(moved, target, list.weights[index] as number);
      });
      if (moved.length === 0) this.lists.delete(termId);
      else this.lists.set(termId, moved);
    }
    this.trim();
  }

  /** Releases the spare capacity of every list (after a space has loaded, or been compacted). */
  trim(): void {
    for (const list of this.lists.values()) {
      if (list.gaps.length !== list.gapUnits) list.gaps = list.gaps.slice(0, list.gapUnits);
      if (list.weights.length !== list.length) list.weights = list.weights.slice(0, list.length);
    }
  }

  /** Postings held, over all terms. */
  get postingCount(): number {
    let count = 0;
    for (const list of this.lists.values()) count += list.length;
    return count;
  }
}
