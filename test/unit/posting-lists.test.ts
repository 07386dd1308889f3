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
