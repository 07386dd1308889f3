/**
 * Unpacks a DOCX/XLSX package with bounded inflation before any parser sees it. The central directory
 * is checked first (zip-guard.ts: entry count, ratio, nested archives, declared total); then every entry
 * is inflated by a streaming inflater that stops at its declared size, which the guard has already held
 * under the per-file budget. An entry whose data runs past (or falls short of) its declared size is
 * refused as `zip_size_mismatch`: the declared sizes are what the budget was checked against, so a
 * package that lies about them is not opened. The parsers then get the entries already inflated, repacked
 * without compression, so mammoth and exceljs never run an inflater of their own on uploaded bytes.
 */
import { zipSync } from "fflate";
import { ParseError } from "../src/errors.js";
import { inflateBounded } from "./bounded-inflate.js";
import type { ParseLimits } from "./limits.js";
import { guardZipArchive, type ZipEntry } from "./zip-guard.js";

const localHeaderSignature = 0x04034b50;
const localHeaderLength = 30;

export type UnpackedZip = {
  /** Entry name → inflated bytes, every one within its declared size. */
  files: Record<string, Uint8Array>;
  /** The same entries as a stored (uncompressed) ZIP, for parsers that take a package. */
  stored: () => Uint8Array;
};

type UnpackLimits = Pick<ParseLimits, "maxUncompressedBytes" | "maxCompressionRatio" | "maxArchiveEntries">;

function corrupt(fileName: string, entry: string, reason: string): ParseError {
  return new ParseError(
    "file_corrupt",
    "This file is damaged (a packed part cannot be unpacked) — save it again and re-upload.",
    { file: fileName, details: { entry, reason } },
  );
}

function sizeMismatch(fileName: string, entry: ZipEntry, reason: string): ParseError {
  return new ParseError(
    "zip_size_mismatch",
    "A packed part of this file unpacks to a different size than the file declares, so Folio did not open it (this is how decompression bombs hide) — save the document again in its original program and re-upload.",
    { file: fileName, details: { entry: entry.name, declaredBytes: entry.uncompressedSize, reason } },
  );
}

/** Where an entry's compressed data starts, read from its local header. */
function dataOffset(bytes: Uint8Array, view: DataView, entry: ZipEntry, fileName: string): number {
  const header = entry.localHeaderOffset;
  if (header + localHeaderLength > bytes.byteLength || view.getUint32(header, true) !== localHeaderSignature) {
    throw corrupt(fileName, entry.name, "bad local header");
  }
  const nameLength = view.getUint16(header + 26, true);
  const extraLength = view.getUint16(header + 28, true);
  const start = header + localHeaderLength + nameLength + extraLength;
  if (start + entry.compressedSize > bytes.byteLength) throw corrupt(fileName, entry.name, "data out of range");
  return start;
}

function unpackEntry(bytes: Uint8Array, view: DataView, entry: ZipEntry, fileName: string): Uint8Array {
  if ((entry.flags & 0x1) !== 0) {
    throw new ParseError("office_encrypted", "This file is encrypted — remove the password and upload it again.", {
      file: fileName,
      details: { entry: entry.name },
    });
  }
  const start = dataOffset(bytes, view, entry, fileName);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.uncompressedSize) throw sizeMismatch(fileName, entry, "stored size differs");
    return data;
  }
  if (entry.method !== 8) throw corrupt(fileName, entry.name, `compression method ${entry.method}`);
  const inflated = inflateBounded(data, { maxBytes: entry.uncompressedSize, format: "raw", keepOutput: true });
  if (inflated.exceeded) throw sizeMismatch(fileName, entry, "inflates past its declared size");
  if (inflated.invalid) throw corrupt(fileName, entry.name, "invalid deflate data");
  if (inflated.producedBytes !== entry.uncompressedSize) throw sizeMismatch(fileName, entry, "inflates short");
  return inflated.bytes;
}

/**
 * Checks and unpacks a ZIP package within `limits.maxUncompressedBytes` in all. Throws `zip_bomb`,
 * `archive_too_large`, `zip_size_mismatch`, `office_encrypted` or `file_corrupt`.
 */
export function unpackZip(bytes: Uint8Array, fileName: string, limits: UnpackLimits): UnpackedZip {
  const entries = guardZipArchive(bytes, fileName, limits);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // No prototype: an entry named "__proto__" must be an entry, not a change of the object's prototype.
  const files: Record<string, Uint8Array> = Object.create(null);
  for (const entry of entries) {
    // Directory entries carry no data; duplicate names would let a second copy replace a checked one.
    if (entry.name.endsWith("/")) continue;
    if (Object.hasOwn(files, entry.name)) throw corrupt(fileName, entry.name, "duplicate entry name");
    files[entry.name] = unpackEntry(bytes, view, entry, fileName);
  }
  return { files, stored: () => zipSync(files, { level: 0 }) };
}
