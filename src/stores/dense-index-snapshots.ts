/**
 * Saved approximate indexes, one per space, so a restart loads the HNSW graph instead of rebuilding it
 * (minutes at 1M chunks). Three files per space under the directory, named by a hash of the space id:
 * - `<name>.usearch` — the index as usearch writes it (graph and vectors at the index's precision);
 * - `<name>.chunks` — the chunk id of each key, one a line (an empty line for a key no longer used);
 * - `<name>.json` — the manifest, written last: without it (or when it names other settings) the other
 *   two are ignored and the space is rebuilt from the database.
 * A snapshot may be older than the database (a crash between saves): loading reconciles it by chunk id
 * (chunks added since are embedded into it, chunks gone are removed), see in-memory-space-index.ts.
 * What it cannot detect is a vector replaced under the same chunk id, so callers invalidate a space's
 * snapshot before such a write reaches the database.
 */
import { createHash } from "node:crypto";
import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { SpaceId } from "../domain/types.js";
import { ApproximateDenseIndex, type ApproximateIndexSettings } from "./approximate-dense-index.js";

const FORMAT = 1;

type Manifest = {
  format: number;
  spaceId: SpaceId;
  dimensions: number;
  quantization: string;
  connectivity: number;
  keys: number;
  savedAt: string;
};

export type DenseSnapshot = {
  index: ApproximateDenseIndex;
  /** The chunk id under each key ("" for a key no longer used). */
  chunkIdByKey: string[];
};

export class DenseIndexSnapshots {
  constructor(
    readonly directory: string,
    private readonly dimensions: number,
    private readonly settings: ApproximateIndexSettings,
  ) {}

  private base(spaceId: SpaceId): string {
    return path.join(this.directory, createHash("sha256").update(spaceId).digest("hex").slice(0, 32));
  }

  /** The space's saved index, or null when there is none usable with the current settings. */
  async read(spaceId: SpaceId): Promise<DenseSnapshot | null> {
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
      manifest.quantization !== this.settings.quantization ||
      manifest.connectivity !== this.settings.connectivity
    ) {
      return null;
    }
    const chunkIdByKey = (await readFile(`${base}.chunks`, "utf8")).split("\n");
    chunkIdByKey.pop(); // the text ends with a newline
    if (chunkIdByKey.length !== manifest.keys) return null;
    const index = await ApproximateDenseIndex.load(`${base}.usearch`, this.dimensions, this.settings);
    return { index, chunkIdByKey };
  }

  /** Replaces the space's snapshot; the manifest goes last, so a crash midway leaves none usable. */
  async save(spaceId: SpaceId, index: ApproximateDenseIndex, chunkIdByKey: readonly string[]): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const base = this.base(spaceId);
    await rm(`${base}.json`, { force: true });
    index.save(`${base}.usearch.tmp`);
    await chmod(`${base}.usearch.tmp`, 0o600);
    await rename(`${base}.usearch.tmp`, `${base}.usearch`);
    await writeFile(`${base}.chunks.tmp`, chunkIdByKey.length === 0 ? "" : `${chunkIdByKey.join("\n")}\n`, {
      mode: 0o600,
    });
    await rename(`${base}.chunks.tmp`, `${base}.chunks`);
    const manifest: Manifest = {
      format: FORMAT,
      spaceId,
      dimensions: this.dimensions,
      quantization: this.settings.quantization,
      connectivity: this.settings.connectivity,
      keys: chunkIdByKey.length,
      savedAt: new Date().toISOString(),
    };
    await writeFile(`${base}.json.tmp`, JSON.stringify(manifest), { mode: 0o600 });
    await rename(`${base}.json.tmp`, `${base}.json`);
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
