/**
 * Reads the streams of a Compound File Binary container ([MS-CFB]), the OLE2 "file system" that
 * legacy Office files (.xls, .doc) and encrypted OOXML packages live in. Only reading, only what
 * Folio needs: the names of the root storage's streams and the bytes of one of them.
 *
 * Every sector number, chain and size comes from an untrusted file, so each is checked: chains
 * may not loop or leave the file, and a stream may not claim more bytes than its chain holds.
 * A violation throws CompoundFileError; callers turn it into their own user-facing refusal.
 */

export class CompoundFileError extends Error {
  override name = "CompoundFileError";
}

const signature = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const headerSize = 512;
const directoryEntrySize = 128;
const headerDifatEntries = 109;
/** Sector-number sentinels: ENDOFCHAIN, FREESECT; everything >= MAXREGSECT is not a real sector. */
const endOfChain = 0xfffffffe;
const freeSector = 0xffffffff;
const maxRegularSector = 0xfffffffa;
const noStream = 0xffffffff;
const streamObject = 2;
const rootObject = 5;

type CompoundFileEntry = {
  name: string;
  /** 1 storage, 2 stream, 5 root. */
  type: number;
  left: number;
  right: number;
  child: number;
  startSector: number;
  size: number;
};

export type CompoundFile = {
  /** Names of the streams directly under the root storage. */
  rootStreamNames(): string[];
  /** The bytes of a stream directly under the root storage (name compared case-insensitively), or null. */
  readRootStream(name: string): Uint8Array | null;
};

export function isCompoundFile(bytes: Uint8Array): boolean {
  return bytes.byteLength >= headerSize && signature.every((value, index) => bytes[index] === value);
}

function fail(reason: string): never {
  throw new CompoundFileError(reason);
}

/** The header's geometry, and reads of little-endian numbers and of whole sectors, each checked. */
type Container = {
  bytes: Uint8Array;
  u32(offset: number): number;
  sectorSize: number;
  miniSectorSize: number;
  sectorCount: number;
  entriesPerSector: number;
  /** Where a sector starts in the file; a sector outside the file or cut short is refused. */
  sectorOffset(sector: number): number;
};

function readHeader(bytes: Uint8Array): Container {
  if (!isCompoundFile(bytes)) fail("not a compound file (signature missing)");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (offset: number) => view.getUint16(offset, true);
  if (u16(0x1c) !== 0xfffe) fail("byte order mark is not little-endian");
  const sectorShift = u16(0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) fail(`unsupported sector size 2^${sectorShift}`);
  const sectorSize = 1 << sectorShift;
  const miniSectorShift = u16(0x20);
  if (miniSectorShift !== 6) fail(`unsupported mini sector size 2^${miniSectorShift}`);
  const sectorCount = Math.floor((bytes.byteLength - headerSize) / sectorSize) + 1;
  return {
    bytes,
    u32: (offset) => view.getUint32(offset, true),
    sectorSize,
    miniSectorSize: 1 << miniSectorShift,
    sectorCount,
    entriesPerSector: sectorSize / 4,
    sectorOffset(sector) {
      if (sector >= maxRegularSector || sector >= sectorCount) fail(`sector ${sector} lies outside the file`);
      const offset = (sector + 1) * sectorSize;
      if (offset + sectorSize > bytes.byteLength) fail(`sector ${sector} is truncated`);
      return offset;
    },
  };
}

/** The file allocation table, from the sectors the DIFAT lists: 109 in the header, the rest in a chain of DIFAT sectors. */
function readFat(container: Container): Uint32Array {
  const { u32, sectorSize, sectorCount, entriesPerSector, sectorOffset } = container;
  const fatSectors: number[] = [];
  for (let index = 0; index < headerDifatEntries; index++) {
    const sector = u32(0x4c + index * 4);
    if (sector < maxRegularSector) fatSectors.push(sector);
  }
  const visitedDifat = new Set<number>();
  let difatSector = u32(0x44);
  while (difatSector < maxRegularSector) {
    if (visitedDifat.has(difatSector)) fail("the DIFAT chain loops");
    visitedDifat.add(difatSector);
    const offset = sectorOffset(difatSector);
    for (let index = 0; index < entriesPerSector - 1; index++) {
      const sector = u32(offset + index * 4);
      if (sector < maxRegularSector) fatSectors.push(sector);
    }
    if (fatSectors.length > sectorCount) fail("the file allocation table is larger than the file");
    difatSector = u32(offset + sectorSize - 4);
  }
  if (fatSectors.length === 0) fail("the file allocation table is empty");
  if (fatSectors.length > sectorCount) fail("the file allocation table is larger than the file");
  const fat = new Uint32Array(fatSectors.length * entriesPerSector);
  fatSectors.forEach((sector, fatIndex) => {
    const offset = sectorOffset(sector);
    for (let index = 0; index < entriesPerSector; index++)
      fat[fatIndex * entriesPerSector + index] = u32(offset + index * 4);
  });
  return fat;
}

/** Sector numbers of a chain in `table`, checked for loops and bounds. */
function followChain(table: Uint32Array, start: number, limit: number, what: string): number[] {
  const sectors: number[] = [];
  const seen = new Set<number>();
  let sector = start;
  while (sector !== endOfChain) {
    if (sector === freeSector || sector >= table.length || sector >= limit) fail(`the ${what} chain is broken`);
    if (seen.has(sector)) fail(`the ${what} chain loops`);
    seen.add(sector);
    sectors.push(sector);
    sector = table[sector] ?? freeSector;
  }
  return sectors;
}

/** The bytes of a chain of regular sectors; `size` null reads the whole chain. */
function readRegular(
  container: Container,
  fat: Uint32Array,
  start: number,
  size: number | null,
  what: string,
): Uint8Array {
  const { bytes, sectorSize, sectorOffset } = container;
  const sectors = followChain(fat, start, container.sectorCount, what);
  const capacity = sectors.length * sectorSize;
  const length = size ?? capacity;
  if (length > capacity) fail(`the ${what} claims ${length} bytes but its chain holds ${capacity}`);
  const out = new Uint8Array(length);
  let written = 0;
  for (const sector of sectors) {
    if (written >= length) break;
    const offset = sectorOffset(sector);
    const take = Math.min(sectorSize, length - written);
    out.set(bytes.subarray(offset, offset + take), written);
    written += take;
  }
  return out;
}

function readDirectory(directoryBytes: Uint8Array): CompoundFileEntry[] {
  const entries: CompoundFileEntry[] = [];
  for (let offset = 0; offset + directoryEntrySize <= directoryBytes.byteLength; offset += directoryEntrySize) {
    const entry = new DataView(directoryBytes.buffer, offset, directoryEntrySize);
    const nameBytes = Math.min(entry.getUint16(0x40, true), 64);
    const name = Buffer.from(directoryBytes.subarray(offset, offset + Math.max(0, nameBytes - 2))).toString("utf16le");
    entries.push({
      name,
      type: entry.getUint8(0x42),
      left: entry.getUint32(0x44, true),
      right: entry.getUint32(0x48, true),
      child: entry.getUint32(0x4c, true),
      startSector: entry.getUint32(0x74, true),
      // Version 3 files may leave garbage in the high half; no stream Folio reads is 4 GB.
      size: entry.getUint32(0x78, true),
    });
  }
  return entries;
}

/** Reads of streams kept in the mini stream; the mini FAT and the mini stream are read on first use. */
function miniStreamReader(
  container: Container,
  fat: Uint32Array,
  root: CompoundFileEntry,
): (start: number, size: number, what: string) => Uint8Array {
  const { miniSectorSize } = container;
  let miniFat: Uint32Array | null = null;
  let miniStream: Uint8Array | null = null;
  return (start, size, what) => {
    if (miniFat === null) {
      const miniFatStart = container.u32(0x3c);
      const miniFatBytes =
        miniFatStart === endOfChain ? new Uint8Array(0) : readRegular(container, fat, miniFatStart, null, "mini FAT");
      miniFat = new Uint32Array(miniFatBytes.byteLength / 4);
      const miniView = new DataView(miniFatBytes.buffer);
      for (let index = 0; index < miniFat.length; index++) miniFat[index] = miniView.getUint32(index * 4, true);
      miniStream =
        root.startSector === endOfChain
          ? new Uint8Array(0)
          : readRegular(container, fat, root.startSector, root.size, "mini stream");
    }
    const stream = miniStream ?? new Uint8Array(0);
    const sectors = followChain(miniFat, start, Math.floor(stream.byteLength / miniSectorSize), what);
    if (size > sectors.length * miniSectorSize) fail(`the ${what} claims more bytes than its chain holds`);
    const out = new Uint8Array(size);
    let written = 0;
    for (const sector of sectors) {
      if (written >= size) break;
      const take = Math.min(miniSectorSize, size - written);
      out.set(stream.subarray(sector * miniSectorSize, sector * miniSectorSize + take), written);
      written += take;
    }
    return out;
  };
}

/** The root storage's children: an in-order walk of the red-black tree under root.child. */
function rootChildren(entries: CompoundFileEntry[], root: CompoundFileEntry): CompoundFileEntry[] {
  const children: CompoundFileEntry[] = [];
  const seen = new Set<number>();
  const pending = [root.child];
  while (pending.length > 0) {
    const id = pending.pop() as number;
    if (id === noStream) continue;
    const entry = entries[id];
    if (entry === undefined || seen.has(id)) fail("the directory tree is broken");
    seen.add(id);
    children.push(entry);
    pending.push(entry.left, entry.right);
  }
  return children;
}

/** Parses the container's header, FAT, mini FAT and directory; stream bytes are read on demand. */
export function openCompoundFile(bytes: Uint8Array): CompoundFile {
  const container = readHeader(bytes);
  const fat = readFat(container);
  const entries = readDirectory(readRegular(container, fat, container.u32(0x30), null, "directory"));
  const root = entries[0];
  if (root === undefined || root.type !== rootObject) fail("the directory has no root entry");
  const readMini = miniStreamReader(container, fat, root);
  // [MS-CFB] fixes the cutoff at 4096; a file claiming another is read as the spec says.
  const miniStreamCutoff = 4096;
  return {
    rootStreamNames: () =>
      rootChildren(entries, root)
        .filter((entry) => entry.type === streamObject)
        .map((entry) => entry.name),
    readRootStream(name) {
      const wanted = name.toLowerCase();
      const entry = rootChildren(entries, root).find(
        (child) => child.type === streamObject && child.name.toLowerCase() === wanted,
      );
      if (entry === undefined) return null;
      if (entry.size === 0) return new Uint8Array(0);
      return entry.size < miniStreamCutoff
        ? readMini(entry.startSector, entry.size, `"${entry.name}" stream`)
        : readRegular(container, fat, entry.startSector, entry.size, `"${entry.name}" stream`);
    },
  };
}
