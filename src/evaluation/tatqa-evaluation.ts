/**
 * `folio eval tatqa`: TAT-QA's excerpts uploaded as a user would upload them — each rendered as an HTML
 * page (or that page printed to PDF by LibreOffice, `--as pdf`), ingested through the normal path into a
 * space of its own — and every question asked in that space through the normal answer path. Each answer
 * is scored on what a reader sees first (first-sentence.ts) and by TAT-QA's official exact match and F1
 * (tatqa-metric.ts) on the answer's stated value. Writes one JSON line per question with `--run-out`.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { Answer, AnswerContext, AnswerEvent } from "../answer/answer-events.js";
import type { Folio } from "../composition-root.js";
import { FolioError } from "../errors.js";
import { collectAnswer } from "./ask-conversations.js";
import { deleteEvaluationSpace, ingestIntoEvaluationSpace } from "./evaluation-space.js";
import { firstSentenceHolds } from "./first-sentence.js";
import { summarizeLatency } from "./latency.js";
import {
  readTatqaDataset,
  renderExcerptHtml,
  TATQA_ANSWER_TYPES,
  type TatqaAnswerType,
  type TatqaExcerpt,
  type TatqaQuestion,
} from "./tatqa-dataset.js";
import { officialScore } from "./tatqa-metric.js";

export type TatqaDocumentFormat = "html" | "pdf";

export type TatqaTally = { questions: number; firstSentence: number; exactMatch: number; f1: number };

export type TatqaEvaluationReport = {
  dataset: string;
  format: TatqaDocumentFormat;
  excerpts: number;
  rejected: number;
  questions: number;
  overall: TatqaTally;
  byType: Partial<Record<TatqaAnswerType, TatqaTally>>;
  /** Questions answered "not in the documents". */
  noContextRate: number;
  latencyMs: { p50: number; p95: number };
  composeMs: { p50: number; p95: number };
};

export type TatqaRunLine = {
  uid: string;
  excerpt: string;
  type: TatqaAnswerType;
  from: string;
  question: string;
  gold: string[] | number;
  scale: string;
  derivation: string;
  answer: string;
  firstSentence: string;
  holds: boolean;
  predicted: { items: string[]; scale: string };
  em: number;
  f1: number;
  noContext: boolean;
  latencyMs: number;
  /** The answer's compose stage (direct answer), when it reports one. */
  composeMs: number | null;
};

type AnswerService = { answerQuestion(question: string, context: AnswerContext): AsyncIterable<AnswerEvent> };

const run = promisify(execFile);

async function exists(filePath: string): Promise<boolean> {
  return access(filePath).then(
    () => true,
    () => false,
  );
}

/** The HTML page of each excerpt, and with `pdf` the page printed by LibreOffice (kept for the next run). */
async function writeExcerptFiles(
  excerpts: readonly TatqaExcerpt[],
  directory: string,
  format: TatqaDocumentFormat,
  onProgress?: (message: string) => void,
): Promise<Map<string, string>> {
  await mkdir(directory, { recursive: true });
  const files = new Map<string, string>();
  const toPrint: string[] = [];
  for (const [index, excerpt] of excerpts.entries()) {
    const base = `tatqa-${excerpt.uid.slice(0, 8)}`;
    const htmlPath = path.join(directory, `${base}.html`);
    await writeFile(htmlPath, renderExcerptHtml(excerpt, `Annual report excerpt ${index + 1}`));
    const pdfPath = path.join(directory, `${base}.pdf`);
    if (format === "pdf" && !(await exists(pdfPath))) toPrint.push(htmlPath);
    files.set(excerpt.uid, format === "pdf" ? pdfPath : htmlPath);
  }
  // One LibreOffice start prints many pages; batches keep a command line short.
  for (let start = 0; start < toPrint.length; start += 40) {
    const batch = toPrint.slice(start, start + 40);
    onProgress?.(`printing ${batch.length} excerpts to PDF (${start + batch.length}/${toPrint.length})`);
    await run(
      "soffice",
      ["--headless", "--norestore", "--convert-to", "pdf:writer_web_pdf_Export", "--outdir", directory, ...batch],
      { timeout: 600_000 },
    ).catch((error: unknown) => {
      throw new FolioError(
        "tatqa_pdf_failed",
        `printing the excerpts to PDF failed (is LibreOffice's soffice installed?): ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }
  return files;
}

/** What the answer states as its value: the direct answer's items and scale, else its first sentence. */
function predictedValue(answer: Answer, firstSentence: string): { items: string[]; scale: string } {
  if (answer.value !== undefined) return { items: [...answer.value.items], scale: answer.value.scale };
  return { items: answer.noContext ? [] : [firstSentence], scale: "" };
}

function emptyTally(): TatqaTally {
  return { questions: 0, firstSentence: 0, exactMatch: 0, f1: 0 };
}

function rounded(tally: TatqaTally): TatqaTally {
  const share = (value: number) => (tally.questions === 0 ? 0 : Math.round((value / tally.questions) * 1000) / 1000);
  return {
    questions: tally.questions,
    firstSentence: share(tally.firstSentence),
    exactMatch: share(tally.exactMatch),
    f1: share(tally.f1),
  };
}

export async function runTatqaEvaluation(
  folio: Pick<Folio, "ingestion" | "sparseVectors" | "catalog" | "core">,
  options: {
    datasetPath: string;
    /** Where the rendered pages (and printed PDFs) are written. */
    workDirectory: string;
    format?: TatqaDocumentFormat;
    /** Ask only the first N questions (of the types asked). */
    limit?: number;
    types?: readonly TatqaAnswerType[];
    /** Ask only these questions (by uid), in the dataset's order; the others are skipped. */
    questionIds?: ReadonlySet<string>;
    runOut?: string;
    onProgress?: (message: string) => void;
    /** The answer path; the core's own by default. */
    answers?: AnswerService;
  },
): Promise<TatqaEvaluationReport> {
  const format = options.format ?? "html";
  const types = new Set(options.types ?? TATQA_ANSWER_TYPES);
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const all = readTatqaDataset(await readFile(options.datasetPath, "utf8"));
  // The first N questions of the types asked, in the dataset's order, and only the excerpts they need.
  let remaining = limit;
  const excerpts = all
    .map((excerpt) => {
      const questions = excerpt.questions
        .filter((question) => types.has(question.answerType))
        .filter((question) => options.questionIds?.has(question.uid) ?? true)
        .slice(0, Math.max(0, remaining));
      remaining -= questions.length;
      return { ...excerpt, questions };
    })
    .filter((excerpt) => excerpt.questions.length > 0);
  const files = await writeExcerptFiles(excerpts, options.workDirectory, format, options.onProgress);
  const service = options.answers ?? folio.core;
  const overall = emptyTally();
  const byType: Partial<Record<TatqaAnswerType, TatqaTally>> = {};
  const latencies: number[] = [];
  const lines: TatqaRunLine[] = [];
  let rejected = 0;
  let noContext = 0;
  for (const [index, excerpt] of excerpts.entries()) {
    const spaceId = `eval:tatqa:${randomUUID()}`;
    const filePath = files.get(excerpt.uid) ?? "";
    const ingested = await ingestIntoEvaluationSpace(folio, spaceId, [filePath]);
    try {
      if (ingested.rejected.length > 0) rejected += 1;
      for (const question of excerpt.questions) {
        const line = await askOne(service, spaceId, excerpt, question);
        lines.push(line);
        latencies.push(line.latencyMs);
        const typeTally = byType[question.answerType] ?? emptyTally();
        byType[question.answerType] = typeTally;
        const tallies = [overall, typeTally];
        for (const tally of tallies) {
          tally.questions += 1;
          tally.firstSentence += line.holds ? 1 : 0;
          tally.exactMatch += line.em;
          tally.f1 += line.f1;
        }
        if (line.noContext) noContext += 1;
      }
    } finally {
      await deleteEvaluationSpace(folio, spaceId);
    }
    if ((index + 1) % 10 === 0 || index + 1 === excerpts.length)
      options.onProgress?.(
        `${index + 1}/${excerpts.length} excerpts, ${overall.questions} questions, first sentence ${overall.firstSentence}/${overall.questions}`,
      );
  }
  if (options.runOut) await writeFile(options.runOut, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
  return {
    dataset: path.basename(options.datasetPath),
    format,
    excerpts: excerpts.length,
    rejected,
    questions: overall.questions,
    overall: rounded(overall),
    byType: Object.fromEntries(
      TATQA_ANSWER_TYPES.filter((type) => byType[type] !== undefined).map((type) => [
        type,
        rounded(byType[type] as TatqaTally),
      ]),
    ),
    noContextRate: overall.questions === 0 ? 0 : Math.round((noContext / overall.questions) * 1000) / 1000,
    latencyMs: summarizeLatency(latencies),
    composeMs: summarizeLatency(lines.flatMap((line) => (line.composeMs === null ? [] : [line.composeMs]))),
  };
}

async function askOne(
  service: AnswerService,
  spaceId: string,
  excerpt: TatqaExcerpt,
  question: TatqaQuestion,
): Promise<TatqaRunLine> {
  const started = performance.now();
  const answer = await collectAnswer(service, question.question, {
    spaceIds: [spaceId],
    history: [],
    requestId: randomUUID(),
  });
  const latencyMs = Math.round(performance.now() - started);
  const check = firstSentenceHolds(answer.answer, question);
  const predicted = predictedValue(answer, check.sentence);
  const score = officialScore(predicted, question);
  return {
    uid: question.uid,
    excerpt: excerpt.uid,
    type: question.answerType,
    from: question.answerFrom,
    question: question.question,
    gold: question.answer,
    scale: question.scale,
    derivation: question.derivation,
    answer: answer.answer,
    firstSentence: check.sentence,
    holds: check.holds && !answer.noContext,
    predicted,
    em: score.em,
    f1: score.f1,
    noContext: answer.noContext,
    latencyMs,
    composeMs: answer.timingsMs.compose ?? null,
  };
}
