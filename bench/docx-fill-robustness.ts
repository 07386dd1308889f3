/**
 * The Word filled copy on real documents: every DOCX of the shared office corpora
 * (../shared/data/office-docs/docx, robustness-office/docx) is read by the questionnaire reader, its
 * outermost tables counted against mammoth's (what the reader used before), every row but each table's
 * first filled with an answer citing two pages, and the copy read back: the original cells must stand
 * unchanged in every row. With --soffice each copy is also converted to text by LibreOffice Writer.
 *
 *   npx tsx bench/docx-fill-robustness.ts [--soffice] [--json]
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import mammoth from "mammoth";
import { parse as parseHtml } from "node-html-parser";
import { readQuestionnaireGrid } from "../src/questionnaire/read/read-questionnaire-grid.js";
import { writeFilledCopy } from "../src/questionnaire/write/write-filled-copy.js";
import { answeredRow } from "../test/support/questionnaire-files.js";
import { sharedData } from "../test/support/shared-paths.js";

const { values } = parseArgs({
  options: { soffice: { type: "boolean", default: false }, json: { type: "boolean", default: false } },
});
const run = promisify(execFile);

type Outcome = {
  file: string;
  tables: number;
  mammothTables: number | null;
  filledRows: number;
  originalCellsKept: boolean | null;
  reopenedInWriter: boolean | null;
  error: string | null;
};

async function mammothTableCount(bytes: Uint8Array): Promise<number | null> {
  try {
    const html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes) })).value;
    return parseHtml(html)
      .querySelectorAll("table")
      .filter((table) => !table.parentNode?.closest?.("table")).length;
  } catch {
    return null;
  }
}

async function reopens(directory: string, file: string, bytes: Uint8Array): Promise<boolean> {
  const input = path.join(directory, file);
  await writeFile(input, bytes);
  await run("soffice", ["--headless", "--convert-to", "txt:Text", "--outdir", directory, input], {
    timeout: 300_000,
    env: { ...process.env, HOME: directory },
  }).catch(() => undefined);
  const text = await readFile(path.join(directory, file.replace(/\.docx$/, ".txt")), "utf8").catch(() => "");
  return text.includes("(quoted)");
}

async function outcomeOf(file: string, bytes: Uint8Array, directory: string): Promise<Outcome> {
  const outcome: Outcome = {
    file,
    tables: 0,
    mammothTables: await mammothTableCount(bytes),
    filledRows: 0,
    originalCellsKept: null,
    reopenedInWriter: null,
    error: null,
  };
  try {
    const grid = await readQuestionnaireGrid(bytes, file);
    outcome.tables = grid.sheets.length;
    const rows = grid.sheets.flatMap((sheet, sheetIndex) =>
      sheet.rows
        .filter((row) => row.rowNumber > 1)
        .map((row) => ({ sheetIndex, rowNumber: row.rowNumber, answer: answeredRow("Filled & <checked>.", [1, 2]) })),
    );
    outcome.filledRows = rows.length;
    if (rows.length === 0) return outcome;
    const layouts = grid.sheets.map((sheet, sheetIndex) => ({
      sheet: sheet.name,
      sheetIndex,
      questionColumn: 0,
      choicesColumn: null,
      sectionColumn: null,
      headerRow: 1,
      columnCount: 1,
    }));
    const copy = await writeFilledCopy({ bytes, fileName: file, format: "docx", layouts, rows });
    const again = await readQuestionnaireGrid(copy.bytes, copy.fileName);
    outcome.originalCellsKept = grid.sheets.every((sheet, index) =>
      sheet.rows.every((row) => {
        const now = again.sheets[index]?.rows.find((entry) => entry.rowNumber === row.rowNumber);
        return now !== undefined && row.cells.every((cell, column) => now.cells[column] === cell);
      }),
    );
    if (values.soffice) outcome.reopenedInWriter = await reopens(directory, file, copy.bytes);
  } catch (error) {
    outcome.error = `${(error as { code?: string }).code ?? "error"}: ${(error as Error).message}`;
  }
  return outcome;
}

const corpora = [sharedData("office-docs", "docx"), sharedData("robustness-office", "docx")];
const directory = await mkdtemp(path.join(os.tmpdir(), "folio-docx-fill-"));
const outcomes: Outcome[] = [];
try {
  for (const corpus of corpora) {
    const files = (await readdir(corpus).catch(() => [] as string[])).filter((name) => name.endsWith(".docx")).sort();
    for (const file of files)
      outcomes.push(await outcomeOf(file, new Uint8Array(await readFile(path.join(corpus, file))), directory));
  }
} finally {
  await rm(directory, { recursive: true, force: true });
}
if (outcomes.length === 0) {
  process.stderr.write(`No DOCX files under ${corpora.join(" or ")} — the shared data is missing.\n`);
  process.exit(1);
}

const filled = outcomes.filter((outcome) => outcome.filledRows > 0);
const summary = {
  documents: outcomes.length,
  tableCountsAgreeWithMammoth: outcomes.filter((outcome) => outcome.tables === outcome.mammothTables).length,
  documentsWithRowsToFill: filled.length,
  filledRows: filled.reduce((sum, outcome) => sum + outcome.filledRows, 0),
  originalCellsKept: filled.filter((outcome) => outcome.originalCellsKept === true).length,
  reopenedInWriter: values.soffice ? filled.filter((outcome) => outcome.reopenedInWriter === true).length : null,
  errors: outcomes.filter((outcome) => outcome.error !== null).map(({ file, error }) => ({ file, error })),
};
if (values.json) process.stdout.write(`${JSON.stringify({ summary, outcomes }, null, 2)}\n`);
else {
  process.stdout.write(
    `${summary.documents} DOCX documents; table counts agree with mammoth's in ${summary.tableCountsAgreeWithMammoth}\n` +
      `${summary.documentsWithRowsToFill} with rows to fill (${summary.filledRows} rows): original cells kept in ${summary.originalCellsKept}` +
      `${summary.reopenedInWriter === null ? "" : `, reopened by LibreOffice Writer with the answers: ${summary.reopenedInWriter}`}\n` +
      `errors: ${summary.errors.length === 0 ? "none" : summary.errors.map((entry) => `${entry.file} (${entry.error})`).join("; ")}\n`,
  );
}
