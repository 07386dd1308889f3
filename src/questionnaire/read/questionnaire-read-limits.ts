/**
 * Bounds on what reading one questionnaire or approved-answers file may cost. The reader checks the
 * structural ones while it streams through the file's XML or text, before exceljs or the CSV parser
 * builds a single cell (read-questionnaire-grid.ts, survey-xlsx-package.ts); the worker's ones (time,
 * heap, resident memory) stop whatever the structural checks did not foresee (questionnaire-worker-pool.ts).
 * A real questionnaire is a few thousand rows of a dozen columns: every bound is far above that and far
 * below what would hurt the server.
 */
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from "../../../ingestion/limits.js";

export type QuestionnaireReadLimits = {
  /** Most columns a sheet, CSV line or Word table may use: column IV, Excel 2003's last. */
  maxColumns: number;
  /** Most cells holding a value, all sheets together (the upload limit, `maxCells`). */
  maxCells: number;
  /** Most `<c>` elements, empty formatted ones included: exceljs builds an object for each. */
  maxCellElements: number;
  /** Most `<row>` elements of one workbook, empty formatted ones included. */
  maxRowElements: number;
  /** Most characters of cell text (UTF-8 bytes for XLSX), counted before any string is copied. */
  maxTextCharacters: number;
  /** Most entries of an XLSX's shared-string table. */
  maxSharedStrings: number;
  /** Most bytes of text in the shared-string table (what exceljs holds in memory however few cells use it). */
  maxSharedStringBytes: number;
  /** Most worksheets (XLSX) or tables (DOCX). */
  maxSheets: number;
  /**
   * Most merged ranges of one workbook. exceljs compares each new one with every earlier one when it
   * opens a workbook for its filled copy: 10,000 merges cost it 7 s of CPU there (#37), 5,000 a quarter.
   */
  maxMerges: number;
  /** Most cells covered by merged ranges, all sheets together (exceljs builds each one). */
  maxMergedCells: number;
  /** Most cells that data-validation lists cover, once clipped to the rows in use. */
  maxValidationCells: number;
  /**
   * Most rich-text runs (`<r>`, phonetic `<rPh>`), each with its `<rPr>` properties, in shared strings, inline
   * strings and comments together: exceljs builds an object and a font for each (#37).
   */
  maxTextRuns: number;
  /** Most comments (notes) of one workbook, all sheets together. */
  maxComments: number;
  /** Most entries of the styles part: fonts, fills, borders, number formats, cell formats, cell styles, differential formats. */
  maxStyleEntries: number;
  /** Most defined names of a workbook. */
  maxDefinedNames: number;
  /** Most cells the areas of the defined names cover (exceljs builds each one); print areas and titles not counted. */
  maxDefinedNameCells: number;
  /**
   * Most XML elements in the other parts exceljs parses (shared strings, styles, workbook, comments,
   * drawings, VML, tables, relationships, document properties), all together; worksheets have their own bounds.
   */
  maxPartElements: number;
  /** Longest line of a CSV/TSV file, in characters. */
  maxLineCharacters: number;
  /** Most rows of a Word table. */
  maxTableRows: number;
};

export const DEFAULT_QUESTIONNAIRE_READ_LIMITS: QuestionnaireReadLimits = {
  maxColumns: 256,
  maxCells: DEFAULT_PARSE_LIMITS.maxCells,
  maxCellElements: 1_000_000,
  maxRowElements: 200_000,
  maxTextCharacters: 20_000_000,
  maxSharedStrings: 1_000_000,
  maxSharedStringBytes: 40 * 1024 * 1024,
  maxSheets: 200,
  maxMerges: 5_000,
  maxMergedCells: 200_000,
  maxValidationCells: 200_000,
  maxTextRuns: 100_000,
  maxComments: 10_000,
  maxStyleEntries: 100_000,
  maxDefinedNames: 10_000,
  maxDefinedNameCells: 500_000,
  maxPartElements: 4_000_000,
  maxLineCharacters: 1_000_000,
  maxTableRows: 100_000,
};

/**
 * The worker's limits: the upload's zip-bomb bounds, and a smaller memory budget than an upload's — a
 * questionnaire within the structural bounds above needs a few hundred MB at most. Growth of the process
 * stays under `maxMemoryMb` (1 GB), the ceiling being 1.5 GB. The heap cap is set above that
 * budget on purpose (#37): the memory watchdog, on the main thread, terminates a worker that grows past
 * 1 GB, which always stops it cleanly; a worker that reaches its own heap cap is stopped by V8 from
 * inside, and an allocation the cap's small grace cannot hold aborts the whole process ("Reached heap
 * limit", nodejs/node#47224) — what the review saw when four copies of its rich-text workbook were written.
 */
export const QUESTIONNAIRE_WORKER_LIMITS: ParseLimits = {
  ...DEFAULT_PARSE_LIMITS,
  timeMs: 30_000,
  maxHeapMb: 1_280,
  maxMemoryMb: 1_024,
};

/** Excel's own bounds: a reference past them is no spreadsheet's. */
export const EXCEL_MAX_COLUMNS = 16_384;
export const EXCEL_MAX_ROWS = 1_048_576;
