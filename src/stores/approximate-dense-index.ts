/**
 * An approximate nearest-neighbour index (HNSW) over one space's dense vectors, on usearch — the adapter
 * between Folio's numbering (integer keys) and the library. Cosine metric; the vectors are held inside
 * the index at the chosen precision (f16 by default: half of float32's memory, with recall@10 that
 * matches float32's on 384-d embeddings), so the embedded store keeps no second copy of them.
 * Why usearch (over hnswlib-node, LanceDB and pgvector's HNSW in PGlite): docs/architecture.md.
 *
 * usearch runs native code synchronously on the calling thread: adds and searches block the event loop
 * for their duration (a search ~1 ms; an add ~0.2–0.5 ms), so bulk builds go in slices (see
 * space-loading.ts). The library is loaded on first use, so deployments that never cross the
 * threshold (or keep vectors in Qdrant or PostgreSQL) never load it.
 */
import type { Index as UsearchIndex } from "usearch";
import { FolioError } from "../errors.js";

export const DENSE_QUANTIZATIONS = ["f32", "f16", "i8"] as const;
export type DenseQuantization = (typeof DENSE_QUANTIZATIONS)[number];

export type ApproximateIndexSettings = {
  quantization: DenseQuantization;
  /** HNSW graph degree (M). */
  connectivity: number;
  /** Candidates considered while inserting (efConstruction). */
  expansionAdd: number;
  /**
   * Candidates considered while searching (ef) in an index of up to 370,000 vectors; larger indexes
   * search more (`searchBreadth`). A search for more results than that uses that many.
   */
  expansionSearch: number;
};

/** Up to this size the configured ef is used as it is. */
const BREADTH_BASE_SIZE = 370_000;

/**
 * The ef for an index of `size` vectors: HNSW's recall at a fixed ef falls as the graph grows (on
 * clustered 384-d vectors, recall@10: ef 96 0.997 at 100K, 0.935 at 500K; at 1M ef 384 0.946 and ef 512
 * 0.968), so past 370K vectors the default 256 grows with size^0.75 — 321 at 500K, 540 at 1M
 * (docs/benchmarks.md, "Scale"). Below that 256 is cheap and keeps small spaces exact in effect: SciFact
 * (5K) with the index forced on scores nDCG@10 0.7291 at 256 — the exact scan's — and 0.7257 at 96. A
 * search's cost grows about linearly with ef: ~1 ms at 96, ~3.5 ms at 512.
 */
export function searchBreadth(size: number, expansionSearch: number): number {
  if (size <= BREADTH_BASE_SIZE) return expansionSearch;
  return Math.ceil(expansionSearch * (size / BREADTH_BASE_SIZE) ** 0.75);
}

export const DEFAULT_APPROXIMATE_INDEX_SETTINGS: ApproximateIndexSettings = {
  quantization: "f16",
  connectivity: 16,
  expansionAdd: 64,
  expansionSearch: 256,
};

type UsearchModule = typeof import("usearch");
let usearchModule: Promise<UsearchModule> | null = null;

function loadUsearch(): Promise<UsearchModule> {
  usearchModule ??= import("usearch").catch((error: unknown) => {
    usearchModule = null;
    throw new FolioError(
      "approximate_index_unavailable",
      `The approximate vector index (usearch) could not be loaded on ${process.platform}-${process.arch}: ${(error as Error).message}. Reinstall dependencies (npm ci), or set FOLIO_DENSE_INDEX=exact to search every vector exactly.`,
    );
  });
  return usearchModule;
}

export type ApproximateHits = { keys: number[]; scores: number[] };

export class ApproximateDenseIndex {
  private constructor(
    private readonly index: UsearchIndex,
    readonly dimensions: number,
    readonly settings: ApproximateIndexSettings,
  ) {}

  static async create(dimensions: number, settings: ApproximateIndexSettings): Promise<ApproximateDenseIndex> {
    const usearch = await loadUsearch();
    const index = new usearch.Index({
      dimensions,
      metric: usearch.MetricKind.Cos,
      quantization: settings.quantization as UsearchModule["ScalarKind"][keyof UsearchModule["ScalarKind"]],
      connectivity: settings.connectivity,
      expansion_add: settings.expansionAdd,
      expansion_search: settings.expansionSearch,
      multi: false,
    });
    return new ApproximateDenseIndex(index, dimensions, settings);
  }

  /** An index saved by `save`, read whole into memory. */
  static async load(
    file: string,
    dimensions: number,
    settings: ApproximateIndexSettings,
  ): Promise<ApproximateDenseIndex> {
    const loaded = await ApproximateDenseIndex.create(dimensions, settings);
    loaded.index.load(file);
    return loaded;
  }

  get size(): number {
    return this.index.size();
  }

  /** Adds rows of `vectors` (`keys.length` × dimensions, float32) under `keys`. */
  add(keys: ArrayLike<number>, vectors: Float32Array): void {
    if (keys.length === 0) return;
    const bigKeys = new BigUint64Array(keys.length);
    for (let index = 0; index < keys.length; index += 1) bigKeys[index] = BigInt(keys[index] as number);
    // One thread: the box is shared with the embedder, PGlite and the requests being answered.
    this.index.add(bigKeys, vectors, 1);
  }

  remove(key: number): void {
    this.index.remove(BigInt(key));
  }

  /**
   * The `count` nearest keys with their cosine similarity, best first. usearch searches with
   * ef = max(its expansion, results asked), so asking for `searchBreadth` results widens the search
   * as the index grows; only the best `count` are kept.
   */
  search(vector: Float32Array, count: number): ApproximateHits {
    const size = this.index.size();
    if (size === 0 || count <= 0) return { keys: [], scores: [] };
    const wanted = Math.min(Math.max(count, searchBreadth(size, this.settings.expansionSearch)), size);
    const matches = this.index.search(vector, wanted, 1);
    const keys: number[] = [];
    const scores: number[] = [];
    for (let index = 0; index < matches.keys.length && keys.length < count; index += 1) {
      const distance = matches.distances[index] as number;
      if (!Number.isFinite(distance)) continue;
      keys.push(Number(matches.keys[index]));
      scores.push(1 - distance);
    }
    return { keys, scores };
  }

  /** Writes the whole index to `file` (synchronous: ~1 s per GB). */
  save(file: string): void {
    this.index.save(file);
  }
}
