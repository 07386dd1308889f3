/**
 * Checks a PDF's Flate streams before pdf.js opens the file. pdf.js inflates a stream into one growing
 * buffer outside the V8 heap, so the parse worker's heap cap does not see it: a 2 MB PDF with one stream
 * that inflates to 2 GB was ingested at 4.9 GB of memory. Here every stream whose data starts with a zlib
 * header (pdf.js's FlateDecode demands one) is inflated with a ceiling, counting bytes and keeping none,
 * and the file is refused as `pdf_stream_too_large` once its streams together pass the per-file budget.
 * Streams behind another filter first (ASCIIHex, ASCII85, LZW) or in an encrypted file are not seen here;
 * the memory watchdog in run-in-worker.ts is the backstop for those.
 */
import { ParseError } from "../src/errors.js";
import { inflateBounded } from "./bounded-inflate.js";
import type { ParseLimits } from "./limits.js";

const streamKeyword = Buffer.from("stream", "latin1");
const lineFeed = 0x0a;
const carriageReturn = 0x0d;

/** Whether two bytes are a zlib header naming Deflate (the check pdf.js's FlateStream makes). */
function isZlibHeader(first: number, second: number): boolean {
  return (first & 0x0f) === 8 && ((first << 8) | second) % 31 === 0;
}

/** Offsets where stream data begins: after the keyword `stream` and its end of line (not `endstream`). */
function streamDataOffsets(bytes: Buffer): number[] {
  const offsets: number[] = [];
  for (let at = bytes.indexOf(streamKeyword); at >= 0; at = bytes.indexOf(streamKeyword, at + 1)) {
    if (at >= 3 && bytes.toString("latin1", at - 3, at) === "end") continue;
    let data = at + streamKeyword.byteLength;
    if (bytes[data] === carriageReturn) data += 1;
    if (bytes[data] === lineFeed) data += 1;
    // Without an end of line it is a word that starts with "stream", not the keyword.
    if (data > at + streamKeyword.byteLength) offsets.push(data);
  }
  return offsets;
}

/** Refuses a PDF whose Flate streams inflate past `limits.maxUncompressedBytes` in all. */
export function guardPdfStreams(
  bytes: Uint8Array,
  fileName: string,
  limits: Pick<ParseLimits, "maxUncompressedBytes">,
): void {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let remaining = limits.maxUncompressedBytes;
  for (const offset of streamDataOffsets(buffer)) {
    const first = buffer[offset];
    const second = buffer[offset + 1];
    if (first === undefined || second === undefined || !isZlibHeader(first, second)) continue;
    // The data runs to `endstream` at most; a Deflate stream ends itself before that.
    const end = buffer.indexOf("endstream", offset, "latin1");
    const data = buffer.subarray(offset, end < 0 ? buffer.byteLength : end);
    const inflated = inflateBounded(data, { maxBytes: remaining, format: "zlib", keepOutput: false });
    if (inflated.exceeded) {
      const limitMegabytes = Math.round(limits.maxUncompressedBytes / (1024 * 1024));
      throw new ParseError(
        "pdf_stream_too_large",
        `The compressed content of this PDF expands to more than ${limitMegabytes} MB, so Folio did not open it (it looks like a decompression bomb) — print it to a new PDF or split it, and upload that.`,
        { file: fileName, details: { streamOffset: offset, limitBytes: limits.maxUncompressedBytes } },
      );
    }
    remaining -= inflated.producedBytes;
  }
}
