/**
 * The robustness corpora (robustness-pdfjs, robustness-pdf-misc, robustness-office under the shared
 * data directory) and a runner that sends each file through the same worker-pool parse path that
 * ingestion uses. Shared by test/integration/robustness.test.ts and bench/robustness-report.ts.
 *
 * The manifests give each file a category and a note, not an outcome; `expectedOutcome` turns the
 * categories that pin one down (encrypted with a user password, no text layer, zero bytes, legacy
 * Office, impostor ZIP, ...) into the code Folio must answer with.
 */
import { readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { strFromU8, unzipSync } from "fflate";
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from "../../ingestion/limits.js";
import { processFileInWorker } from "../../ingestion/run-in-worker.js";
import { isFolioError } from "../../src/errors.js";
import { sharedData, sharedModel } from "./shared-paths.js";

export const ROBUSTNESS_CORPORA = ["robustness-pdfjs", "robustness-pdf-misc", "robustness-office"] as const;

export type CorpusFile = {
  corpus: (typeof ROBUSTNESS_CORPORA)[number];
  /** Path inside the corpus directory, as the manifest writes it (e.g. `pdfs/x.pdf`, `docx/y.docx`). */
  relativePath: string;
  absolutePath: string;
  fileName: string;
  category: string;
  note: string;
  /** The user password from the manifest, where one is needed to open the file. */
  password: string;
};

/**
 * Codes a file may legitimately be refused with. Generic failures (`parse_failed`, `parse_crashed`,
 * `internal_error`, ...) are deliberately absent.
 */
export const SPECIFIC_REJECTION_CODES = new Set([
  "empty_file",
  "file_too_large",
  "unsupported_type",
  "content_mismatch",
  "not_a_document",
  "pdf_encrypted",
  "pdf_corrupt",
  "pdf_no_text",
  "too_many_pages",
  "office_encrypted",
  "legacy_word_format",
  "legacy_excel_format",
  "docx_corrupt",
  "xlsx_corrupt",
  "xls_corrupt",
  "csv_corrupt",
  "file_corrupt",
  "zip_bomb",
  "archive_too_large",
  "zip_size_mismatch",
  "pdf_stream_too_large",
  "too_many_cells",
  "parse_out_of_memory",
  "parse_memory_exceeded",
  "parse_timeout",
  "no_text",
]);

/** Minimal CSV reader for the manifests (quoted fields with commas and doubled quotes). */
export function parseManifest(text: string): Array<Record<string, string>> {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (character === '"') quoted = false;
      else field += character;
    } else if (character === '"') quoted = true;
    else if (character === ",") {
      row.push(field);
      field = "";
    } else if (character === "\n" || character === "\r") {
      if (character === "\r" && text[index + 1] === "\n") index++;
      row.push(field);
      field = "";
      if (row.some((cell) => cell !== "")) rows.push(row);
      row = [];
    } else field += character;
  }
  row.push(field);
  if (row.some((cell) => cell !== "")) rows.push(row);
  const [header, ...body] = rows;
  if (!header) return [];
  return body.map((cells) => Object.fromEntries(header.map((name, index) => [name, cells[index] ?? ""])));
}

function walk(directory: string, prefix = ""): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...walk(path.join(directory, entry.name), relative));
    else if (entry.isFile()) found.push(relative);
  }
  return found;
}

/**
 * Every file of the three corpora (the PDF directories and all of robustness-office), with its
 * manifest row where it has one. Files missing from a manifest are still listed (category "").
 */
export function listRobustnessFiles(): CorpusFile[] {
  const files: CorpusFile[] = [];
  for (const corpus of ROBUSTNESS_CORPORA) {
    const root = sharedData(corpus);
    const manifest = new Map<string, Record<string, string>>();
    for (const row of parseManifest(readFileSync(path.join(root, "manifest.csv"), "utf8"))) {
      const file = row.file ?? "";
      // robustness-pdfjs names files without their `pdfs/` folder.
      manifest.set(corpus === "robustness-pdfjs" ? `pdfs/${file}` : file, row);
    }
    const relativePaths = walk(root)
      .filter((relative) => relative !== "manifest.csv")
      .filter((relative) => corpus === "robustness-office" || relative.startsWith("pdfs/"))
      .sort();
    for (const relativePath of relativePaths) {
      const row = manifest.get(relativePath);
      const note = row?.note ?? "";
      files.push({
        corpus,
        relativePath,
        absolutePath: path.join(root, relativePath),
        fileName: path.basename(relativePath),
        category: row?.category ?? "",
        note,
        password: row?.password || /user password: (\S+)/.exec(note)?.[1] || "",
      });
    }
  }
  return files;
}

/**
 * Files whose manifest category does not settle the outcome, each checked by hand (pdftotext,
 * unzip): the outcome Folio must give and why.
 */
const CHECKED_BY_HAND: Record<string, { outcome: string; why: string }> = {
  "robustness-pdfjs/pdfs/vertical.pdf": {
    outcome: "pdf_no_text",
    why: "Identity-V CID text with no usable mapping: pdftotext and pdf.js extract nothing from its 3 pages",
  },
  "robustness-pdfjs/pdfs/resetform.pdf": {
    outcome: "pdf_no_text",
    why: "a blank AcroForm: no page text, every field empty; pdftotext only sees button captions",
  },
  "robustness-pdfjs/pdfs/listbox_actions.pdf": {
    outcome: "pdf_no_text",
    why: "a blank AcroForm: no page text; the one chosen list item ('Item1') is all its fields hold",
  },
  "robustness-pdf-misc/pdfs/pdfplumber-pr-136-epson-scan.pdf": {
    outcome: "parsed",
    why: "a scan that carries an OCR text layer (pdftotext reads dates and amounts from it)",
  },
};

/** Non-blank text in a DOCX's body, footnotes and endnotes (what mammoth converts), from its `<w:t>` runs. */
function docxHasText(absolutePath: string): boolean {
  const parts = unzipSync(new Uint8Array(readFileSync(absolutePath)), {
    filter: (entry) => /^word\/(document|footnotes|endnotes)\.xml$/.test(entry.name),
  });
  return Object.values(parts).some((xml) =>
    [...strFromU8(xml).matchAll(/<w:t(?:\s[^>]*)?>([^<]*)</g)].some((match) => (match[1] ?? "").trim().length > 0),
  );
}

/**
 * The outcome the manifest's category and note pin down for a file: "parsed" for files with a real
 * text layer or content, a rejection code for the traps, or null where more than one outcome is
 * defensible (broken files pdf.js may or may not repair, owner-only encryption, ...).
 */
export function expectedOutcome(file: CorpusFile): string | null {
  const checked = CHECKED_BY_HAND[`${file.corpus}/${file.relativePath}`];
  if (checked) return checked.outcome;
  const extension = path.extname(file.fileName).toLowerCase();
  const { category, note } = file;
  if (category === "empty-file") return "empty_file";
  if (category === "encrypted")
    return file.password !== "" || /user password required/.test(note) ? "pdf_encrypted" : null;
  if (category === "no-text-layer" || category === "empty") return "pdf_no_text";
  if (
    [
      "multipage-text",
      "huge-page-count",
      "long-latex",
      "cid-cjk",
      "cid-rtl",
      "rtl",
      "cid",
      "rotated",
      "forms-xfa",
      "forms-acroform",
      "forms-signature",
      "forms",
      "attachments",
      "invisible-text",
      "duplicate-pages",
      "duplicate-chars",
    ].includes(category)
  ) {
    return "parsed";
  }
  if (file.corpus === "robustness-office") {
    if (extension === ".doc") return "legacy_word_format";
    if (extension === ".xls") return "parsed";
    if (extension === ".zip") return "unsupported_type";
    if (/ENCRYPTED/.test(note)) return "office_encrypted";
    if (/empty sheet/.test(note)) return "no_text";
    if (extension === ".docx") return docxHasText(file.absolutePath) ? "parsed" : "no_text";
    if ([".csv", ".tsv", ".xlsx"].includes(extension)) return "parsed";
  }
  return null;
}

export const robustnessChunking = {
  maxTokens: 512,
  overlapTokens: 20,
  tokenizerDirectory: sharedModel("bge-small-en-v1.5"),
};

export type FileOutcome = {
  file: CorpusFile;
  /** "parsed", or the rejection code. */
  code: string;
  message: string;
  /** Underlying parser message for generic failures, when the worker passed one on. */
  reason?: string;
  milliseconds: number;
  pages: number | null;
  chunks: number;
  /** The parse worker's highest sampled heap use on this file, in MB (null when the worker died). */
  workerPeakHeapMb: number | null;
  /** Highest process RSS sampled while this file was parsing, in MB (runFiles fills it in). */
  peakRssMb: number;
  /** How far that peak rose above the RSS when the file started, in MB: what this file cost. */
  rssGrowthMb: number;
};

/** Parses and chunks one file in the parse worker pool, exactly as ingestion does. */
export async function runFile(file: CorpusFile, limits: ParseLimits = DEFAULT_PARSE_LIMITS): Promise<FileOutcome> {
  const bytes = new Uint8Array(await readFile(file.absolutePath));
  const started = performance.now();
  try {
    const { document, chunks, peakHeapMb } = await processFileInWorker({
      bytes,
      fileName: file.fileName,
      limits,
      chunking: robustnessChunking,
    });
    const milliseconds = performance.now() - started;
    const base = {
      file,
      milliseconds,
      pages: document.pages?.length ?? null,
      chunks: chunks.length,
      workerPeakHeapMb: peakHeapMb,
    };
    return { ...base, code: "parsed", message: document.title, peakRssMb: 0, rssGrowthMb: 0 };
  } catch (error) {
    const milliseconds = performance.now() - started;
    const code = isFolioError(error) ? error.code : "non_folio_error";
    const message = error instanceof Error ? error.message : String(error);
    const reason = isFolioError(error) && typeof error.details.reason === "string" ? error.details.reason : undefined;
    const peakHeap = isFolioError(error) ? error.details.peakHeapMb : undefined;
    const workerPeakHeapMb = typeof peakHeap === "number" ? peakHeap : null;
    return {
      file,
      code,
      message,
      reason,
      milliseconds,
      pages: null,
      chunks: 0,
      workerPeakHeapMb,
      peakRssMb: 0,
      rssGrowthMb: 0,
    };
  }
}

/**
 * Runs files through the pool `concurrency` at a time (the pool's size keeps each file's time free
 * of queueing), calling `onOutcome` as each finishes, and measures the main event loop's delay
 * meanwhile: parsing runs in worker threads, so the main thread's timers must stay on time.
 */
export async function runFiles(
  files: readonly CorpusFile[],
  options: { concurrency?: number; limits?: ParseLimits; onOutcome?: (outcome: FileOutcome) => void } = {},
): Promise<{
  outcomes: FileOutcome[];
  eventLoopMaxDelayMs: number;
  eventLoopP99DelayMs: number;
  /** Share of the run the main thread spent running code rather than waiting for events (0–1). */
  eventLoopUtilization: number;
}> {
  const concurrency = options.concurrency ?? 2;
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const utilizationAtStart = performance.eventLoopUtilization();
  const outcomes: FileOutcome[] = new Array(files.length);
  let next = 0;
  const sampleRss = () => Math.round(process.memoryUsage.rss() / (1024 * 1024));
  async function lane(): Promise<void> {
    while (next < files.length) {
      const index = next++;
      const file = files[index];
      if (!file) continue;
      const start = sampleRss();
      let peak = start;
      const sampler = setInterval(() => {
        peak = Math.max(peak, sampleRss());
      }, 25);
      const outcome = await runFile(file, options.limits);
      clearInterval(sampler);
      outcome.peakRssMb = Math.max(peak, sampleRss());
      outcome.rssGrowthMb = outcome.peakRssMb - start;
      outcomes[index] = outcome;
      options.onOutcome?.(outcome);
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));
  histogram.disable();
  return {
    outcomes,
    eventLoopUtilization: performance.eventLoopUtilization(utilizationAtStart).utilization,
    eventLoopMaxDelayMs: histogram.max / 1e6,
    eventLoopP99DelayMs: histogram.percentile(99) / 1e6,
  };
}
