/**
 * Sets the reader's score at which a questionnaire row is "answered" (SUPPORT_SCORE in
 * src/questionnaire/answer/answer-support.ts): the 45 enterprise PDFs ingested once into a kept space of
 * FOLIO_DATA_DIR, every question of the given sets asked through the answer path as a questionnaire row is,
 * and for each threshold the rows that would be "answered" by the support test (the reader's score at the
 * threshold or above, a direct answer's value, or a quote that states the question) and how many of those
 * cite a gold page — the precision of "answered" — and the share of answerable rows answered. Sets named
 * with --tune set the threshold; the others are reported with it.
 * Usage: tsx bench/questionnaire-support-score.ts --tune enterprise-questionnaire.jsonl,… --report enterprise-questionnaire-fresh-4.jsonl
 */
import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Answer } from "../src/answer/answer-events.js";
import { createFolio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import { collectAnswer } from "../src/evaluation/ask-conversations.js";
import { createLogger } from "../src/logger.js";
import { judgeSupport } from "../src/questionnaire/answer/answer-support.js";
import { sharedData } from "../test/support/shared-paths.js";

type GoldQuestion = { question: string; gold: string[] };
const { values } = parseArgs({ options: { tune: { type: "string" }, report: { type: "string" } } });
const config = loadConfig(process.env);
const folio = await createFolio({ ...config, llm: { kind: "none" } }, createLogger({ level: "warn" }), {
  embeddingCacheDir: path.join(config.dataDir, "embedding-cache"),
});
const spaceId = `calibrate:enterprise:${folio.retrievalMode}`;
const documents = sharedData("enterprise-pdfs", "pdfs");
if ((await folio.catalog.listDocuments(spaceId)).length === 0) {
  for (const fileName of (await readdir(documents)).filter((name) => name.endsWith(".pdf")).sort()) {
    const bytes = new Uint8Array(await readFile(path.join(documents, fileName)));
    await folio.ingestion.ingestFile({ bytes, fileName, spaceId, uploader: null });
    process.stderr.write(`ingested ${fileName}\n`);
  }
  await folio.sparseVectors.rebuild(spaceId);
}

type Row = { set: string; question: string; answerable: boolean; answer: Answer; goldCited: boolean };
async function ask(set: string): Promise<Row[]> {
  const questions = (await readFile(new URL(`./${set}`, import.meta.url), "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as GoldQuestion);
  const rows: Row[] = [];
  for (const entry of questions) {
    const answer = await collectAnswer(folio.core, entry.question, {
      spaceIds: [spaceId],
      history: [],
      requestId: randomUUID(),
    });
    const goldCited = answer.citations.some((citation) =>
      entry.gold.some((page) => {
        const [file, number] = [page.slice(0, page.lastIndexOf("#")), Number(page.slice(page.lastIndexOf("#") + 1))];
        return (
          citation.file === file &&
          citation.pageStart !== null &&
          number >= citation.pageStart &&
          number <= (citation.pageEnd ?? citation.pageStart)
        );
      }),
    );
    rows.push({ set, question: entry.question, answerable: entry.gold.length > 0, answer, goldCited });
  }
  return rows;
}

/** The support test with the reader's score compared with `threshold` instead of SUPPORT_SCORE. */
function answered(row: Row, threshold: number): boolean {
  const { reading, ...rest } = row.answer;
  if (reading !== undefined && reading.score >= threshold && !row.answer.noContext) return true;
  return judgeSupport(row.question, rest).supported;
}

function line(rows: Row[], threshold: number): string {
  const marked = rows.filter((row) => answered(row, threshold));
  const right = marked.filter((row) => row.answerable && row.goldCited).length;
  const answerable = rows.filter((row) => row.answerable);
  const answerableAnswered = answerable.filter((row) => answered(row, threshold)).length;
  return `${right}/${marked.length} precision ${(right / Math.max(1, marked.length)).toFixed(3)}, answerable answered ${answerableAnswered}/${answerable.length}`;
}

const tune = (values.tune ?? "").split(",").filter((set) => set !== "");
const report = (values.report ?? "").split(",").filter((set) => set !== "");
const tuning = (await Promise.all(tune.map(ask))).flat();
const held = (await Promise.all(report.map(ask))).flat();
console.log("threshold | tuning sets | reported sets");
for (const threshold of [0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 1.01])
  console.log(`${threshold.toFixed(2)} | ${line(tuning, threshold)} | ${line(held, threshold)}`);
await folio.close();
