/**
 * How the embedded store searches a space's dense vectors (in-memory-space-index.ts), and which way a
 * space of a given size is held. A space is exact until it holds more embedded chunks than
 * `exactMaxChunks` (setting FOLIO_DENSE_EXACT_MAX_CHUNKS), then switches for good;
 * FOLIO_DENSE_INDEX=approximate or exact forces one way.
 */
import { type ApproximateIndexSettings, DEFAULT_APPROXIMATE_INDEX_SETTINGS } from "./approximate-dense-index.js";

export const DENSE_INDEX_MODES = ["auto", "approximate", "exact"] as const;
export type DenseIndexMode = (typeof DENSE_INDEX_MODES)[number];

export type DenseSearchSettings = {
  /** auto: exact up to `exactMaxChunks` embedded chunks a space, approximate past it. */
  mode: DenseIndexMode;
  exactMaxChunks: number;
  approximate: ApproximateIndexSettings;
  /** A space's snapshot is saved once its writes have paused this long (and when the store closes). */
  snapshotDelayMs: number;
};

export const DEFAULT_DENSE_SEARCH_SETTINGS: DenseSearchSettings = {
  mode: "auto",
  exactMaxChunks: 20_000,
  approximate: DEFAULT_APPROXIMATE_INDEX_SETTINGS,
  snapshotDelayMs: 10_000,
};

/** Whether a space holding `denseCount` embedded chunks belongs in an approximate index. */
export function wantsApproximate(settings: DenseSearchSettings, denseCount: number): boolean {
  if (settings.mode === "approximate") return true;
  if (settings.mode === "exact") return false;
  return denseCount > settings.exactMaxChunks;
}
