/**
 * Reads a ZIP's central directory (without inflating anything) so DOCX/XLSX packages can be
 * checked before mammoth or exceljs inflate them: zip bombs, oversized packages, nested
 * archives and corrupt archives are refused here with a sentence a person can act on.
 * The declared sizes can lie: unpack-zip.ts then inflates each entry with a ceiling at its declared size
 * and refuses the package when an entry runs past it.
 */
import { ParseError } from "../src/errors.js";
import type { ParseLimits } from "./limits.js";

export type ZipEntry = {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  /** 0 = stored, 8 = deflate. */
  method: number;
  /** General-purpose flags; bit 0 = encrypted. */
  flags: number;
  /** Where the entry's local header starts; its data follows that header. */
  localHeaderOffset: number;
};

const endOfCentralDirectorySignature = 0x06054b50;
const zip64LocatorSignature = 0x07064b50;
const zip64EndSignature = 0x06064b50;
const centralEntrySignature = 0x02014b50;
const maxCommentLength = 0xffff;
const endRecordLength = 22;
/** Entries smaller than this may compress arbitrarily well (blank XML) without being a bomb. */
const ratioCheckMinimumBytes = 1024 * 1024;
const nestedArchivePattern = /\.(zip|gz|tgz|7z|rar|bz2|xz|zst)$/i;

function corrupt(fileName: string, detail: string): ParseError {
  return new ParseError(
    "file_corrupt",
    "This file is damaged (its ZIP structure cannot be read) — save it again and re-upload.",
    {
      file: fileName,
      details: { reason: detail },
    },
  );
}

function readUint64(view: DataView, offset: number): number {
  const low = view.getUint32(offset, true);
  const high = view.getUint32(offset + 4, true);
  return high * 0x1_0000_0000 + low;
}

/** Lists the entries of a ZIP archive from its central directory; throws `file_corrupt` when unreadable. */
export function readZipEntries(bytes: Uint8Array, fileName: string): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < endRecordLength) throw corrupt(fileName, "too short");
  let endOffset = -1;
  const searchStart = Math.max(0, bytes.byteLength - endRecordLength - maxCommentLength);
  for (let offset = bytes.byteLength - endRecordLength; offset >= searchStart; offset--) {
    if (view.getUint32(offset, true) === endOfCentralDirectorySignature) {
      endOffset = offset;
      break;
    }
  }
  if (endOffset < 0) throw corrupt(fileName, "no end of central directory");

  let entryCount = view.getUint16(endOffset + 10, true);
  let directorySize = view.getUint32(endOffset + 12, true);
  let directoryOffset = view.getUint32(endOffset + 16, true);
  const locatorOffset = endOffset - 20;
  if (
    (entryCount === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) &&
    locatorOffset >= 0 &&
    view.getUint32(locatorOffset, true) === zip64LocatorSignature
  ) {
    const zip64EndOffset = readUint64(view, locatorOffset + 8);
    if (zip64EndOffset + 56 > bytes.byteLength || view.getUint32(zip64EndOffset, true) !== zip64EndSignature) {
      throw corrupt(fileName, "bad zip64 end record");
    }
    entryCount = readUint64(view, zip64EndOffset + 32);
    directorySize = readUint64(view, zip64EndOffset + 40);
    directoryOffset = readUint64(view, zip64EndOffset + 48);
  }
  if (directoryOffset + directorySize > bytes.byteLength) throw corrupt(fileName, "central directory out of range");

  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder("utf-8");
  let offset = directoryOffset;
  for (let index = 0; index < entryCount; index++) {
    if (offset + 46 > bytes.byteLength || view.getUint32(offset, true) !== centralEntrySignature) {
      throw corrupt(fileName, `bad central directory entry ${index}`);
    }
    const flags = view.getUint16(offset + 8, true);
    const method = view.getUint16(offset + 10, true);
    let compressedSize = view.getUint32(offset + 20, true);
    let uncompressedSize = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    let localHeaderOffset = view.getUint32(offset + 42, true);
    const nameStart = offset + 46;
    const extraStart = nameStart + nameLength;
    const next = extraStart + extraLength + commentLength;
    if (next > bytes.byteLength) throw corrupt(fileName, `entry ${index} out of range`);
    const name = decoder.decode(bytes.subarray(nameStart, extraStart));
    if (uncompressedSize === 0xffffffff || compressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
      // ZIP64 extended information: the 64-bit sizes replace the 0xFFFFFFFF markers, in order.
      let extraOffset = extraStart;
      while (extraOffset + 4 <= extraStart + extraLength) {
        const headerId = view.getUint16(extraOffset, true);
        const dataSize = view.getUint16(extraOffset + 2, true);
        if (headerId === 0x0001) {
          let field = extraOffset + 4;
          if (uncompressedSize === 0xffffffff && field + 8 <= extraOffset + 4 + dataSize) {
            uncompressedSize = readUint64(view, field);
            field += 8;
          }
          if (compressedSize === 0xffffffff && field + 8 <= extraOffset + 4 + dataSize) {
            compressedSize = readUint64(view, field);
            field += 8;
          }
          if (localHeaderOffset === 0xffffffff && field + 8 <= extraOffset + 4 + dataSize) {
            localHeaderOffset = readUint64(view, field);
          }
          break;
        }
        extraOffset += 4 + dataSize;
      }
    }
    entries.push({ name, compressedSize, uncompressedSize, method, flags, localHeaderOffset });
    offset = next;
  }
  return entries;
}

/**
 * Refuses archives that would cost too much to open. Returns the entries so callers (media type
 * detection) can look inside without reading the directory twice.
 */
export function guardZipArchive(
  bytes: Uint8Array,
  fileName: string,
  limits: Pick<ParseLimits, "maxUncompressedBytes" | "maxCompressionRatio" | "maxArchiveEntries">,
): ZipEntry[] {
  const entries = readZipEntries(bytes, fileName);
  if (entries.length > limits.maxArchiveEntries) {
    throw new ParseError(
      "zip_bomb",
      `This file holds ${entries.length} packed parts, more than the ${limits.maxArchiveEntries} allowed — it looks like a zip bomb; upload the original document instead.`,
      { file: fileName, details: { entries: entries.length } },
    );
  }
  let totalUncompressed = 0;
  for (const entry of entries) {
    totalUncompressed += entry.uncompressedSize;
    if (nestedArchivePattern.test(entry.name)) {
      throw new ParseError(
        "zip_bomb",
        "This file contains another compressed archive inside it, which Folio does not open — remove the embedded archive and upload it again.",
        { file: fileName, details: { entry: entry.name } },
      );
    }
    if (entry.uncompressedSize >= ratioCheckMinimumBytes) {
      const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
      if (ratio > limits.maxCompressionRatio) {
        throw new ParseError(
          "zip_bomb",
          `A part of this file expands ${Math.round(ratio)}× when unpacked (more than ${limits.maxCompressionRatio}× is refused) — it looks like a zip bomb; upload the original document instead.`,
          { file: fileName, details: { entry: entry.name, ratio: Math.round(ratio) } },
        );
      }
    }
  }
  if (totalUncompressed > limits.maxUncompressedBytes) {
    const megabytes = Math.round(totalUncompressed / (1024 * 1024));
    const limitMegabytes = Math.round(limits.maxUncompressedBytes / (1024 * 1024));
    throw new ParseError(
      "archive_too_large",
      `This file unpacks to ${megabytes} MB, more than the ${limitMegabytes} MB limit — split it into smaller files and upload them.`,
      { file: fileName, details: { uncompressedBytes: totalUncompressed } },
    );
  }
  return entries;
}
