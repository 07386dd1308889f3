/**
 * How often the TF-IDF page finder of Liang et al. (2024) agrees with Folio's exact provenance pages.
 * Every PDF of the enterprise set is parsed and chunked as ingestion does (pdf.js, bge-small tokenizer,
 * 512/20 tokens); the chunker's page/offset provenance is the truth. Three settings:
 *
 *  - chunk → file: the paper's setting. TF-IDF is fitted on every page of the file, the chunk text is
 *    the query; agreement = the best page is one of the chunk's pages.
 *  - chunk → its pages: multi-page chunks only, the finder restricted to the chunk's pages; agreement
 *    = the best page is the one holding most of the chunk's characters.
 *  - sentence → its chunk's pages: what citations.ts falls back to when offsets are missing. Every
 *    sentence of five words or more of a multi-page chunk that lies wholly on one page; agreement =
 *    the finder, restricted to the chunk's pages, names that page.
 *
 *   npx tsx bench/page-finder-agreement.ts [pdf directory] [--json]
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { chunkDocument } from "../ingestion/chunker.js";
import { DEFAULT_PARSE_LIMITS } from "../ingestion/limits.js";
import { parsePdf } from "../ingestion/parse-pdf.js";
import { splitSentences } from "../ingestion/split-sentences.js";
import { loadTokenCounter } from "../ingestion/token-counter.js";
import { createPageFinder } from "../src/answer/citations/page-finder.js";
import type { ChunkDraft, PageText } from "../src/domain/types.js";
import { sharedData, sharedModel } from "../test/support/shared-paths.js";

type Tally = { agree: number; total: number };
type FileReport = {
  file: string;
  pages: number;
  chunks: number;
  chunkToFile: Tally;
  chunkToOwnPages: Tally;
  sentenceToOwnPages: Tally;
};

const MIN_SENTENCE_WORDS = 5;

/** The chunk's per-page segments as offsets into its text (pages joined with "\n", as the chunker does). */
function segmentsOf(chunk: ChunkDraft, pages: PageText[]): Array<{ page: number; start: number; end: number }> {
  const { pageStart = 0, pageEnd = 0, charStart = 0, charEnd = 0 } = chunk.provenance;
  const segments: Array<{ page: number; start: number; end: number }> = [];
  let offset = 0;
  for (let page = pageStart; page <= pageEnd; page += 1) {
    const length = pages[page - 1]?.text.length ?? 0;
    const from = page === pageStart ? charStart : 0;
    const to = page === pageEnd ? charEnd : length;
    segments.push({ page, start: offset, end: offset + (to - from) });
    offset += to - from + 1;
  }
  return segments;
}

function add(tally: Tally, agrees: boolean): void {
  tally.total += 1;
  if (agrees) tally.agree += 1;
}

function share(tally: Tally): string {
  return tally.total === 0 ? "–" : `${((tally.agree / tally.total) * 100).toFixed(1)}%`;
}

async function measureFile(
  file: string,
  tokenCounter: Awaited<ReturnType<typeof loadTokenCounter>>,
): Promise<FileReport | null> {
  const document = await parsePdf(new Uint8Array(await readFile(file)), path.basename(file), DEFAULT_PARSE_LIMITS);
  const pages = document.pages ?? [];
  const chunks = chunkDocument(document, { maxTokens: 512, overlapTokens: 20, tokenCounter }).filter(
    (chunk) => chunk.provenance.pageStart !== undefined && chunk.provenance.pageEnd !== undefined,
  );
  const report: FileReport = {
    file: path.basename(file),
    pages: pages.length,
    chunks: chunks.length,
    chunkToFile: { agree: 0, total: 0 },
    chunkToOwnPages: { agree: 0, total: 0 },
    sentenceToOwnPages: { agree: 0, total: 0 },
  };
  const wholeFile = createPageFinder(pages);
  for (const chunk of chunks) {
    const pageStart = chunk.provenance.pageStart ?? 0;
    const pageEnd = chunk.provenance.pageEnd ?? 0;
    const found = wholeFile(chunk.text);
    add(report.chunkToFile, found !== null && found >= pageStart && found <= pageEnd);
    if (pageStart === pageEnd || chunk.provenance.charStart === undefined) continue;

    const ownPages = createPageFinder(
      pages.filter((page) => page.pageNumber >= pageStart && page.pageNumber <= pageEnd),
    );
    const segments = segmentsOf(chunk, pages);
    const majority = segments.reduce((best, segment) =>
      segment.end - segment.start > best.end - best.start ? segment : best,
    );
    add(report.chunkToOwnPages, ownPages(chunk.text) === majority.page);
    for (const sentence of splitSentences(chunk.text)) {
      const text = chunk.text.slice(sentence.start, sentence.end);
      if (text.split(/\s+/).length < MIN_SENTENCE_WORDS) continue;
      const holder = segments.find((segment) => sentence.start >= segment.start && sentence.end <= segment.end);
      if (!holder) continue; // runs across a page break: no single true page
      add(report.sentenceToOwnPages, ownPages(text) === holder.page);
    }
  }
  return report;
}

async function main(): Promise<void> {
  const asJson = process.argv.includes("--json");
  const directory =
    process.argv.slice(2).find((argument) => !argument.startsWith("--")) ?? sharedData("enterprise-pdfs", "pdfs");
  const tokenCounter = await loadTokenCounter(sharedModel("bge-small-en-v1.5"));
  const files = (await readdir(directory)).filter((name) => name.toLowerCase().endsWith(".pdf")).sort();
  const reports: FileReport[] = [];
  const failures: Array<{ file: string; error: string }> = [];
  for (const name of files) {
    try {
      const report = await measureFile(path.join(directory, name), tokenCounter);
      if (report) reports.push(report);
    } catch (error) {
      failures.push({ file: name, error: error instanceof Error ? error.message : String(error) });
    }
  }
  const total = (key: "chunkToFile" | "chunkToOwnPages" | "sentenceToOwnPages"): Tally =>
    reports.reduce((sum, report) => ({ agree: sum.agree + report[key].agree, total: sum.total + report[key].total }), {
      agree: 0,
      total: 0,
    });
  const totals = {
    files: reports.length,
    pages: reports.reduce((sum, report) => sum + report.pages, 0),
    chunks: reports.reduce((sum, report) => sum + report.chunks, 0),
    chunkToFile: total("chunkToFile"),
    chunkToOwnPages: total("chunkToOwnPages"),
    sentenceToOwnPages: total("sentenceToOwnPages"),
  };
  if (asJson) {
    process.stdout.write(`${JSON.stringify({ totals, reports, failures })}\n`);
    return;
  }
  process.stdout.write(
    "| file | pages | chunks | chunk → file | multi-page chunk → its pages | sentence → its chunk's pages |\n|---|---|---|---|---|---|\n",
  );
  for (const report of reports)
    process.stdout.write(
      `| ${report.file} | ${report.pages} | ${report.chunks} | ${share(report.chunkToFile)} (${report.chunkToFile.total}) | ${share(report.chunkToOwnPages)} (${report.chunkToOwnPages.total}) | ${share(report.sentenceToOwnPages)} (${report.sentenceToOwnPages.total}) |\n`,
    );
  process.stdout.write(
    `| **all ${totals.files} files** | ${totals.pages} | ${totals.chunks} | ${share(totals.chunkToFile)} (${totals.chunkToFile.agree}/${totals.chunkToFile.total}) | ${share(totals.chunkToOwnPages)} (${totals.chunkToOwnPages.agree}/${totals.chunkToOwnPages.total}) | ${share(totals.sentenceToOwnPages)} (${totals.sentenceToOwnPages.agree}/${totals.sentenceToOwnPages.total}) |\n`,
  );
  for (const failure of failures) process.stdout.write(`not measured: ${failure.file}: ${failure.error}\n`);
}

await main();
