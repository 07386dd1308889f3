/**
 * The part of a space's search structures that is not in its HNSW index — the slots (chunk and document
 * ids, which slots are alive, each slot's key in the index) and the BM25 postings — in one binary file,
 * so a restart reads it back instead of reading every chunk's sparse vector from the database and
 * rebuilding the postings (which took 174 s at 100K chunks under load, and grows with chunks × terms).
 *
 * Layout (little-endian): magic `FOLIOSP2`; u32 header length and the JSON header (counts and byte
 * lengths); the chunk ids and the distinct document ids as text, one a line; padding to 4 bytes;
 * i32 × slots document number (−1 − number for a dead slot); i32 × slots key (−1 none); i32 × terms term
 * id; i32 × terms list length; i32 × terms list gap units; f32 × postings weights; u16 × gap units the
 * lists' slot gaps (posting-lists.ts); magic `FOLIOEND`. A `FOLIOSP1` file (slots as i32, before gaps)
 * is not read: the space is rebuilt from the database once and saved in this form.
 * Whether the file is current is the manifest's business (dense-index-snapshots.ts); this module only
 * refuses a file whose shape does not add up (truncated, or not written by it) by returning null.
 */
import { open } from "node:fs/promises";
import { PostingLists } from "./posting-lists.js";

const MAGIC = Buffer.from("FOLIOSP2", "ascii");
const END = Buffer.from("FOLIOEND", "ascii");
/** Writes go out in blocks of this size, so a large save yields to the event loop between them. */
const WRITE_BLOCK = 8 * 2 ** 20;

export type SpaceRows = {
  chunkIds: string[];
  documentIds: string[];
  alive: boolean[];
  /** Key of each slot's vector in the approximate index; -1 for none. */
  keyOfSlot: number[];
  postings: PostingLists;
};

type Header = {
  slots: number;
  documents: number;
  terms: number;
  postings: number;
  gapUnits: number;
  chunkIdBytes: number;
  documentIdBytes: number;
};

/** Buffers small pieces into blocks and writes each block once it is full. */
class BlockWriter {
  private block = Buffer.allocUnsafe(WRITE_BLOCK);
  private used = 0;
  bytes = 0;
  constructor(private readonly handle: Awaited<ReturnType<typeof open>>) {}

  async write(data: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < data.length) {
      const count = Math.min(data.length - offset, this.block.length - this.used);
      this.block.set(data.subarray(offset, offset + count), this.used);
      this.used += count;
      offset += count;
      if (this.used === this.block.length) await this.flush();
    }
    this.bytes += data.length;
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    await this.handle.write(this.block, 0, this.used);
    this.used = 0;
  }
}

const bytesOf = (array: Int32Array | Float32Array | Uint16Array) =>
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/** Writes the space's rows and postings to `file` (flushed to disk); returns its size in bytes. */
export async function writeSpaceFile(file: string, rows: SpaceRows): Promise<number> {
  const slots = rows.chunkIds.length;
  const documentNumber = new Map<string, number>();
  const documentOfSlot = new Int32Array(slots);
  for (let slot = 0; slot < slots; slot += 1) {
    const documentId = rows.documentIds[slot] ?? "";
    let number = documentNumber.get(documentId);
    if (number === undefined) {
      number = documentNumber.size;
      documentNumber.set(documentId, number);
    }
    documentOfSlot[slot] = rows.alive[slot] ? number : -1 - number;
  }
  const chunkIdText = Buffer.from(rows.chunkIds.join("\n"), "utf8");
  const documentIdText = Buffer.from([...documentNumber.keys()].join("\n"), "utf8");
  const termIds: number[] = [];
  const lengths: number[] = [];
  const gapUnits: number[] = [];
  for (const { termId, length, gaps } of rows.postings.entries()) {
    termIds.push(termId);
    lengths.push(length);
    gapUnits.push(gaps.length);
  }
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const header: Header = {
    slots,
    documents: documentNumber.size,
    terms: termIds.length,
    postings: sum(lengths),
    gapUnits: sum(gapUnits),
    chunkIdBytes: chunkIdText.length,
    documentIdBytes: documentIdText.length,
  };
  const headerText = Buffer.from(JSON.stringify(header), "utf8");
  const handle = await open(file, "w", 0o600);
  try {
    const writer = new BlockWriter(handle);
    const length = Buffer.alloc(4);
    length.writeUInt32LE(headerText.length);
    for (const part of [MAGIC, length, headerText, chunkIdText, documentIdText]) await writer.write(part);
    await writer.write(new Uint8Array((4 - (writer.bytes % 4)) % 4));
    await writer.write(bytesOf(documentOfSlot));
    await writer.write(bytesOf(Int32Array.from(rows.keyOfSlot)));
    await writer.write(bytesOf(Int32Array.from(termIds)));
    await writer.write(bytesOf(Int32Array.from(lengths)));
    await writer.write(bytesOf(Int32Array.from(gapUnits)));
    // The passes see the lists in the same order: nothing changes the postings while a space is saved.
    for (const { weights } of rows.postings.entries()) await writer.write(bytesOf(weights));
    for (const { gaps } of rows.postings.entries()) await writer.write(bytesOf(gaps));
    await writer.write(END);
    await writer.flush();
    await handle.sync();
    return writer.bytes;
  } finally {
    await handle.close();
  }
}

/** Reads `length` bytes at `position` into a buffer of its own (a whole ArrayBuffer, so views align). */
async function readExactly(
  handle: Awaited<ReturnType<typeof open>>,
  position: number,
  length: number,
): Promise<Buffer | null> {
  const buffer = Buffer.from(new ArrayBuffer(length));
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) return null;
    done += bytesRead;
  }
  return buffer;
}

/**
 * The rows and postings saved by `writeSpaceFile`, or null when the file is missing or does not add up.
 * Read in two parts: the ids and per-slot numbers (turned into JS arrays, then dropped), and the postings
 * into a buffer of their own that the lists view without copying, so nothing else of the file stays in
 * memory (~45 MB at 1M chunks).
 */
export async function readSpaceFile(file: string, expectedBytes: number): Promise<SpaceRows | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, "r");
  } catch {
    return null;
  }
  try {
    return await readOpenSpaceFile(handle, expectedBytes);
  } finally {
    await handle.close();
  }
}

async function readOpenSpaceFile(
  handle: Awaited<ReturnType<typeof open>>,
  expectedBytes: number,
): Promise<SpaceRows | null> {
  if ((await handle.stat()).size !== expectedBytes || expectedBytes < 20) return null;
  const start = await readExactly(handle, 0, 12);
  if (!start?.subarray(0, 8).equals(MAGIC)) return null;
  const headerLength = start.readUInt32LE(8);
  const headerBytes = await readExactly(handle, 12, Math.min(headerLength, expectedBytes - 12));
  let header: Header;
  try {
    header = JSON.parse(headerBytes?.toString("utf8") ?? "") as Header;
  } catch {
    return null;
  }
  const textStart = 12 + headerLength;
  const textBytes = header.chunkIdBytes + header.documentIdBytes;
  const slotsStart = textStart + textBytes + ((4 - ((textStart + textBytes) % 4)) % 4);
  const postingsStart = slotsStart + 8 * header.slots;
  const postingsBytes = 12 * header.terms + 4 * header.postings + 2 * header.gapUnits;
  if (!Number.isSafeInteger(postingsBytes)) return null;
  if (postingsStart + postingsBytes + END.length !== expectedBytes) return null;
  const front = await readExactly(handle, textStart, textBytes);
  const slotBytes = await readExactly(handle, slotsStart, 8 * header.slots);
  const back = await readExactly(handle, postingsStart, postingsBytes + END.length);
  if (!front || !slotBytes || !back?.subarray(postingsBytes).equals(END)) return null;

  const split = (from: number, bytes: number) => {
    const value = front.toString("utf8", from, from + bytes);
    return value === "" ? [] : value.split("\n");
  };
  const chunkIds = split(0, header.chunkIdBytes);
  const documents = split(header.chunkIdBytes, header.documentIdBytes);
  if (chunkIds.length !== header.slots || documents.length !== header.documents) return null;
  const slotArrays = new Int32Array(slotBytes.buffer, 0, 2 * header.slots);
  const documentOfSlot = slotArrays.subarray(0, header.slots);
  const keys = slotArrays.subarray(header.slots);

  let offset = 0;
  const int32 = (count: number) => {
    const view = new Int32Array(back.buffer, offset, count);
    offset += 4 * count;
    return view;
  };
  const termIds = int32(header.terms);
  const lengths = int32(header.terms);
  const gapUnits = int32(header.terms);
  const weights = new Float32Array(back.buffer, offset, header.postings);
  const gaps = new Uint16Array(back.buffer, offset + 4 * header.postings, header.gapUnits);
  const postings = PostingLists.fromConcatenated({ termIds, lengths, gapUnits, gaps, weights }, header.slots);
  if (!postings) return null;
  const documentIds: string[] = new Array(header.slots);
  const alive: boolean[] = new Array(header.slots);
  for (let slot = 0; slot < header.slots; slot += 1) {
    const code = documentOfSlot[slot] as number;
    const number = code >= 0 ? code : -1 - code;
    if (number >= documents.length) return null;
    documentIds[slot] = documents[number] as string;
    alive[slot] = code >= 0;
  }
  return {
    chunkIds,
    documentIds,
    alive,
    keyOfSlot: Array.from(keys),
    postings,
  };
}
