/**
 * People's questions while questionnaires pile up (issue #30): starts `folio serve` in a child process
 * (embedded store, the configured models — bge-small-en-v1.5 and the reranker from FOLIO_MODELS_DIR —
 * extractive answers), uploads three Northwind PDFs through the console, asks a dozen of their questions
 * one after another with nothing else running (idle), then submits 11 questionnaires of 100 rows through
 * POST /api/questionnaires — one runs, ten wait, each saying "queued, N ahead" — and asks the same
 * questions again while they are answered (loaded). Questions are asked one at a time with a pause
 * between them (FOLIO_BENCH_GAP_MS, default 500 ms), in which questionnaire rows start. Reported: median and p95 latency of each phase and
 * their ratio, and what the queue said. With `--no-caps` the caps are lifted (every job runs at once, as
 * before the queue), for comparison.
 *
 *   npx tsx bench/questionnaire-queue-latency.ts              # the default caps
 *   npx tsx bench/questionnaire-queue-latency.ts --no-caps    # all 11 jobs at once
 *   npx tsx bench/questionnaire-queue-latency.ts --json
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type FolioProcess, startFolioServe } from "../test/support/ops-folio-process.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sharedDir = path.resolve(repositoryRoot, "..", "shared");
const sharedDataDir = path.resolve(process.env.FOLIO_SHARED_DATA_DIR ?? path.join(sharedDir, "data"));
const modelsDir = path.resolve(process.env.FOLIO_MODELS_DIR ?? path.join(sharedDir, "models"));
const corpusDir = path.join(sharedDataDir, "northwind-rag-qa");
const CORPUS = ["PerksPlus.pdf", "employee_handbook.pdf", "Benefit_Options.pdf"];
const CONSOLE = { "X-Folio-Console": "1" };
const JOBS = 11;
const ROWS_PER_JOB = 100;
/** Every Northwind question citing the three files (14), each asked this many times per phase. */
const ROUNDS = 2;
/** Pause between two questions, as a person reading the answer would leave (rows start in it). */
const GAP_MS = Number(process.env.FOLIO_BENCH_GAP_MS ?? 500);

async function upload(url: string): Promise<void> {
  for (const fileName of CORPUS) {
    const form = new FormData();
    form.append("file", new Blob([await readFile(path.join(corpusDir, "pdfs", fileName))]), fileName);
    const response = await fetch(`${url}/api/upload?meaning=wait`, { method: "POST", body: form, headers: CONSOLE });
    const text = await response.text();
    if (!text.includes('"status":"ingested"')) throw new Error(`${fileName} was not ingested: ${text.slice(-300)}`);
  }
}

async function loadQuestions(): Promise<string[]> {
  const lines = (await readFile(path.join(corpusDir, "ground_truth.jsonl"), "utf8")).split("\n").filter(Boolean);
  return lines
    .map((line) => JSON.parse(line) as { question: string; truth: string })
    .filter((entry) => CORPUS.some((file) => entry.truth.includes(file)))
    .map((entry) => entry.question);
}

/** Asks one question and reads its answer stream to the end; the latency in ms. */
async function ask(url: string, question: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/api/ask`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...CONSOLE },
    body: JSON.stringify({ question }),
  });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"type":"done"')) {
    throw new Error(`"${question}" was not answered: ${response.status} ${text.slice(-200)}`);
  }
  return performance.now() - started;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0);
}

/** Each question asked ROUNDS times, one at a time, GAP_MS apart. */
async function askAll(url: string, questions: string[]) {
  const latencies: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const question of questions) {
      latencies.push(await ask(url, question));
      await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    }
  }
  return {
    asked: latencies.length,
    medianMs: percentile(latencies, 0.5),
    p90Ms: percentile(latencies, 0.9),
    p95Ms: percentile(latencies, 0.95),
    maxMs: Math.round(Math.max(...latencies)),
  };
}

function questionnaireCsv(questions: string[], job: number): Uint8Array {
  const rows = Array.from({ length: ROWS_PER_JOB }, (_, row) => {
    const question = questions[(row + job) % questions.length] ?? "";
    return `"${question.replace(/"/g, '""')} (${job}-${row})"`;
  });
  return new TextEncoder().encode(`Question\n${rows.join("\n")}\n`);
}

async function main() {
  const json = process.argv.includes("--json");
  const noCaps = process.argv.includes("--no-caps");
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "folio-queue-bench-"));
  let served: FolioProcess | null = null;
  try {
    served = await startFolioServe(
      {
        FOLIO_DATA_DIR: dataDir,
        FOLIO_MODELS_DIR: modelsDir,
        FOLIO_LOG_LEVEL: "warn",
        ...(noCaps ? { FOLIO_QUESTIONNAIRE_MAX_RUNNING: "100", FOLIO_QUESTIONNAIRE_MAX_RUNNING_PER_SPACE: "100" } : {}),
      },
      180_000,
    );
    const url = served.url;
    await upload(url);
    const all = await loadQuestions();
    const questions = all;
    // Warm the models and caches, then the idle phase.
    for (const question of all.slice(0, 3)) await ask(url, question);
    const idle = await askAll(url, questions);

    const jobs: string[] = [];
    const queueLines: string[] = [];
    for (let job = 0; job < JOBS; job++) {
      const response = await fetch(`${url}/api/questionnaires?file=review-${job}.csv`, {
        method: "POST",
        headers: { ...CONSOLE, "Content-Type": "text/csv" },
        body: questionnaireCsv(all, job),
      });
      const body = (await response.json()) as { progress: { jobId: string; status: string; ahead: number | null } };
      if (response.status !== 202) throw new Error(`questionnaire ${job} refused: ${JSON.stringify(body)}`);
      jobs.push(body.progress.jobId);
      queueLines.push(`${body.progress.status}${body.progress.ahead === null ? "" : `, ${body.progress.ahead} ahead`}`);
    }
    const loaded = await askAll(url, questions);
    const progress = await Promise.all(
      jobs.map(async (id) => {
        const response = await fetch(`${url}/api/questionnaires/progress?id=${id}`, { headers: CONSOLE });
        return ((await response.json()) as { progress: { status: string; done: number } }).progress;
      }),
    );
    for (const id of jobs) {
      await fetch(`${url}/api/questionnaires/cancel?id=${id}`, { method: "POST", headers: CONSOLE });
    }
    const report = {
      caps: noCaps ? "none (100 / 100)" : "defaults (2 running, 1 per space)",
      jobs: JOBS,
      rowsPerJob: ROWS_PER_JOB,
      questions: questions.length,
      atSubmission: queueLines,
      afterLoadedPhase: progress.map((entry) => `${entry.status} ${entry.done}/${ROWS_PER_JOB}`),
      idle,
      loaded,
      gapMs: GAP_MS,
      medianRatio: Math.round((loaded.medianMs / idle.medianMs) * 100) / 100,
      p90Ratio: Math.round((loaded.p90Ms / idle.p90Ms) * 100) / 100,
      p95Ratio: Math.round((loaded.p95Ms / idle.p95Ms) * 100) / 100,
    };
    if (json) console.log(JSON.stringify(report, null, 2));
    else {
      console.log(
        `caps: ${report.caps}; ${JOBS} questionnaires of ${ROWS_PER_JOB} rows; ${questions.length} questions × ${ROUNDS}, ${GAP_MS} ms apart`,
      );
      console.log(`at submission: ${queueLines.join(" | ")}`);
      console.log(`after the loaded phase: ${report.afterLoadedPhase.join(" | ")}`);
      console.log(
        `idle:   median ${idle.medianMs} ms, p90 ${idle.p90Ms} ms, p95 ${idle.p95Ms} ms, max ${idle.maxMs} ms`,
      );
      console.log(
        `loaded: median ${loaded.medianMs} ms, p90 ${loaded.p90Ms} ms, p95 ${loaded.p95Ms} ms, max ${loaded.maxMs} ms`,
      );
      console.log(`ratio:  median ×${report.medianRatio}, p90 ×${report.p90Ratio}, p95 ×${report.p95Ratio}`);
    }
  } finally {
    await served?.kill();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
