/**
 * `npx tsx bench/questionnaire-benchmark.ts [northwind|vsaq|all]`: the questionnaire acceptance numbers.
 *
 * northwind — Northwind's page-QA questions written into an XLSX questionnaire (section rows and a
 *   choices column mixed in; test/support/northwind-questionnaire.ts), filled from the Northwind PDFs;
 *   the filled copy's Sources column is read back and scored for page hit@cited, next to
 *   `folio eval answers` run in the same process on the same questions and documents; every row is
 *   checked to be in place with its original cells unchanged; of the rows marked "answered", the
 *   share whose cited pages hold the answer. `northwind-preamble` fills it twice, as it is and with a
 *   title row and instructions above its header (#32), against one evaluation.
 * vsaq — the 245-row VSAQ (CSV and XLSX) against the enterprise PDFs: statuses, choice rows, throughput
 *   in questions per minute, and the p50 latency of interactive questions while it runs vs idle.
 *
 * Configuration comes from the environment as for `folio` (FOLIO_EMBED_MODEL=none: keyword-only, which
 * is what the table in docs/benchmarks.md was measured with on this machine).
 */
import { randomUUID } from "node:crypto";
import { readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { createFolio, type Folio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import { runAnswerEvaluation } from "../src/evaluation/answer-evaluation.js";
import { ingestIntoEvaluationSpace, newEvaluationSpaceId } from "../src/evaluation/evaluation-space.js";
import { summarizeLatency } from "../src/evaluation/latency.js";
import { createLogger } from "../src/logger.js";
import type { QuestionnaireJob } from "../src/questionnaire/jobs/questionnaire-job-store.js";
import { buildNorthwindQuestionnaire } from "../test/support/northwind-questionnaire.js";
import { sharedData } from "../test/support/shared-paths.js";

const log = (message: string) => process.stderr.write(`${message}\n`);

async function fill(folio: Folio, spaceId: string, bytes: Uint8Array, fileName: string) {
  const started = performance.now();
  const submitted = await folio.questionnaires.submit({ bytes, fileName, spaceId });
  const job = (await folio.questionnaires.whenSettled(submitted.id)) as QuestionnaireJob;
  const seconds = (performance.now() - started) / 1000;
  const copy = await folio.questionnaires.filledCopy(job.id);
  if (!copy) throw new Error("no filled copy");
  return { job, seconds, copy };
}

/** The pages a Sources cell and its Source k cells cite: documents from the links, pages from the text. */
function citedPages(row: ExcelJS.Row, sourcesColumn: number, lastColumn: number) {
  const cited: Array<{ documentId: string; pageStart: number; pageEnd: number }> = [];
  const first = row.getCell(sourcesColumn).value as { text?: string; hyperlink?: string } | null;
  const lines = typeof first === "object" && first?.text ? first.text.split("\n") : [];
  const links: string[] = [];
  if (first && typeof first === "object" && first.hyperlink) links.push(first.hyperlink);
  for (let column = sourcesColumn + 2; column <= lastColumn; column++) {
    const value = row.getCell(column).value as { hyperlink?: string } | null;
    if (value && typeof value === "object" && value.hyperlink) links.push(value.hyperlink);
  }
  lines.forEach((line, index) => {
    const link = links[index];
    const pages = /, pp?\. (\d+)(?:–(\d+))?$/.exec(line);
    const documentId = link ? /\/files\/([0-9a-f-]{36})/.exec(link)?.[1] : undefined;
    if (!pages || !documentId) return;
    cited.push({ documentId, pageStart: Number(pages[1]), pageEnd: Number(pages[2] ?? pages[1]) });
  });
  return cited;
}

/** One questionnaire of Northwind's questions filled and scored (Sources column read back); `preamble`: a title and instructions above the header. */
async function fillNorthwind(folio: Folio, spaceId: string, datasetPath: string, preamble: boolean) {
  const built = await buildNorthwindQuestionnaire(datasetPath, { preamble });
  const { job, seconds, copy } = await fill(folio, spaceId, built.bytes, "northwind-questionnaire.xlsx");
  const fileOf = new Map(
    (await folio.catalog.listDocuments(spaceId)).map((document) => [document.id, document.fileName]),
  );

  const original = new ExcelJS.Workbook();
  await original.xlsx.load(Buffer.from(built.bytes) as unknown as ArrayBuffer);
  const filled = new ExcelJS.Workbook();
  await filled.xlsx.load(Buffer.from(copy.bytes) as unknown as ArrayBuffer);
  // Every original cell of every sheet, unchanged (values and styles), and no row moved.
  let changedCells = 0;
  for (const sheet of original.worksheets) {
    const after = filled.getWorksheet(sheet.name);
    sheet.eachRow({ includeEmpty: true }, (row) =>
      row.eachCell({ includeEmpty: true }, (cell) => {
        const now = after?.getCell(cell.address);
        if (
          JSON.stringify(now?.value) !== JSON.stringify(cell.value) ||
          JSON.stringify(now?.style) !== JSON.stringify(cell.style)
        )
          changedCells += 1;
      }),
    );
  }
  const sheet = filled.getWorksheet(built.sheetName);
  if (!sheet) throw new Error("the questions sheet is gone");
  const header = (sheet.getRow(built.headerRow).values as unknown[]).map(String);
  const sourcesColumn = header.indexOf("Sources");
  const lastColumn = sheet.columnCount;
  let hitCited = 0;
  let misplaced = 0;
  const hits = new Set<string>();
  // Of the rows marked "answered", those whose cited pages hold the answer (a gold page).
  const rows = await folio.questionnaires.listRows(job.id);
  const statusOf = new Map(rows.map((row) => [row.question.rowNumber, row.status]));
  let answered = 0;
  let answeredHit = 0;
  for (const question of built.questions) {
    const row = sheet.getRow(question.rowNumber);
    if (row.getCell(2).value !== question.question) misplaced += 1;
    const cited = citedPages(row, sourcesColumn, lastColumn);
    const hit = cited.some((source) =>
      question.gold.some(
        (gold) =>
          gold.file === fileOf.get(source.documentId) && gold.page >= source.pageStart && gold.page <= source.pageEnd,
      ),
    );
    if (hit) {
      hitCited += 1;
      hits.add(question.question);
    }
    if (statusOf.get(question.rowNumber) === "answered") {
      answered += 1;
      if (hit) answeredHit += 1;
    }
  }
  return {
    hits,
    result: {
      preamble,
      headerRow: built.headerRow,
      sourcesColumnOnHeaderRow: sourcesColumn !== -1,
      questions: built.questions.length,
      rowsInJob: job.total,
      counts: job.counts,
      questionnaireHitAtCited: Number((hitCited / built.questions.length).toFixed(3)),
      answeredPrecision: {
        answered,
        citedPageHoldsAnswer: answeredHit,
        precision: Number((answeredHit / Math.max(1, answered)).toFixed(3)),
      },
      misplacedRows: misplaced,
      changedOriginalCells: changedCells,
      rowsAfter: sheet.rowCount,
      rowsBefore: original.getWorksheet(built.sheetName)?.rowCount,
      seconds: Number(seconds.toFixed(1)),
    },
  };
}

async function northwind(folio: Folio, preambles: boolean[]) {
  const datasetPath = sharedData("northwind-rag-qa", "ground_truth.jsonl");
  const docsDir = sharedData("northwind-rag-qa", "pdfs");
  const spaceId = newEvaluationSpaceId();
  const files = (await readdir(docsDir)).filter((name) => !name.startsWith(".")).sort();
  await ingestIntoEvaluationSpace(
    folio,
    spaceId,
    files.map((file) => path.join(docsDir, file)),
    log,
  );
  const variants = [];
  for (const preamble of preambles) variants.push(await fillNorthwind(folio, spaceId, datasetPath, preamble));
  const built = await buildNorthwindQuestionnaire(datasetPath);
  for (const document of await folio.catalog.listDocuments(spaceId)) await folio.core.deleteDocument(document.id);

  log("running folio eval answers on the same questions and documents…");
  const runOut = path.join(os.tmpdir(), `questionnaire-benchmark-${process.pid}.jsonl`);
  const evaluation = await runAnswerEvaluation(folio, { datasetPath, docsDir, runOut });
  // The questions each questionnaire and the evaluation disagree on, with the text the questionnaire asked.
  const disagreements: string[][] = variants.map(() => []);
  for (const line of (await readFile(runOut, "utf8")).trim().split("\n")) {
    const entry = JSON.parse(line) as { question: string; gold: string[]; cited: string[]; noContext: boolean };
    const evalHit =
      !entry.noContext &&
      entry.cited.some((cited) => {
        const [file, pages] = cited.split("#");
        const [start, end] = (pages ?? "").split("-").map(Number);
        return entry.gold.some((gold) => {
          const [goldFile, goldPage] = gold.split("#");
          return goldFile === file && Number(goldPage) >= (start ?? 0) && Number(goldPage) <= (end ?? start ?? 0);
        });
      });
    variants.forEach((variant, index) => {
      if (evalHit !== variant.hits.has(entry.question)) {
        const asked = built.questions.find((question) => question.question === entry.question);
        disagreements[index]?.push(
          `${evalHit ? "eval only" : "questionnaire only"}: ${entry.question}${asked ? "" : " (not in the questionnaire)"}`,
        );
      }
    });
  }
  await rm(runOut, { force: true });
  return {
    questionnaires: variants.map((variant, index) => ({ ...variant.result, disagreements: disagreements[index] })),
    evalAnswersHitAtCited: evaluation.pageHitAtCited,
    evalAnswersNoContextRate: evaluation.noContextRate,
  };
}

async function askLatencies(
  folio: Folio,
  spaceId: string,
  questions: string[],
  until: () => boolean,
): Promise<number[]> {
  const latencies: number[] = [];
  for (const question of questions) {
    if (!until()) break;
    const started = performance.now();
    for await (const event of folio.core.answerQuestion(question, {
      spaceIds: [spaceId],
      history: [],
      requestId: randomUUID(),
    })) {
      if (event.type === "error") throw new Error(event.message);
    }
    latencies.push(performance.now() - started);
  }
  return latencies;
}

const INTERACTIVE_QUESTIONS = [
  "How quickly must a security incident be reported?",
  "What is the minimum password length?",
  "How long are backups kept?",
  "What does the employee handbook say about data security audits?",
  "What are the essential characteristics of cloud computing?",
  "Which media sanitization methods are described?",
  "What is a plan of action and milestones?",
  "How are patches prioritised?",
  "What is multi-factor authentication?",
  "How is a container image scanned?",
];

async function vsaq(folio: Folio) {
  const spaceId = newEvaluationSpaceId();
  const docsDir = sharedData("enterprise-pdfs", "pdfs");
  const files = (await readdir(docsDir)).filter((name) => name.endsWith(".pdf")).sort();
  await ingestIntoEvaluationSpace(
    folio,
    spaceId,
    files.map((file) => path.join(docsDir, file)),
    log,
  );
  const results: Record<string, unknown> = {};
  const vsaqDir = sharedData("questionnaires", "vsaq");

  // Idle latency first, then the same questions asked while the XLSX questionnaire is being answered.
  const idle = await askLatencies(folio, spaceId, [...INTERACTIVE_QUESTIONS, ...INTERACTIVE_QUESTIONS], () => true);
  for (const fileName of ["vsaq_questions_flat.csv", "vsaq_questions_flat.xlsx"]) {
    const bytes = new Uint8Array(await readFile(path.join(vsaqDir, fileName)));
    let running = true;
    const filling = fill(folio, spaceId, bytes, fileName).finally(() => {
      running = false;
    });
    const busy = fileName.endsWith(".xlsx")
      ? await askLatencies(
          folio,
          spaceId,
          [...INTERACTIVE_QUESTIONS, ...INTERACTIVE_QUESTIONS, ...INTERACTIVE_QUESTIONS],
          () => running,
        )
      : [];
    const { job, seconds } = await filling;
    const rows = await folio.questionnaires.filledCopy(job.id);
    const jobRows = await folio.questionnaires.listRows(job.id);
    const choiceRows = jobRows.filter((row) => row.question.choices.length > 0);
    const badChoices = choiceRows.filter(
      (row) => row.result?.choice && !row.question.choices.includes(row.result.choice),
    );
    results[fileName] = {
      rows: job.total,
      counts: job.counts,
      withStatus: jobRows.filter((row) => row.result !== null).length,
      choiceRows: choiceRows.length,
      choicesPicked: choiceRows.filter((row) => row.result?.choice).length,
      choicesNotInList: badChoices.length,
      seconds: Number(seconds.toFixed(1)),
      questionsPerMinute: Number(((job.total / seconds) * 60).toFixed(1)),
      filledBytes: rows?.bytes.byteLength,
      ...(busy.length > 0
        ? { interactiveWhileRunning: { asked: busy.length, p50Ms: Math.round(summarizeLatency(busy).p50) } }
        : {}),
    };
  }
  results.interactiveIdle = { asked: idle.length, p50Ms: Math.round(summarizeLatency(idle).p50) };
  return results;
}

const which = process.argv[2] ?? "all";
const config = loadConfig(process.env, process.cwd());
const folio = await createFolio(config, createLogger({ level: "warn" }), {
  embeddingCacheDir: path.join(config.dataDir, "embedding-cache"),
});
try {
  const report: Record<string, unknown> = {
    embedder: folio.embedder?.modelId ?? "none",
    retrievalMode: folio.retrievalMode,
    generator: folio.languageModel ? "llm" : "extractive",
    concurrency: config.questionnaire.concurrency,
  };
  if (which === "northwind" || which === "all") report.northwind = await northwind(folio, [false]);
  // #32: the same questionnaire with a title row and instructions above its header, beside the plain one.
  if (which === "northwind-preamble") report.northwind = await northwind(folio, [false, true]);
  if (which === "vsaq" || which === "all") report.vsaq = await vsaq(folio);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} finally {
  await folio.close();
}
