/**
 * Inflates Deflate data with a ceiling on its output. The compressed bytes are fed to fflate's
 * streaming inflater a few kilobytes at a time, so one step can produce at most about a thousand times
 * that (Deflate's largest ratio), and inflation stops as soon as the output passes the ceiling: a bomb
 * costs the ceiling plus one step, never its full size. Used for ZIP entries (DOCX/XLSX) and for the
 * Flate streams of a PDF.
 */
import { Inflate, Unzlib } from "fflate";

/** Compressed bytes per step: at Deflate's maximum ratio (~1032:1) one step yields at most ~4 MB. */
const inputStepBytes = 4096;

export type BoundedInflation = {
  /** The inflated bytes, up to the ceiling (empty when `keepOutput` is false). */
  bytes: Uint8Array;
  /** Bytes produced, counted even when not kept; at most the ceiling plus one step's output. */
  producedBytes: number;
  /** True when the data inflates past the ceiling; inflation stopped there. */
  exceeded: boolean;
  /** True when the Deflate data ended by itself (a stream cut short or followed by garbage is not). */
  ended: boolean;
  /** Set when the inflater refused the data as invalid Deflate. */
  invalid: boolean;
  /** Compressed bytes handed to the inflater (the data's Deflate stream ends within the last step). */
  consumedBytes: number;
};

export type BoundedInflateOptions = {
  /** Most bytes the data may inflate to. */
  maxBytes: number;
  /** `raw` for ZIP entries; `zlib` (a two-byte header and a checksum) for PDF FlateDecode. */
  format: "raw" | "zlib";
  /** Keep the output (ZIP entries) or only count it (PDF streams, which pdf.js inflates later). */
  keepOutput: boolean;
};

/**
 * Whether the inflater has read the Deflate stream's final block. fflate says so only when told the
 * input is final; without this, data followed by more bytes (a PDF stream, then the rest of the file)
 * would be fed to the end and kept in the inflater's input buffer. Reads fflate 0.8's state (`s.f`:
 * final block seen, `s.l`: a block still open); test/unit/bounded-decompression.test.ts pins it.
 */
function finishedFinalBlock(inflater: Inflate | Unzlib): boolean {
  const state = (inflater as unknown as { s?: { f?: number; l?: unknown } }).s;
  return state?.f === 1 && !state.l;
}

/** Inflates `compressed`, stopping once the output passes `maxBytes`. */
export function inflateBounded(compressed: Uint8Array, options: BoundedInflateOptions): BoundedInflation {
  const parts: Uint8Array[] = [];
  let producedBytes = 0;
  let exceeded = false;
  let ended = false;
  const onData = (chunk: Uint8Array, final: boolean) => {
    producedBytes += chunk.byteLength;
    if (producedBytes > options.maxBytes) exceeded = true;
    else if (options.keepOutput && chunk.byteLength > 0) parts.push(chunk);
    if (final) ended = true;
  };
  const inflater = options.format === "raw" ? new Inflate(onData) : new Unzlib(onData);
  let invalid = false;
  let consumedBytes = 0;
  try {
    for (let offset = 0; offset < compressed.byteLength && !exceeded && !ended; offset += inputStepBytes) {
      const end = Math.min(compressed.byteLength, offset + inputStepBytes);
      consumedBytes = end;
      inflater.push(compressed.subarray(offset, end), end === compressed.byteLength);
      if (finishedFinalBlock(inflater)) ended = true;
    }
  } catch {
    // Invalid Deflate: the caller decides (a ZIP entry is corrupt; a PDF stream is left to pdf.js).
    invalid = true;
  }
  return {
    bytes: exceeded || !options.keepOutput ? new Uint8Array(0) : concatenate(parts, producedBytes),
    producedBytes,
    exceeded,
    ended,
    invalid,
    consumedBytes,
  };
}

function concatenate(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}
