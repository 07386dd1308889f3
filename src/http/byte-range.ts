/**
 * The one byte range of a `Range: bytes=…` header the source viewer serves (PDF viewers fetch a large
 * file in pieces). A header with several ranges, another unit or bad syntax is ignored (the whole file is
 * sent, as RFC 9110 allows); a well-formed range wholly past the end is unsatisfiable (416).
 */

export type ByteRange = { start: number; end: number };

/** The inclusive range asked for, "unsatisfiable", or null to send the whole representation. */
export function parseByteRange(header: string | undefined, size: number): ByteRange | "unsatisfiable" | null {
  if (header === undefined) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0) return "unsatisfiable";
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return "unsatisfiable";
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return null;
  return { start, end };
}
