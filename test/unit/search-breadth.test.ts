import { describe, expect, it } from "vitest";
import { searchBreadth } from "../../src/stores/approximate-dense-index.js";

describe("searchBreadth", () => {
  it("keeps the configured ef up to 100K vectors and widens it with size^0.75 past that", () => {
    expect(searchBreadth(5_183, 96)).toBe(96);
    expect(searchBreadth(100_000, 96)).toBe(96);
    expect(searchBreadth(500_000, 96)).toBe(321);
    expect(searchBreadth(1_000_000, 96)).toBe(540);
    expect(searchBreadth(1_000_000, 200)).toBe(1125);
  });
});
