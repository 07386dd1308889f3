/**
 * Saved spaces, one per space, so a restart loads the HNSW graph and the postings instead of
 * rebuilding them (minutes at 1M chunks). Four files per space under the directory, named by a hash of
 * the space id:
 * - `<name>.usearch` — the index as usearch writes it (graph and vectors at the index's precision);
 * - `<name>.chunks` — the chunk id of each key, one a line (an empty line for a key no longer used);
 * - `<name>.space` — the slots and BM25 postings (space-snapshot-file.ts);
 * - `<name>.json` — the manifest, written last: without it (or when it names other settings) the other
 *   files are ignored and the space is rebuilt from the database.
 * The manifest records the space's version in the database (a counter its triggers bump on every write
 * to the space's rows, migration 0103) at the time of the save. On load, the same version means the
 * files are the space as the database holds it, and they are used whole: nothing is read from the
 * database. Another version (a crash between a write and the next save, or a write by another program)
 * means the slots and postings are rebuilt from the database's rows, and the HNSW index is reconciled
 * by chunk id (chunks added since are embedded into it, chunks gone are removed), see
 * space-loading.ts. What that reconciling cannot detect is a vector replaced under the same
 * chunk id, so callers invalidate a space's snapshot before such a write reaches the database.
 * Each file is written under a temporary name, flushed and renamed; the manifest (which names each
 * file's size) is removed first and written last, so a crash midway leaves no snapshot read as valid.
 *
 * An exact space (below the approximate threshold) is saved too, with `<name>.dense` — its float32 rows,
 * one per slot — in place of the HNSW index and its keys, and taken whole under the same version rule;
 * under another version it is simply read from the database again (there is no graph worth keeping).
 * This is what lets `folio ask` without a server answer from a 100-document space without reading its
 * ~5,000 rows through PGlite (2.4 s of the 4.9 s it took).
 *
 * The manifest also names each file's SHA-256 (format 2, issue #30): a damaged file of the recorded size
 * made usearch abort the process (`double free or corruption`) on the first question, at every restart,
 * and a damaged header made every question of the space fail. Every file is hashed before anything
 * parses it — usearch (native code) never reads an unchecked file — and a snapshot whose files do not
 * match, or one saved before checksums (format 1), is refused: the space is rebuilt from the database
 * (the slow path of a missing snapshot) and saved again. A damaged `.space` file alone costs less: the
 * checked index is kept and reconciled with the rows. Hashing reads each file once more (~1 s per GB).
 * The checksums find damage, not an attacker who can write the data directory (they can rewrite the
 * manifest too); answers check every chunk's space again where rows are fetched (sparse-retriever.ts).
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { chmod, mkdir, open, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { SpaceId } from "../domain/types.js";
import { type Logger, silentLogger } from "../logger.js";
import { ApproximateDenseIndex, type ApproximateIndexSettings } from "./approximate-dense-index.js";
import { readSpaceFile, type SpaceRows, writeSpaceFile } from "./space-snapshot-file.js";

/** 2: the manifest names each file's SHA-256. A format-1 snapshot is refused (rebuilt once, saved as 2). */
const FORMAT = 2;

type Manifest = {
  format: number;
  /** Absent in snapshots of approximate spaces saved before exact spaces were. */
  kind?: "approximate" | "exact";
  spaceId: SpaceId;
  dimensions: number;
  quantization: string;
  connectivity: number;
  keys: number;
  savedAt: string;
  /** The space's version in the database when saved; absent in snapshots saved before versions existed. */
  version?: string;
  indexBytes?: number;
  spaceBytes: number;
  denseBytes?: number;
  /** SHA-256 (hex) of each file, checked before the file is parsed (an exact space has no index or chunks file). */
  sha256: { index?: string; chunks?: string; space: string; dense?: string };
};

export type DenseSnapshot = {
  kind: "approximate";
  index: ApproximateDenseIndex;
  /** The chunk id under each key ("" for a key no longer used). */
  chunkIdByKey: string[];
  /** The space's version in the database when the snapshot was saved (null: unknown). */
  version: string | null;
  /** The saved slots and postings; null when there are none, or the file does not add up. */
  rows(): Promise<SpaceRows | null>;
};

/** An exact space as saved: its slots and postings, and its dense rows (`keyOfSlot` ≥ 0: the slot has one). */
export type ExactSnapshot = {
  kind: "exact";
  version: string | null;
  /** The rows with their dense vectors (slots × dimensions); null when a file does not add up. */
  rows(): Promise<{ rows: SpaceRows; dense: Float32Array } | null>;
};

/** Writes `file` through a temporary name, flushed before the rename. */
async function writeReplacing(file: string, write: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = `${file}.tmp`;
  await write(temporary);
  const handle = await open(temporary, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}

/** The SHA-256 (hex) of a file's bytes, read as a stream; null when it cannot be read. */
async function fileSha256(file: string): Promise<string | null> {
  const hash = createHash("sha256");
  try {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  } catch {
    return null;
  }
  return hash.digest("hex");
}

const sha256Of = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** The float32 rows saved by `saveExact`, or null when the file is missing or not the size the manifest says. */
async function readDenseFile(file: string, expectedBytes: number): Promise<Float32Array | null> {
  const bytes = await readFile(file).catch(() => null);
  if (!bytes || bytes.length !== expectedBytes || expectedBytes % 4 !== 0) return null;
  // A copy into a buffer of its own: the rows grow in place as chunks are added (space-state.ts).
  const rows = new Float32Array(expectedBytes / 4);
  new Uint8Array(rows.buffer).set(bytes);
  return rows;
}

async function writeText(file: string, text: string): Promise<void> {
  const handle = await open(file, "w", 0o600);
  try {
    await handle.writeFile(text, "utf8");
  } finally {
    await handle.close();
  }
}

export class DenseIndexSnapshots {
  private readonly logger: Logger;

  constructor(
    readonly directory: string,
    private readonly dimensions: number,
    private readonly settings: ApproximateIndexSettings,
    /** Told when a saved snapshot is refused as damaged (the space is then rebuilt from the database). */
    options: { logger?: Logger } = {},
  ) {
    this.logger = options.logger ?? silentLogger;
  }

  private refuse(spaceId: SpaceId, file: string): null {
    this.logger.warn(
      { space: spaceId, file },
      "a saved search index does not match its checksum: rebuilding the space from the database",
    );
    return null;
  }

  private base(spaceId: SpaceId): string {
    return path.join(this.directory, createHash("sha256").update(spaceId).digest("hex").slice(0, 32));
  }

  /** The space's saved structures, or null when there are none usable with the current settings. */
  async read(spaceId: SpaceId): Promise<DenseSnapshot | ExactSnapshot | null> {
    const base = this.base(spaceId);
    let manifest: Manifest;
    try {
      manifest = JSON.parse(await readFile(`${base}.json`, "utf8")) as Manifest;
    } catch {
      return null;
    }
    if (
      manifest.format !== FORMAT ||
      manifest.spaceId !== spaceId ||
      manifest.dimensions !== this.dimensions ||
      typeof manifest.sha256 !== "object" ||
      manifest.sha256 === null
    ) {
      return null;
    }
    const { spaceBytes, sha256 } = manifest;
    const version = manifest.version ?? null;
    const checkedRows = async () => {
      const spaceFile = `${base}.space`;
      if ((await fileSha256(spaceFile)) !== sha256.space) return this.refuse(spaceId, "space");
      return await readSpaceFile(spaceFile, spaceBytes);
    };
    if (manifest.kind === "exact") {
      const { denseBytes } = manifest;
      if (denseBytes === undefined || sha256.dense === undefined) return null;
      return {
        kind: "exact",
        version,
        rows: async () => {
          const rows = await checkedRows();
          if (rows === null) return null;
          const denseFile = `${base}.dense`;
          if ((await fileSha256(denseFile)) !== sha256.dense) return this.refuse(spaceId, "dense");
          const dense = await readDenseFile(denseFile, denseBytes);
          return dense !== null && dense.length === rows.chunkIds.length * this.dimensions ? { rows, dense } : null;
        },
      };
    }
    if (
      manifest.quantization !== this.settings.quantization ||
      manifest.connectivity !== this.settings.connectivity ||
      sha256.chunks === undefined ||
      sha256.index === undefined
    )
      return null;
    const chunksText = await readFile(`${base}.chunks`, "utf8").catch(() => null);
    if (chunksText === null || sha256Of(chunksText) !== sha256.chunks) return this.refuse(spaceId, "chunks");
    const chunkIdByKey = chunksText.split("\n");
    chunkIdByKey.pop(); // the text ends with a newline
    if (chunkIdByKey.length !== manifest.keys) return null;
    const indexFile = `${base}.usearch`;
    const indexBytes = await stat(indexFile).then(
      (file) => file.size,
      () => -1,
    );
    // Never let usearch (native code) read a file that is not the one saved: checked before it is loaded.
    if (indexBytes !== manifest.indexBytes || (await fileSha256(indexFile)) !== sha256.index)
      return this.refuse(spaceId, "usearch");
    const index = await ApproximateDenseIndex.load(indexFile, this.dimensions, this.settings);
    return { kind: "approximate", index, chunkIdByKey, version, rows: checkedRows };
  }

  /**
   * Replaces the space's snapshot with an exact one: its slots and postings, its dense rows (the first
   * slots × dimensions values of `dense`), and the database version they match; the manifest goes last.
   */
  async saveExact(
    spaceId: SpaceId,
    saved: { rows: SpaceRows; dense: Float32Array; version: string | null },
  ): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const base = this.base(spaceId);
    await rm(`${base}.json`, { force: true });
    let spaceBytes = 0;
    await writeReplacing(`${base}.space`, async (temporary) => {
      spaceBytes = await writeSpaceFile(temporary, saved.rows);
    });
    const dense = saved.dense.subarray(0, saved.rows.chunkIds.length * this.dimensions);
    await writeReplacing(`${base}.dense`, async (temporary) => {
      const handle = await open(temporary, "w", 0o600);
      try {
        await handle.writeFile(new Uint8Array(dense.buffer, dense.byteOffset, dense.byteLength));
      } finally {
        await handle.close();
      }
    });
    await rm(`${base}.usearch`, { force: true });
    await rm(`${base}.chunks`, { force: true });
    // Hashed as they lie on disk, so the check on load compares the very bytes that were written.
    const spaceSha256 = await fileSha256(`${base}.space`);
    const denseSha256 = await fileSha256(`${base}.dense`);
    if (spaceSha256 === null || denseSha256 === null) return; // no manifest: the next load reads the database
    const manifest: Manifest = {
      format: FORMAT,
      kind: "exact",
      spaceId,
      dimensions: this.dimensions,
      quantization: "f32",
      connectivity: 0,
      keys: saved.rows.chunkIds.length,
      savedAt: new Date().toISOString(),
      ...(saved.version === null ? {} : { version: saved.version }),
      spaceBytes,
      denseBytes: dense.byteLength,
      sha256: { space: spaceSha256, dense: denseSha256 },
    };
    await writeReplacing(`${base}.json`, (temporary) => writeText(temporary, JSON.stringify(manifest)));
  }

  /**
   * Replaces the space's snapshot: the index, its keys' chunk ids, the space's slots and postings, and
   * the database version they match. The manifest goes last, so a crash midway leaves none usable.
   */
  async save(
    spaceId: SpaceId,
    saved: { index: ApproximateDenseIndex; chunkIdByKey: readonly string[]; rows: SpaceRows; version: string | null },
  ): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const base = this.base(spaceId);
    await rm(`${base}.json`, { force: true });
    await writeReplacing(`${base}.usearch`, async (temporary) => {
      saved.index.save(temporary);
      await chmod(temporary, 0o600);
    });
    const { chunkIdByKey } = saved;
    const chunksText = chunkIdByKey.length === 0 ? "" : `${chunkIdByKey.join("\n")}\n`;
    await writeReplacing(`${base}.chunks`, (temporary) => writeText(temporary, chunksText));
    let spaceBytes = 0;
    await writeReplacing(`${base}.space`, async (temporary) => {
      spaceBytes = await writeSpaceFile(temporary, saved.rows);
    });
    // Hashed as they lie on disk, so the check on load compares the very bytes that were written.
    const indexSha256 = await fileSha256(`${base}.usearch`);
    const spaceSha256 = await fileSha256(`${base}.space`);
    if (indexSha256 === null || spaceSha256 === null) return; // no manifest: the next load rebuilds
    const manifest: Manifest = {
      format: FORMAT,
      kind: "approximate",
      spaceId,
      dimensions: this.dimensions,
      quantization: this.settings.quantization,
      connectivity: this.settings.connectivity,
      keys: chunkIdByKey.length,
      savedAt: new Date().toISOString(),
      ...(saved.version === null ? {} : { version: saved.version }),
      indexBytes: (await stat(`${base}.usearch`)).size,
      spaceBytes,
      sha256: { index: indexSha256, chunks: sha256Of(chunksText), space: spaceSha256 },
    };
    await rm(`${base}.dense`, { force: true });
    await writeReplacing(`${base}.json`, (temporary) => writeText(temporary, JSON.stringify(manifest)));
  }

  /** Makes the space's snapshot unusable (its next load rebuilds from the database). */
  async invalidate(spaceId: SpaceId): Promise<void> {
    await rm(`${this.base(spaceId)}.json`, { force: true });
  }

  /** Makes every space's snapshot unusable. */
  async invalidateAll(): Promise<void> {
    const names = await readdir(this.directory).catch(() => [] as string[]);
    for (const name of names) if (name.endsWith(".json")) await rm(path.join(this.directory, name), { force: true });
  }
}
