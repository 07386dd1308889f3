/**
 * CPU time of one question on the extractive answer path — embed the question, hybrid search, choose
 * quotes by meaning, direct answer, citations — for sizing a deployment (docs/operations.md). Ingests
 * three small Northwind PDFs (PerksPlus, Benefit Options, the employee handbook) into a throw-away
 * embedded data directory, asks the ground-truth questions that cite them one at a time after one
 * warm-up question, and reads the process's CPU time (process.cpuUsage: every thread, the inference
 * worker's embedder included) around each answer.
 *
 *   npx tsx bench/answer-cpu-time.ts [--json]
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createFolio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import { createLogger } from "../src/logger.js";
import { sharedData } from "../test/support/shared-paths.js";

const FILES = ["PerksPlus.pdf", "Benefit_Options.pdf", "employee_handbook.pdf"];
const SPACE = "bench-answers";

const percentile = (values: number[], fraction: number) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
};

async function main(): Promise<void> {
  const questions = (await readFile(sharedData("northwind-rag-qa", "ground_truth.jsonl"), "utf8"))
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as { question: string; truth: string })
    .filter((entry) => FILES.some((file) => entry.truth.includes(file)))
    .map((entry) => entry.question);
  const dataDir = await mkdtemp(path.join(tmpdir(), "folio-bench-answers-"));
  const {
    DATABASE_URL: _database,
    QDRANT_URL: _qdrant,
    LLM_BASE_URL: _llm,
    FOLIO_LLM_MODEL: _local,
    ...environment
  } = process.env;
  const folio = await createFolio(
    loadConfig({ ...environment, FOLIO_DATA_DIR: dataDir }),
    createLogger({ level: "warn" }),
  );
  try {
    for (const file of FILES) {
      const bytes = new Uint8Array(await readFile(sharedData("northwind-rag-qa", "pdfs", file)));
      await folio.ingestion.ingestFile({ bytes, fileName: file, spaceId: SPACE, uploader: null });
    }
    const ask = async (question: string, requestId: string) => {
      for await (const _event of folio.core.answerQuestion(question, { spaceIds: [SPACE], history: [], requestId })) {
        // Read to the end: the answer's work is done when the stream ends.
      }
    };
    await ask("What does PerksPlus cover?", "warm-up");
    const cpuMs: number[] = [];
    const wallMs: number[] = [];
    for (const [index, question] of questions.entries()) {
      const cpuBefore = process.cpuUsage();
      const wallBefore = performance.now();
      await ask(question, `bench-${index}`);
      const cpu = process.cpuUsage(cpuBefore);
      wallMs.push(performance.now() - wallBefore);
      cpuMs.push((cpu.user + cpu.system) / 1000);
    }
    const mean = cpuMs.reduce((sum, value) => sum + value, 0) / cpuMs.length;
    const result = {
      questions: questions.length,
      cpuMsPerQuestion: {
        mean: Math.round(mean),
        p50: Math.round(percentile(cpuMs, 0.5)),
        p95: Math.round(percentile(cpuMs, 0.95)),
      },
      wallMs: { p50: Math.round(percentile(wallMs, 0.5)), p95: Math.round(percentile(wallMs, 0.95)) },
      loadAverage: loadavg().map((value) => Math.round(value * 10) / 10),
    };
    if (process.argv.includes("--json")) console.log(JSON.stringify(result));
    else {
      console.log(
        `${result.questions} questions, extractive: CPU per question mean ${result.cpuMsPerQuestion.mean} ms, p50 ${result.cpuMsPerQuestion.p50} ms, p95 ${result.cpuMsPerQuestion.p95} ms; wall p50 ${result.wallMs.p50} ms, p95 ${result.wallMs.p95} ms; load average ${result.loadAverage.join(" ")}`,
      );
    }
  } finally {
    await folio.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
