import { describe, expect, it } from "vitest";
import { PostingLists } from "../../src/stores/posting-lists.js";

describe("PostingLists", () => {
  it("accumulates weighted postings, grows past its first capacity and drops dead slots when renumbered", () => {
    const postings = new PostingLists();
    for (let slot = 0; slot < 100; slot += 1) postings.add(7, slot, 0.5 + slot / 100);
    postings.add(9, 3, 2);
    const scores = new Float64Array(100);
    postings.accumulate(7, 2, scores);
    postings.accumulate(9, 1, scores);
    postings.accumulate(11, 1, scores); // a term no chunk has
    expect(scores[0]).toBeCloseTo(1, 6);
    expect(scores[3]).toBeCloseTo(2 * 0.53 + 2, 6);
    expect(scores[99]).toBeCloseTo(2 * 1.49, 6);
    expect(postings.postingCount).toBe(101);

    // Even slots die; odd slot s moves to (s - 1) / 2.
    postings.renumber((slot) => (slot % 2 === 0 ? -1 : (slot - 1) / 2));
    expect(postings.postingCount).toBe(51);
    const after = new Float64Array(50);
    postings.accumulate(7, 1, after);
    postings.accumulate(9, 1, after);
    expect(after[1]).toBeCloseTo(0.53 + 2, 6); // old slot 3
    expect(after[49]).toBeCloseTo(1.49, 6); // old slot 99
  });

  it("forgets a term whose postings all died", () => {
    const postings = new PostingLists();
    postings.add(1, 0, 1);
    postings.renumber(() => -1);
    const scores = new Float64Array(1);
    postings.accumulate(1, 1, scores);
    expect(scores[0]).toBe(0);
    expect(postings.postingCount).toBe(0);
  });
});

describe("PostingLists slot gaps", () => {
  const scoresOf = (postings: PostingLists, termId: number, size: number) => {
    const scores = new Float64Array(size);
    postings.accumulate(termId, 1, scores);
    return scores;
  };

  it("keeps slots far apart (gaps of 65,536 and more) and their weights exactly", () => {
    const postings = new PostingLists();
    const slots = [0, 65_535, 65_536, 131_072, 131_073, 2_000_000];
    for (const [position, slot] of slots.entries()) postings.add(4, slot, 0.1 + position);
    const scores = scoresOf(postings, 4, 2_000_001);
    for (const [position, slot] of slots.entries()) expect(scores[slot]).toBe(Math.fround(0.1 + position));
    expect(scores.reduce((count, score) => count + (score === 0 ? 0 : 1), 0)).toBe(slots.length);

    const saved = [...postings.entries()];
    expect(saved).toHaveLength(1);
    expect(saved[0]?.length).toBe(6);
    expect(saved[0]?.gaps.length).toBe(6 + 2 * 2); // the two gaps of 65,536 or more take 3 units each
  });

  it("refuses a posting that is not after the term's last slot", () => {
    const postings = new PostingLists();
    postings.add(1, 5, 1);
    expect(() => postings.add(1, 5, 1)).toThrow(/not after its last slot 5/);
    expect(() => postings.add(1, 3, 1)).toThrow();
    postings.add(2, 3, 1); // another term has its own order
    expect(postings.postingCount).toBe(2);
  });

  it("renumbers across long gaps and refuses a renumbering that reorders slots", () => {
    const postings = new PostingLists();
    for (const slot of [1, 70_000, 70_001, 200_000]) postings.add(9, slot, slot / 1000);
    postings.renumber((slot) => (slot === 70_000 ? -1 : slot === 200_000 ? 3 : slot === 70_001 ? 2 : 0));
    const scores = scoresOf(postings, 9, 4);
    expect([...scores]).toEqual([Math.fround(0.001), 0, Math.fround(70.001), Math.fround(200)]);
    postings.add(9, 100_000, 1); // appends after the renumbered last slot
    expect(() => postings.renumber((slot) => 100_000 - slot)).toThrow(/keep the slots in order/);
  });

  it("reads concatenated lists back, and refuses ones that do not add up", () => {
    const source = new PostingLists();
    for (const slot of [2, 80_000]) source.add(1, slot, slot);
    source.add(3, 7, 0.5);
    const saved = [...source.entries()];
    const concatenated = () => ({
      termIds: Int32Array.from(saved.map((list) => list.termId)),
      lengths: Int32Array.from(saved.map((list) => list.length)),
      gapUnits: Int32Array.from(saved.map((list) => list.gaps.length)),
      gaps: Uint16Array.from(saved.flatMap((list) => [...list.gaps])),
      weights: Float32Array.from(saved.flatMap((list) => [...list.weights])),
    });
    const restored = PostingLists.fromConcatenated(concatenated(), 80_001);
    expect(restored).not.toBeNull();
    if (!restored) return;
    expect(scoresOf(restored, 1, 80_001)[80_000]).toBe(80_000);
    expect(scoresOf(restored, 3, 80_001)[7]).toBe(0.5);
    restored.add(1, 80_005, 2); // grows past its view of the file
    expect(scoresOf(restored, 1, 80_006)[80_005]).toBe(2);

    expect(PostingLists.fromConcatenated(concatenated(), 80_000)).toBeNull(); // a slot past the space
    const shortUnits = concatenated();
    shortUnits.gapUnits[0] = 2; // the escaped gap cut off
    expect(PostingLists.fromConcatenated(shortUnits, 80_001)).toBeNull();
    const extra = concatenated();
    extra.gaps = Uint16Array.from([...extra.gaps, 1]);
    expect(PostingLists.fromConcatenated(extra, 80_001)).toBeNull();
  });
});
