/**
 * Writes small Excel 97–2003 files for tests: BIFF8 records, a workbook stream (globals, BOUNDSHEETs
 * pointing at sheet substreams) and the OLE2 container around it, so parser tests can state exactly
 * the records a hostile or unusual file holds. Real files from Excel are tested separately.
 */

export type BiffBytes = Uint8Array;

export const u16 = (value: number): number[] => [value & 0xff, (value >> 8) & 0xff];
export const u32 = (value: number): number[] => [0, 8, 16, 24].map((shift) => (value >>> shift) & 0xff);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

export function record(type: number, data: number[] = []): BiffBytes {
  return Uint8Array.from([...u16(type), ...u16(data.length), ...data]);
}

/** An 8-bit XLUnicodeString (Latin-1 text), with a 1- or 2-byte length. */
export function latinString(text: string, lengthBytes: 1 | 2 = 2): number[] {
  const length = lengthBytes === 1 ? [text.length] : u16(text.length);
  return [...length, 0x00, ...Array.from(text, (character) => character.charCodeAt(0) & 0xff)];
}

export const label = (row: number, column: number, text: string): BiffBytes =>
  record(0x0204, [...u16(row), ...u16(column), ...u16(0), ...latinString(text)]);

/** A FORMULA whose cached result is a string (the STRING record after it holds the text). */
export const stringFormula = (row: number, column: number): BiffBytes =>
  record(0x0006, [...u16(row), ...u16(column), ...u16(0), 0x00, 0, 0, 0, 0, 0, 0xff, 0xff, ...u16(0), ...u32(0)]);

export const formulaString = (text: string): BiffBytes => record(0x0207, latinString(text));

const beginOfFile = (substreamType: number): BiffBytes =>
  record(0x0809, [...u16(0x0600), ...u16(substreamType), ...u16(0), ...u16(0), ...u32(0), ...u32(0)]);
const endOfFile = (): BiffBytes => record(0x000a);

export type SheetSpec = { name: string; records: BiffBytes[] };

/**
 * A workbook stream: globals (BOF, `globals`, one BOUNDSHEET per sheet, EOF), then each sheet's
 * substream. `offsetOf` may point a BOUNDSHEET elsewhere than at its own substream.
 */
export function workbookStream(
  sheets: SheetSpec[],
  globals: BiffBytes[] = [],
  offsetOf: (index: number, actual: number[]) => number = (index, actual) => actual[index] ?? 0,
): Uint8Array {
  const bodies = sheets.map((sheet) => concat([beginOfFile(0x0010), ...sheet.records, endOfFile()]));
  const boundSheetLength = (name: string) => 4 + 6 + 2 + name.length;
  const globalsLength =
    beginOfFile(0x0005).byteLength +
    concat(globals).byteLength +
    sheets.reduce((sum, sheet) => sum + boundSheetLength(sheet.name), 0) +
    endOfFile().byteLength;
  const actual: number[] = [];
  let offset = globalsLength;
  for (const body of bodies) {
    actual.push(offset);
    offset += body.byteLength;
  }
  const boundSheets = sheets.map((sheet, index) =>
    record(0x0085, [...u32(offsetOf(index, actual)), 0, 0, ...latinString(sheet.name, 1)]),
  );
  return concat([beginOfFile(0x0005), ...globals, ...boundSheets, endOfFile(), ...bodies]);
}

/** An OLE2 container (512-byte sectors, version 3) holding one stream under the root, in regular sectors. */
export function compoundFile(stream: Uint8Array, streamName = "Workbook"): Uint8Array {
  const sector = 512;
  const streamSectors = Math.max(8, Math.ceil(stream.byteLength / sector)); // >= 4096 bytes: not in the mini stream
  let fatSectors = 1;
  while (fatSectors * 128 < fatSectors + 1 + streamSectors) fatSectors += 1;
  const directorySector = fatSectors;
  const firstStreamSector = fatSectors + 1;
  const file = new Uint8Array(sector * (1 + firstStreamSector + streamSectors));
  const view = new DataView(file.buffer);
  file.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  view.setUint16(0x18, 0x3e, true);
  view.setUint16(0x1a, 3, true);
  view.setUint16(0x1c, 0xfffe, true);
  view.setUint16(0x1e, 9, true);
  view.setUint16(0x20, 6, true);
  view.setUint32(0x2c, fatSectors, true);
  view.setUint32(0x30, directorySector, true);
  view.setUint32(0x38, 4096, true);
  view.setUint32(0x3c, 0xfffffffe, true);
  view.setUint32(0x44, 0xfffffffe, true);
  for (let index = 0; index < 109; index++)
    view.setUint32(0x4c + index * 4, index < fatSectors ? index : 0xffffffff, true);
  const setFat = (index: number, value: number) => view.setUint32(sector + index * 4, value, true);
  for (let index = 0; index < fatSectors * 128; index++) setFat(index, 0xffffffff);
  for (let index = 0; index < fatSectors; index++) setFat(index, 0xfffffffd);
  setFat(directorySector, 0xfffffffe);
  for (let index = 0; index < streamSectors; index++) {
    setFat(firstStreamSector + index, index === streamSectors - 1 ? 0xfffffffe : firstStreamSector + index + 1);
  }
  const entry = (id: number, name: string, type: number, child: number, start: number, size: number) => {
    const at = sector * (1 + directorySector) + id * 128;
    for (let index = 0; index < name.length; index++) view.setUint16(at + index * 2, name.charCodeAt(index), true);
    view.setUint16(at + 0x40, (name.length + 1) * 2, true);
    file[at + 0x42] = type;
    view.setUint32(at + 0x44, 0xffffffff, true);
    view.setUint32(at + 0x48, 0xffffffff, true);
    view.setUint32(at + 0x4c, child, true);
    view.setUint32(at + 0x74, start, true);
    view.setUint32(at + 0x78, size, true);
  };
  entry(0, "Root Entry", 5, 1, 0xfffffffe, 0);
  entry(1, streamName, 2, 0xffffffff, firstStreamSector, streamSectors * sector);
  file.set(stream, sector * (1 + firstStreamSector));
  return file;
}
