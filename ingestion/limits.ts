/**
 * Bounds on what one uploaded file may cost to parse. Every parser and the worker that runs them
 * read these, so a hostile or merely huge file is refused with a clear reason instead of eating
 * the process. Defaults suit a team bot on one machine; callers override per deployment.
 */

export type ParseLimits = {
  /** Largest accepted upload, in bytes (`file_too_large`). */
  maxBytes: number;
  /** Most physical pages a PDF may have (`too_many_pages`). */
  maxPages: number;
  /**
   * Most bytes a DOCX/XLSX package may expand to (`archive_too_large`; an entry past its declared size is
   * `zip_size_mismatch`), and most bytes one of a PDF's Flate streams may inflate to (four times that for all
   * of them together; `pdf_stream_too_large`).
   */
  maxUncompressedBytes: number;
  /** Most expansion ratio a single large zip entry may have (`zip_bomb`). */
  maxCompressionRatio: number;
  /** Most entries a DOCX/XLSX package may hold (`zip_bomb`). */
  maxArchiveEntries: number;
  /** Most non-empty cells read from one spreadsheet or CSV (`too_many_cells`). */
  maxCells: number;
  /** Wall-clock time one file may take in the parse worker (`parse_timeout`). */
  timeMs: number;
  /** Heap cap of the parse worker, in MB (`parse_out_of_memory`). */
  maxHeapMb: number;
  /**
   * Most the process's resident memory may grow while one file parses, in MB (`parse_memory_exceeded`):
   * the bound on what an upload costs, counting buffers outside the heap that `maxHeapMb` cannot see.
   */
  maxMemoryMb: number;
};

export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  maxBytes: 50 * 1024 * 1024,
  maxPages: 2000,
  maxUncompressedBytes: 200 * 1024 * 1024,
  maxCompressionRatio: 100,
  maxArchiveEntries: 10_000,
  maxCells: 200_000,
  timeMs: 60_000,
  maxHeapMb: 1024,
  // The heap cap, plus inflated package entries (at most maxUncompressedBytes) and the worker itself.
  maxMemoryMb: 1536,
};

/** Fills unspecified limits with the defaults. */
export function resolveParseLimits(overrides: Partial<ParseLimits> = {}): ParseLimits {
  const resolved: ParseLimits = { ...DEFAULT_PARSE_LIMITS };
  for (const key of Object.keys(overrides) as (keyof ParseLimits)[]) {
    const value = overrides[key];
    if (value !== undefined) resolved[key] = value;
  }
  return resolved;
}
