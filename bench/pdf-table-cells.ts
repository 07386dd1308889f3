/**
 * Cell-level benchmark of PDF table reading (issue #39), through the real PDF parser:
 * - `tatqa`: the TAT-QA dev excerpts printed to PDF as `folio eval tatqa --as pdf` prints them, scored
 *   against the dataset's own tables (`--half even|odd` for the tuning half and the held-out half);
 * - `statements`: statement pages of the FinanceBench dev filings against grids checked by hand
 *   (bench/pdf-table-gold/financebench-statements.jsonl);
 * - `prose`: pages of the enterprise PDFs that hold no table, where none may be found
 *   (bench/pdf-table-gold/enterprise-prose-pages.jsonl);
 * - `count`: how many tables the enterprise PDFs yield, per file.
 * Cell accuracy: the share of gold cells found under the same row label and column header
 * (src/evaluation/table-cell-accuracy.ts); header accuracy likewise for column headers.
 *
 * Usage: tsx bench/pdf-table-cells.ts <tatqa|statements|prose|count|all> [--half even|odd] [--show N] [--json]
 * Reads FOLIO_SHARED_DATA_DIR (default ../shared/data) and FOLIO_DATA_DIR (where the TAT-QA PDFs are printed).
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { DEFAULT_PARSE_LIMITS } from "../ingestion/limits.js";
import { parsePdf } from "../ingestion/parse-pdf.js";
import type { TableBlock } from "../ingestion/parsed-document.js";
import {
  type CellMismatch,
  type CellScore,
  type FlatTable,
  flattenTable,
  scoreCells,
} from "../src/evaluation/table-cell-accuracy.js";
import { readTatqaDataset } from "../src/evaluation/tatqa-dataset.js";
import { writeExcerptFiles } from "../src/evaluation/tatqa-evaluation.js";

const sharedData = process.env.FOLIO_SHARED_DATA_DIR ?? path.resolve("../shared/data");
const dataDir = process.env.FOLIO_DATA_DIR ?? ".folio";
const goldDir = path.join(path.dirname(new URL(import.meta.url).pathname), "pdf-table-gold");
const argumentsGiven = process.argv.slice(2);
const command = argumentsGiven[0] ?? "all";
const option = (name: string) => {
  const index = argumentsGiven.indexOf(name);
  return index < 0 ? undefined : argumentsGiven[index + 1];
};
const half = option("--half");
const show = Number(option("--show") ?? 0);
const asJson = argumentsGiven.includes("--json");

type Tally = CellScore & { documents: number; tables: number; perDocument: Array<{ where: string; missed: number }> };

function emptyTally(): Tally {
  return {
    cells: 0,
    cellsFound: 0,
    columns: 0,
    columnsFound: 0,
    mismatches: [],
    documents: 0,
    tables: 0,
    perDocument: [],
  };
}

function add(tally: Tally, score: CellScore, tables: number, where: string): void {
  tally.documents += 1;
  tally.tables += tables;
  tally.cells += score.cells;
  tally.cellsFound += score.cellsFound;
  tally.columns += score.columns;
  tally.columnsFound += score.columnsFound;
  tally.perDocument.push({ where, missed: score.cells - score.cellsFound });
  tally.mismatches.push(...score.mismatches.map((mismatch) => ({ ...mismatch, label: `${where}: ${mismatch.label}` })));
}

function flatBlock(block: TableBlock): FlatTable {
  const hasHeader = block.header.some((cell) => cell.trim() !== "");
  return flattenTable(hasHeader ? [block.header, ...block.rows] : block.rows, hasHeader);
}

/** A table continued on the next page (its header carried there) is one table, as a reader sees it. */
function joinContinued(blocks: TableBlock[]): TableBlock[] {
  const joined: TableBlock[] = [];
  for (const block of blocks) {
    const previous = joined.at(-1);
    const continues =
      previous !== undefined &&
      block.page === (previous.page ?? 0) + 1 &&
      block.header.length > 0 &&
      block.header.join("\u0000") === previous.header.join("\u0000") &&
      block.firstRow === previous.firstRow + previous.rows.length;
    if (continues) joined[joined.length - 1] = { ...previous, rows: [...previous.rows, ...block.rows] };
    else joined.push(block);
  }
  return joined;
}

async function tablesOf(file: string): Promise<TableBlock[]> {
  const document = await parsePdf(new Uint8Array(await readFile(file)), path.basename(file), DEFAULT_PARSE_LIMITS);
  return document.blocks.filter((block): block is TableBlock => block.kind === "table");
}

function share(found: number, total: number): number {
  return total === 0 ? 0 : Math.round((found / total) * 1000) / 1000;
}

function summary(name: string, tally: Tally) {
  if (show > 0) {
    const worst = [...tally.perDocument].sort((left, right) => right.missed - left.missed).slice(0, show);
    process.stdout.write(`worst: ${worst.map((entry) => `${entry.where} (${entry.missed})`).join(", ")}\n`);
    printMismatches(tally.mismatches);
  }
  return {
    set: name,
    documents: tally.documents,
    tablesDetected: tally.tables,
    cells: tally.cells,
    cellAccuracy: share(tally.cellsFound, tally.cells),
    columns: tally.columns,
    headerAccuracy: share(tally.columnsFound, tally.columns),
  };
}

function printMismatches(mismatches: CellMismatch[]): void {
  for (const mismatch of mismatches.slice(0, show))
    process.stdout.write(
      `  miss ${mismatch.label} | ${mismatch.header} | gold ${mismatch.gold} | got ${mismatch.detected ?? "-"}\n`,
    );
}

async function runTatqa() {
  const datasetPath = path.join(sharedData, "tatqa-dev", "tatqa_dataset_dev.json");
  const excerpts = readTatqaDataset(await readFile(datasetPath, "utf8"));
  const files = await writeExcerptFiles(excerpts, path.join(dataDir, "tatqa-documents"), "pdf", (message) =>
    process.stderr.write(`${message}\n`),
  );
  const tally = emptyTally();
  for (const [index, excerpt] of excerpts.entries()) {
    if (half === "even" && index % 2 === 1) continue;
    if (half === "odd" && index % 2 === 0) continue;
    const blocks = await tablesOf(files.get(excerpt.uid) ?? "");
    const gold = flattenTable(excerpt.table, true);
    const score = scoreCells([gold], joinContinued(blocks).map(flatBlock));
    add(tally, score, blocks.length, `tatqa#${index} ${excerpt.uid.slice(0, 8)}`);
  }
  return summary(`tatqa-dev${half ? ` (${half} excerpts)` : ""}`, tally);
}

type StatementGold = { file: string; page: number; tables: Array<{ header: string[]; rows: string[][] }> };

async function readJsonLines<T>(file: string): Promise<T[]> {
  return (await readFile(file, "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("//"))
    .map((line) => JSON.parse(line) as T);
}

async function runStatements() {
  const pages = await readJsonLines<StatementGold>(path.join(goldDir, "financebench-statements.jsonl"));
  const tally = emptyTally();
  const byFile = new Map<string, TableBlock[]>();
  for (const page of pages) {
    const file = path.join(sharedData, "financebench-dev", "pdfs", page.file);
    if (!byFile.has(file)) byFile.set(file, await tablesOf(file));
    const blocks = (byFile.get(file) ?? []).filter((block) => block.page === page.page);
    // The gold header is already one joined header per column.
    const gold = page.tables.map((table) => ({
      headers: ["", ...table.header],
      body: table.rows.map((row) => [...row]),
    }));
    add(tally, scoreCells(gold, blocks.map(flatBlock)), blocks.length, `${page.file}#${page.page}`);
  }
  return summary("financebench statement pages", tally);
}

async function runProse() {
  const pages = await readJsonLines<{ file: string; page: number }>(path.join(goldDir, "enterprise-prose-pages.jsonl"));
  const byFile = new Map<string, TableBlock[]>();
  const found: string[] = [];
  for (const page of pages) {
    const file = path.join(sharedData, "enterprise-pdfs", "pdfs", page.file);
    if (!byFile.has(file)) byFile.set(file, await tablesOf(file));
    const blocks = (byFile.get(file) ?? []).filter((block) => block.page === page.page);
    if (blocks.length > 0) found.push(`${page.file}#${page.page}: ${blocks.length}`);
  }
  return { set: "enterprise prose-only pages", pages: pages.length, pagesWithTables: found.length, found };
}

async function runCount() {
  const directory = path.join(sharedData, "enterprise-pdfs", "pdfs");
  const files = (await readdir(directory)).filter((name) => name.endsWith(".pdf")).sort();
  const perFile: Record<string, number> = {};
  let total = 0;
  for (const name of files) {
    const count = (await tablesOf(path.join(directory, name))).length;
    perFile[name] = count;
    total += count;
  }
  return { set: "enterprise PDFs", files: files.length, tables: total, perFile };
}

const runs: Record<string, () => Promise<unknown>> = {
  tatqa: runTatqa,
  statements: runStatements,
  prose: runProse,
  count: runCount,
};
const chosen = command === "all" ? Object.keys(runs) : [command];
const results: unknown[] = [];
for (const name of chosen) {
  const run = runs[name];
  if (run === undefined) throw new Error(`unknown set ${name}: tatqa, statements, prose, count or all`);
  const result = (await run()) as Record<string, unknown>;
  results.push(result);
  if (!asJson) process.stdout.write(`${JSON.stringify(result, null, 1)}\n`);
}
if (asJson) process.stdout.write(`${JSON.stringify(results)}\n`);
