/**
 * Checks a PDF's Flate streams before pdf.js opens the file. pdf.js inflates a stream into one growing
 * buffer outside the V8 heap, so the parse worker's heap cap does not see it: a 2 MB PDF with one stream
 * that inflates to 2 GB was ingested at 4.9 GB of memory. Here every stream whose data starts with a zlib
 * header (pdf.js's FlateDecode demands one) is inflated with a ceiling, counting bytes and keeping none,
 * and the file is refused as `pdf_stream_too_large` when one stream passes the budget or all together
 * pass four times it.
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

/** How many times the per-stream budget a PDF's Flate streams may inflate to in all. */
const TOTAL_BUDGET_FACTOR = 4;

function tooLarge(fileName: string, offset: number, limitBytes: number): ParseError {
  const limitMegabytes = Math.round(limitBytes / (1024 * 1024));
  return new ParseError(
    "pdf_stream_too_large",
    `The compressed content of this PDF expands to more than ${limitMegabytes} MB, so Folio did not open it (it looks like a decompression bomb) — print it to a new PDF or split it, and upload that.`,
    { file: fileName, details: { streamOffset: offset, limitBytes } },
  );
}

/**
 * Refuses a PDF with a Flate stream that inflates past `limits.maxUncompressedBytes`, or whose Flate
 * streams together inflate past four times that. pdf.js decodes one stream at a time and lets it go
 * (a page's content, an image it draws), so the single stream bounds memory; the total bounds time.
 * Images count too: which stream is a page's content is up to the file, not the stream's dictionary.
 */
export function guardPdfStreams(
  bytes: Uint8Array,
  fileName: string,
  limits: Pick<ParseLimits, "maxUncompressedBytes">,
): void {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const totalBudget = TOTAL_BUDGET_FACTOR * limits.maxUncompressedBytes;
  let total = 0;
  let scannedBytes = 0;
  for (const offset of streamDataOffsets(buffer)) {
    const first = buffer[offset];
    const second = buffer[offset + 1];
    if (first === undefined || second === undefined || !isZlibHeader(first, second)) continue;
    // Not cut at `endstream`: pdf.js reads /Length bytes, and a bomb could carry an early "endstream"
    // inside its data; a Deflate stream ends itself, and the inflater stops there.
    const ceiling = Math.min(limits.maxUncompressedBytes, totalBudget - total);
    const inflated = inflateBounded(buffer.subarray(offset), { maxBytes: ceiling, format: "zlib", keepOutput: false });
    if (inflated.exceeded) {
      throw tooLarge(fileName, offset, ceiling === limits.maxUncompressedBytes ? ceiling : totalBudget);
    }
    total += inflated.producedBytes;
    // Streams nested in other streams' data could make this scan quadratic; real PDFs stay far below
    // this (each stream counts at least one 4 KB step), and past it the memory watchdog is the guard.
    scannedBytes += inflated.consumedBytes;
    if (scannedBytes > 8 * buffer.byteLength + 16 * 1024 * 1024) return;
  }
}
