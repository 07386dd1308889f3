/**
 * For bench/scale-benchmark.ts --structures: the chunks' ids and sparse vectors in a flat binary file,
 * read back in pages by a restarted process as the database would hand them over (a stand-in for
 * PGlite's chunk_vectors table, so the search structures can be measured at sizes whose ingestion
 * through PGlite takes hours on a loaded 2-core machine). Dense vectors are not written: a restart
 * reads them from the saved approximate index, as the embedded store does.
 * Record: chunk id and document id (36 ASCII bytes each), space-id length (u16) and bytes, has-dense (u8),
 * term count (u32), term ids (i32 × count), weights (f32 × count); little-endian.
 */
import { closeSync, openSync, readSync, statSync, writeSync } from "node:fs";
import type { SpaceId, SparseVector } from "../src/domain/types.js";
import type { SpaceSource, StoredChunkVectors } from "../src/stores/in-memory-space-index.js";

export class ChunkRowsWriter {
  private readonly fd: number;
  constructor(file: string) {
    this.fd = openSync(file, "w");
  }
  write(rows: Array<{ chunkId: string; documentId: string; spaceId: string; dense?: unknown; sparse?: SparseVector }>) {
    const parts: Buffer[] = [];
    for (const row of rows) {
      const space = Buffer.from(row.spaceId);
      const terms = row.sparse?.indices.length ?? 0;
      const record = Buffer.alloc(72 + 2 + space.length + 1 + 4 + 8 * terms);
      record.write(row.chunkId, 0, "ascii");
      record.write(row.documentId, 36, "ascii");
      let offset = record.writeUInt16LE(space.length, 72);
      offset += space.copy(record, offset);
      offset = record.writeUInt8(row.dense ? 1 : 0, offset);
      offset = record.writeUInt32LE(terms, offset);
      for (const termId of row.sparse?.indices ?? []) offset = record.writeInt32LE(termId, offset);
      for (const weight of row.sparse?.values ?? []) offset = record.writeFloatLE(weight, offset);
      parts.push(record);
    }
    writeSync(this.fd, Buffer.concat(parts));
  }
  close() {
    closeSync(this.fd);
  }
}

const WINDOW = 16 * 2 ** 20;
const PAGE_ROWS = 2000;

/** Rows of one space from the file, in pages; vectors by id are not available (none are ever missing). */
export function fileSpaceSource(file: string): SpaceSource {
  return {
    async *rows(spaceId: SpaceId) {
      const fd = openSync(file, "r");
      try {
        let buffer = Buffer.alloc(0);
        let page: StoredChunkVectors[] = [];
        for (;;) {
          const chunk = Buffer.alloc(WINDOW);
          const read = readSync(fd, chunk, 0, WINDOW, null);
          if (read === 0) break;
          buffer = buffer.length === 0 ? chunk.subarray(0, read) : Buffer.concat([buffer, chunk.subarray(0, read)]);
          let offset = 0;
          for (;;) {
            if (buffer.length - offset < 74) break;
            const spaceLength = buffer.readUInt16LE(offset + 72);
            const headerEnd = offset + 74 + spaceLength + 5;
            if (buffer.length < headerEnd) break;
            const terms = buffer.readUInt32LE(headerEnd - 4);
            const end = headerEnd + 8 * terms;
            if (buffer.length < end) break;
            const rowSpace = buffer.toString("utf8", offset + 74, offset + 74 + spaceLength);
            if (rowSpace === spaceId) {
              const indices = new Int32Array(terms);
              const values = new Float32Array(terms);
              for (let term = 0; term < terms; term += 1) {
                indices[term] = buffer.readInt32LE(headerEnd + 4 * term);
                values[term] = buffer.readFloatLE(headerEnd + 4 * terms + 4 * term);
              }
              page.push({
                chunkId: buffer.toString("ascii", offset, offset + 36),
                documentId: buffer.toString("ascii", offset + 36, offset + 72),
                spaceId,
                hasDense: buffer.readUInt8(headerEnd - 5) === 1,
                sparse: { indices, values },
              });
              if (page.length === PAGE_ROWS) {
                yield page;
                page = [];
              }
            }
            offset = end;
          }
          buffer = buffer.subarray(offset);
        }
        if (page.length > 0) yield page;
      } finally {
        closeSync(fd);
      }
    },
    async *dense() {},
    version: async () => rowsFileVersion(file),
  };
}

/** The file's stand-in for the database's space version: it changes whenever rows are appended. */
export function rowsFileVersion(file: string): string {
  const { size, mtimeMs } = statSync(file);
  return `${size}:${mtimeMs}`;
}
