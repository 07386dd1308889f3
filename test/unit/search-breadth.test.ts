import { describe, expect, it } from "vitest";
import { searchBreadth } from "../../src/stores/approximate-dense-index.js";

describe("searchBreadth", () => {
  it("keeps the configured ef up to 370K vectors and widens it with size^0.75 past that", () => {
    expect(searchBreadth(5_183, 256)).toBe(256);
    expect(searchBreadth(370_000, 256)).toBe(256);
    expect(searchBreadth(500_000, 256)).toBe(321);
    expect(searchBreadth(1_000_000, 256)).toBe(540);
    expect(searchBreadth(1_000_000, 128)).toBe(270);
  });
});
