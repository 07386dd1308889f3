/**
 * `npx tsx bench/questionnaire-layout-corpus.ts [--json]`: how many questionnaire layouts are read right
 * (#32) — the generated corpus of test/support/questionnaire-layouts.ts and the public VSAQ files in
 * `../shared/data/questionnaires/vsaq`. A layout is read right when every sheet holding questions, its
 * header row and its question column are the expected ones and exactly the expected texts are asked
 * (so no ID, title, section name or instruction). Each filled copy is then converted by LibreOffice
 * (`soffice --headless`, when installed) and counted as reopened when the conversion holds its first
 * question and the answer written beside it. The same checks, as assertions, are
 * test/integration/questionnaire-layouts.test.ts.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { columnLetters, findQuestions } from "../src/questionnaire/read/find-questions.js";
import { readQuestionnaireGrid } from "../src/questionnaire/read/read-questionnaire-grid.js";
import { writeFilledCopy } from "../src/questionnaire/write/write-filled-copy.js";
import { answeredRow } from "../test/support/questionnaire-files.js";
import { questionnaireLayouts } from "../test/support/questionnaire-layouts.js";
import { sharedData } from "../test/support/shared-paths.js";

const run = promisify(execFile);

type Case = {
  name: string;
  fileName: string;
  bytes: Uint8Array;
  expected: {
    sheets: Array<{ sheet: string; headerRow: number | null; questionColumn: string }>;
    questions?: string[];
    count?: number;
  };
};

async function cases(): Promise<Case[]> {
  const generated = await Promise.all(
    questionnaireLayouts().map(async (layout) => ({
      name: layout.name,
      fileName: layout.fileName,
      bytes: await layout.build(),
      expected: layout.expected,
    })),
  );
  const vsaq: Case[] = [];
  for (const [fileName, sheet] of [
    ["vsaq_questions_flat.csv", "vsaq_questions_flat"],
    ["vsaq_questions_flat.xlsx", "VSAQ questions"],
  ] as const) {
    const file = sharedData("questionnaires", "vsaq", fileName);
    if (!existsSync(file)) continue;
    vsaq.push({
      name: `public: ${fileName}`,
      fileName,
      bytes: new Uint8Array(await readFile(file)),
      expected: { sheets: [{ sheet, headerRow: 1, questionColumn: "E" }], count: 245 },
    });
  }
  return [...generated, ...vsaq];
}

const json = process.argv.includes("--json");
const directory = await mkdtemp(path.join(os.tmpdir(), "folio-layout-corpus-"));
try {
  const results: Array<{ name: string; readRight: boolean; problem?: string; file?: string; question?: string }> = [];
  for (const entry of await cases()) {
    try {
      const read = findQuestions(await readQuestionnaireGrid(entry.bytes, entry.fileName), { maxRows: 5_000 });
      const sheets = read.layouts.map((layout) => ({
        sheet: layout.sheet,
        headerRow: layout.headerRow,
        questionColumn: columnLetters(layout.questionColumn),
      }));
      const texts = read.questions.map((question) => question.text);
      const sheetsRight = JSON.stringify(sheets) === JSON.stringify(entry.expected.sheets);
      const questionsRight = entry.expected.questions
        ? JSON.stringify(texts) === JSON.stringify(entry.expected.questions)
        : texts.length === entry.expected.count;
      const copy = await writeFilledCopy({
        bytes: entry.bytes,
        fileName: entry.fileName,
        format: read.format,
        layouts: read.layouts,
        rows: read.questions.map((question, index) => ({
          sheetIndex: question.sheetIndex,
          rowNumber: question.rowNumber,
          answer: answeredRow(`Answer ${index + 1} from the policy.`, [index + 1]),
        })),
      });
      const file = path.join(directory, copy.fileName);
      await writeFile(file, copy.bytes);
      results.push({
        name: entry.name,
        readRight: sheetsRight && questionsRight,
        ...(sheetsRight ? {} : { problem: `read ${JSON.stringify(sheets)}` }),
        ...(questionsRight ? {} : { problem: `asked ${texts.length}: ${JSON.stringify(texts.slice(0, 3))}…` }),
        file,
        question: texts[0] ?? "",
      });
    } catch (error) {
      results.push({
        name: entry.name,
        readRight: false,
        problem: error instanceof Error ? error.message : String(error),
      });
    }
  }
  const soffice = await run("soffice", ["--version"], { timeout: 60_000 }).then(
    () => true,
    () => false,
  );
  let reopened: number | null = null;
  if (soffice) {
    const out = path.join(directory, "converted");
    const files = results.flatMap((result) => (result.file ? [result.file] : []));
    const environment = { ...process.env, HOME: directory };
    const spreadsheets = files.filter((file) => !file.endsWith(".docx"));
    const documents = files.filter((file) => file.endsWith(".docx"));
    await run(
      "soffice",
      [
        "--headless",
        "--convert-to",
        "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1",
        "--outdir",
        out,
        ...spreadsheets,
      ],
      { timeout: 600_000, env: environment },
    );
    await run("soffice", ["--headless", "--convert-to", "txt:Text", "--outdir", out, ...documents], {
      timeout: 600_000,
      env: environment,
    });
    const converted = existsSync(out) ? await readdir(out) : [];
    reopened = 0;
    for (const result of results) {
      if (!result.file) continue;
      const stem = path.basename(result.file).replace(/\.[^.]+$/, "");
      const text = (
        await Promise.all(
          converted.filter((name) => name.startsWith(stem)).map((name) => readFile(path.join(out, name), "utf8")),
        )
      ).join("\n");
      if (text.includes(result.question ?? "") && text.includes("Answer 1 from the policy.")) reopened += 1;
    }
  }
  const right = results.filter((result) => result.readRight).length;
  const report = {
    layouts: results.length,
    readRight: right,
    reopenedInLibreOffice: reopened,
    wrong: results
      .filter((result) => !result.readRight)
      .map((result) => ({ name: result.name, problem: result.problem })),
  };
  if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    process.stdout.write(
      `read right: ${right}/${results.length}; reopened in LibreOffice: ${reopened === null ? "soffice not installed" : `${reopened}/${results.length}`}\n`,
    );
    for (const wrong of report.wrong) process.stdout.write(`  wrong: ${wrong.name} — ${wrong.problem}\n`);
  }
} finally {
  await rm(directory, { recursive: true, force: true });
}
