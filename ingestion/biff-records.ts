/**
 * Low-level reading of an Excel BIFF8 record stream ([MS-XLS] 2.1.4): records with their CONTINUE
 * records attached, and the Unicode strings that may run across them. Knows nothing about cells;
 * parse-xls.ts gives the records their meaning. Every read is bounds-checked and throws
 * BiffFormatError on a truncated or inconsistent record.
 */

export class BiffFormatError extends Error {
  override name = "BiffFormatError";
}

const continueRecord = 0x3c;

export type BiffRecord = {
  type: number;
  /** Offset of the record header in the stream (BOUNDSHEET positions point at these). */
  offset: number;
  /** The record's data followed by the data of each CONTINUE record after it. */
  segments: Uint8Array[];
};

/**
 * The records from `start` up to and including the first EOF record (or the stream's end), read
 * lazily so a stream of millions of tiny records never exists as millions of objects at once.
 * `scanned.bytes` grows by the bytes each record takes, for callers that bound the total work.
 */
export function* readRecords(
  stream: Uint8Array,
  start: number,
  endOfFileType: number,
  scanned: { bytes: number } = { bytes: 0 },
): Generator<BiffRecord> {
  let pending: BiffRecord | null = null;
  let offset = start;
  while (offset + 4 <= stream.byteLength) {
    const type = (stream[offset] ?? 0) | ((stream[offset + 1] ?? 0) << 8);
    const length = (stream[offset + 2] ?? 0) | ((stream[offset + 3] ?? 0) << 8);
    const dataStart = offset + 4;
    if (dataStart + length > stream.byteLength) throw new BiffFormatError(`record 0x${type.toString(16)} is truncated`);
    const data = stream.subarray(dataStart, dataStart + length);
    scanned.bytes += 4 + length;
    if (type === continueRecord && pending !== null) {
      pending.segments.push(data);
    } else {
      if (pending !== null) yield pending;
      pending = { type, offset, segments: [data] };
    }
    offset = dataStart + length;
    if (type === endOfFileType) break;
  }
  if (pending !== null) yield pending;
}

/**
 * Reads little-endian values from a record's segments as one byte sequence, except for character
 * data: a string whose characters run into the next CONTINUE segment restarts there with a fresh
 * option byte saying whether the rest is 8-bit or 16-bit ([MS-XLS] 2.5.293).
 */
export class BiffReader {
  private segmentIndex = 0;
  private position = 0;

  constructor(private readonly segments: Uint8Array[]) {}

  private current(): Uint8Array {
    let segment = this.segments[this.segmentIndex];
    while (segment !== undefined && this.position >= segment.byteLength) {
      this.segmentIndex += 1;
      this.position = 0;
      segment = this.segments[this.segmentIndex];
    }
    if (segment === undefined) throw new BiffFormatError("a record ends in the middle of a value");
    return segment;
  }

  get atEnd(): boolean {
    for (let index = this.segmentIndex; index < this.segments.length; index++) {
      const segment = this.segments[index] as Uint8Array;
      if ((index === this.segmentIndex ? this.position : 0) < segment.byteLength) return false;
    }
    return true;
  }

  u8(): number {
    const segment = this.current();
    const value = segment[this.position] as number;
    this.position += 1;
    return value;
  }

  u16(): number {
    return this.u8() | (this.u8() << 8);
  }

  u32(): number {
    return (this.u16() | (this.u16() << 16)) >>> 0;
  }

  f64(): number {
    const bytes = new Uint8Array(8);
    for (let index = 0; index < 8; index++) bytes[index] = this.u8();
    return new DataView(bytes.buffer).getFloat64(0, true);
  }

  skip(count: number): void {
    for (let remaining = count; remaining > 0; ) {
      const segment = this.current();
      const take = Math.min(remaining, segment.byteLength - this.position);
      this.position += take;
      remaining -= take;
    }
  }

  /** `count` characters, 16-bit when `wide`; continues across segments as the format says. */
  characters(count: number, wide: boolean): string {
    let text = "";
    let remaining = count;
    let isWide = wide;
    while (remaining > 0) {
      const segment = this.segments[this.segmentIndex];
      if (segment === undefined) throw new BiffFormatError("a string runs past the end of its record");
      const available = Math.floor((segment.byteLength - this.position) / (isWide ? 2 : 1));
      if (available === 0) {
        // The characters go on in the next CONTINUE segment, which starts with its own option byte.
        this.segmentIndex += 1;
        this.position = 0;
        const next = this.segments[this.segmentIndex];
        if (next === undefined || next.byteLength === 0)
          throw new BiffFormatError("a string runs past the end of its record");
        isWide = ((next[0] as number) & 0x01) === 1;
        this.position = 1;
        continue;
      }
      const take = Math.min(available, remaining);
      const end = this.position + take * (isWide ? 2 : 1);
      text += Buffer.from(segment.subarray(this.position, end)).toString(isWide ? "utf16le" : "latin1");
      this.position = end;
      remaining -= take;
    }
    return text;
  }

  /** XLUnicodeRichExtendedString / XLUnicodeString: length, option byte, then optional rich-text and phonetic data. */
  unicodeString(lengthBytes: 1 | 2 = 2): string {
    const count = lengthBytes === 1 ? this.u8() : this.u16();
    const options = this.u8();
    const wide = (options & 0x01) !== 0;
    const richRuns = (options & 0x08) !== 0 ? this.u16() : 0;
    const phoneticBytes = (options & 0x04) !== 0 ? this.u32() : 0;
    const text = this.characters(count, wide);
    if (richRuns > 0) this.skip(richRuns * 4);
    if (phoneticBytes > 0) this.skip(phoneticBytes);
    return text;
  }
}
