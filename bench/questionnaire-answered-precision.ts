/**
 * `npx tsx bench/questionnaire-answered-precision.ts [enterprise|vsaq] [--rows-out FILE]`: of the rows a
 * questionnaire job marks "answered", the share whose cited page holds the answer (#32).
 *
 * enterprise — bench/enterprise-questionnaire.jsonl: 49 questionnaire-style questions over the 45
 *   enterprise PDFs (`../shared/data/enterprise-pdfs/pdfs`), written for #32 by the helper who built the
 *   support test, each with the pages that state its answer (found with pdftotext, 1-based physical
 *   pages); 10 of them ask what no document states (an ISO 27001 certificate, an SLA, a SOC 2 report…),
 *   so any "answered" there is wrong. The support test was tuned looking at this set's rows; then
 *   bench/enterprise-questionnaire-fresh.jsonl (26 more, 10 not in the documents) was written and run
 *   once with the test frozen (0.857, 12/14), its wrong rows read and the test revised (definitions
 *   held to a defining sentence, short questions' words together, only a document's identifiers taken
 *   from its name); then bench/enterprise-questionnaire-fresh-2.jsonl (22, 8 not in the documents) was
 *   written and run once (0.375, 3/8), its wrong rows read and the test revised again (the names a
 *   question gives all in the passage, a predicate like "provide" kept unless it opens the question,
 *   two content words at least); then bench/enterprise-questionnaire-fresh-3.jsonl (22, 9 not in the
 *   documents) was written and run once — its figure is the one untouched by tuning. Put into an XLSX questionnaire with a title row, instructions and
 *   section rows above and among the questions, filled by a real job, scored from the job's rows:
 *   precision of "answered" (a cited page is a gold page), and the same for the rule before #32 (every
 *   row with sources and no unverified model draft was "answered").
 * vsaq — the 245-row VSAQ CSV against the same PDFs: statuses, and every row marked "answered" written
 *   to --rows-out (question, choice, quote, source pages) for judging by hand.
 *
 * Configuration from the environment as for `folio` (FOLIO_EMBED_MODEL=none: keyword-only).
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import ExcelJS from "exceljs";
import { createFolio, type Folio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import {
  deleteEvaluationSpace,
  ingestIntoEvaluationSpace,
  newEvaluationSpaceId,
} from "../src/evaluation/evaluation-space.js";
import { createLogger } from "../src/logger.js";
import type { QuestionnaireJob, QuestionnaireRowRecord } from "../src/questionnaire/jobs/questionnaire-job-store.js";
import { sharedData } from "../test/support/shared-paths.js";

const log = (message: string) => process.stderr.write(`${message}\n`);

type GoldQuestion = { section: string; question: string; gold: string[] };

async function fill(folio: Folio, spaceId: string, bytes: Uint8Array, fileName: string) {
  const started = performance.now();
  const submitted = await folio.questionnaires.submit({ bytes, fileName, spaceId });
  const job = (await folio.questionnaires.whenSettled(submitted.id)) as QuestionnaireJob;
  return { job, rows: await folio.questionnaires.listRows(job.id), seconds: (performance.now() - started) / 1000 };
}

/** The questions as a customer would send them: a title, instructions, a header, a section row per topic. */
async function enterpriseWorkbook(questions: GoldQuestion[]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Questionnaire");
  sheet.addRow(["Supplier security and HR review — please answer every question"]);
  sheet.addRow(["Instructions: answer each question in the Response column and cite the document and page."]);
  sheet.addRow([]);
  sheet.addRow(["ID", "Question", "Response", "Reviewer notes"]);
  let section = "";
  questions.forEach((entry, index) => {
    if (entry.section !== section) sheet.addRow([entry.section]);
    section = entry.section;
    sheet.addRow([`Q${index + 1}`, entry.question, null, null]);
  });
  return new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
}

/** "file.pdf#7" for every page each source spans. */
function citedPages(row: QuestionnaireRowRecord, fileOf: Map<string, string>): string[] {
  return (row.result?.sources ?? []).flatMap((source) => {
    const file = fileOf.get(source.documentId) ?? source.file;
    const start = source.pageStart;
    if (start === null) return [];
    const end = source.pageEnd ?? start;
    return Array.from({ length: end - start + 1 }, (_, offset) => `${file}#${start + offset}`);
  });
}

function precision(rows: Array<{ hit: boolean }>) {
  const hits = rows.filter((row) => row.hit).length;
  return {
    rows: rows.length,
    citedPageHoldsAnswer: hits,
    precision: Number((hits / Math.max(1, rows.length)).toFixed(3)),
  };
}

async function enterprise(folio: Folio, spaceId: string, fileOf: Map<string, string>, set: string, rowsOut?: string) {
  const questions = (await readFile(new URL(`./${set}`, import.meta.url), "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as GoldQuestion);
  const { job, rows, seconds } = await fill(
    folio,
    spaceId,
    await enterpriseWorkbook(questions),
    "supplier-review.xlsx",
  );
  const scored = rows.map((row) => {
    const gold = questions.find((entry) => entry.question === row.question.text);
    const pages = citedPages(row, fileOf);
    const firstSource = row.result?.sources[0];
    const firstPages = firstSource
      ? citedPages({ ...row, result: row.result && { ...row.result, sources: [firstSource] } }, fileOf)
      : [];
    return {
      question: row.question.text,
      status: row.status,
      note: row.result?.note ?? null,
      answerable: (gold?.gold.length ?? 0) > 0,
      hit: pages.some((page) => gold?.gold.includes(page)),
      firstSourceHit: firstPages.some((page) => gold?.gold.includes(page)),
      cited: pages,
      gold: gold?.gold ?? [],
      quote: row.result?.quote ?? "",
    };
  });
  if (rowsOut) await writeFile(rowsOut, `${scored.map((row) => JSON.stringify(row)).join("\n")}\n`);
  const answered = scored.filter((row) => row.status === "answered");
  // Before #32 every row with sources was "answered" unless a model draft failed its check.
  const previouslyAnswered = scored.filter(
    (row) => row.status === "answered" || (row.status === "needs_review" && row.note?.startsWith("no cited passage")),
  );
  return {
    questions: questions.length,
    answerable: questions.filter((entry) => entry.gold.length > 0).length,
    rowsInJob: job.total,
    skipped: job.layouts.map((layout) => layout.skipped),
    counts: job.counts,
    answered: precision(answered),
    answeredFirstSource: precision(answered.map((row) => ({ hit: row.firstSourceHit }))),
    answeredUnanswerable: answered.filter((row) => !row.answerable).length,
    needsReviewWithGoldPageCited: scored.filter((row) => row.status === "needs_review" && row.hit).length,
    beforeThisChange: precision(previouslyAnswered),
    hitAtCitedAllAnswerable: precision(scored.filter((row) => row.answerable)),
    seconds: Number(seconds.toFixed(1)),
  };
}

async function vsaq(folio: Folio, spaceId: string, fileOf: Map<string, string>, rowsOut?: string) {
  const fileName = "vsaq_questions_flat.csv";
  const bytes = new Uint8Array(await readFile(sharedData("questionnaires", "vsaq", fileName)));
  const { job, rows, seconds } = await fill(folio, spaceId, bytes, fileName);
  const answered = rows
    .filter((row) => row.status === "answered")
    .map((row) => ({
      question: row.question.text,
      choice: row.result?.choice ?? null,
      answer: row.result?.answer ?? "",
      quote: row.result?.quote ?? "",
      cited: citedPages(row, fileOf),
    }));
  if (rowsOut) await writeFile(rowsOut, `${answered.map((row) => JSON.stringify(row)).join("\n")}\n`);
  return { rows: job.total, counts: job.counts, answered: answered.length, seconds: Number(seconds.toFixed(1)) };
}

const { values, positionals } = parseArgs({ options: { "rows-out": { type: "string" } }, allowPositionals: true });
const which = positionals[0] ?? "enterprise";
const config = loadConfig(process.env, process.cwd());
const folio = await createFolio(config, createLogger({ level: "warn" }), {
  embeddingCacheDir: path.join(config.dataDir, "embedding-cache"),
});
try {
  const spaceId = newEvaluationSpaceId();
  const docsDir = sharedData("enterprise-pdfs", "pdfs");
  const files = (await readdir(docsDir)).filter((name) => name.endsWith(".pdf")).sort();
  await ingestIntoEvaluationSpace(
    folio,
    spaceId,
    files.map((file) => path.join(docsDir, file)),
    log,
  );
  const fileOf = new Map(
    (await folio.catalog.listDocuments(spaceId)).map((document) => [document.id, document.fileName]),
  );
  const report: Record<string, unknown> = {
    embedder: folio.embedder?.modelId ?? "none",
    retrievalMode: folio.retrievalMode,
    generator: folio.languageModel ? "llm" : "extractive",
  };
  if (which === "enterprise") {
    // The sets the support test was tuned on, then the one written after its last revision.
    for (const set of [
      "enterprise-questionnaire.jsonl",
      "enterprise-questionnaire-fresh.jsonl",
      "enterprise-questionnaire-fresh-2.jsonl",
      "enterprise-questionnaire-fresh-3.jsonl",
    ]) {
      const rowsOut = values["rows-out"] ? `${values["rows-out"]}.${set}` : undefined;
      report[set] = await enterprise(folio, spaceId, fileOf, set, rowsOut);
    }
  }
  if (which === "vsaq") report.vsaq = await vsaq(folio, spaceId, fileOf, values["rows-out"]);
  await deleteEvaluationSpace(folio, spaceId);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} finally {
  await folio.close();
}
