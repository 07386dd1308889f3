import { describe, expect, it } from "vitest";
import { parseByteRange } from "../../src/http/byte-range.js";

describe("parseByteRange", () => {
  it.each([
    ["bytes=0-99", { start: 0, end: 99 }],
    ["bytes=100-", { start: 100, end: 999 }],
    ["bytes=-100", { start: 900, end: 999 }],
    ["bytes=-5000", { start: 0, end: 999 }],
    ["bytes=990-5000", { start: 990, end: 999 }],
  ])("%s of 1000 bytes", (header, expected) => {
    expect(parseByteRange(header, 1000)).toEqual(expected);
  });

  it("refuses a range wholly past the end, and ignores what it does not serve", () => {
    expect(parseByteRange("bytes=1000-", 1000)).toBe("unsatisfiable");
    expect(parseByteRange("bytes=-0", 1000)).toBe("unsatisfiable");
    expect(
      [undefined, "bytes=0-1,5-6", "items=0-1", "bytes=5-2", "bytes=-", "bytes=a-b"].map((header) =>
        parseByteRange(header, 1000),
      ),
    ).toEqual([null, null, null, null, null, null]);
  });
});
