/**
 * Load on the real HTTP endpoint: starts `folio serve` in a child process (embedded store, a throw-away
 * data directory, the configured generator — extractive unless FOLIO_LLM_MODEL or LLM_BASE_URL is
 * set), uploads a small corpus through POST /api/upload, then sends N questions at once to
 * POST /api/ask for each N given, reading each Server-Sent Events answer to its end.
 *
 * Per level it reports the first attempt's outcomes (answered, error events, 429 busy with
 * Retry-After, other statuses, broken connections), then lets every refused asker retry after the
 * Retry-After it was given until answered — so back-pressure shows as waiting, and failure as failure.
 * Latency is per question, from its first attempt to the end of its answer (waits included), and
 * throughput is answers per second of the level's wall time.
 *
 *   npx tsx bench/load-benchmark.ts                 # levels 50 and 200; Northwind PerksPlus, handbook, benefit options
 *   FOLIO_BENCH_LEVELS=10,50 npx tsx bench/load-benchmark.ts --json
 *   FOLIO_MAX_CONCURRENT_QUESTIONS=32 npx tsx bench/load-benchmark.ts   # the server's in-flight limit
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type FolioProcess, startFolioServe } from "../test/support/ops-folio-process.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sharedDataDir = path.resolve(
  process.env.FOLIO_SHARED_DATA_DIR ?? path.join(repositoryRoot, "..", "shared", "data"),
);
const corpusDir = path.join(sharedDataDir, "northwind-rag-qa");
const CORPUS = ["PerksPlus.pdf", "employee_handbook.pdf", "Benefit_Options.pdf"];
const CONSOLE_HEADERS = { "X-Folio-Console": "1" };
/** A refused asker gives up after this many attempts (it never should: the server frees up). */
const MAX_ATTEMPTS = 200;

type Attempt = {
  status: number;
  retryAfterSeconds: number | null;
  outcome: "answered" | "error" | "refused" | "broken";
};

type QuestionRun = {
  attempts: Attempt[];
  /** First attempt to the end of the answer (or to giving up). */
  latencyMs: number;
  answered: boolean;
  noContext: boolean;
  errorCode: string | null;
};

export type LoadLevelReport = {
  concurrent: number;
  firstAttempt: { answered: number; errorEvents: number; busy429: number; otherStatus: number; broken: number };
  retryAfterSeconds: number[];
  eventually: { answered: number; failed: number; noContext: number; attempts: number };
  latencyMs: { p50: number; p95: number; max: number };
  /** Latency of the questions answered at their first attempt (no queueing on the client). */
  admittedLatencyMs: { p50: number; p95: number } | null;
  wallSeconds: number;
  answersPerSecond: number;
  serverRefusals: number;
};

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, index)] ?? 0);
}

/** `folio serve` on an embedded store whatever the shell says, so the figure does not depend on a database elsewhere. */
function startServer(dataDir: string): Promise<FolioProcess> {
  return startFolioServe(
    {
      DATABASE_URL: undefined,
      QDRANT_URL: undefined,
      FOLIO_OFFLINE: process.env.FOLIO_OFFLINE,
      FOLIO_DATA_DIR: dataDir,
      FOLIO_LOG_LEVEL: "warn",
    },
    180_000,
  );
}

async function uploadCorpus(url: string): Promise<{ files: number; pages: number; chunks: number; seconds: number }> {
  const started = performance.now();
  let pages = 0;
  let chunks = 0;
  for (const fileName of CORPUS) {
    const form = new FormData();
    form.append("file", new Blob([await readFile(path.join(corpusDir, "pdfs", fileName))]), fileName);
    const response = await fetch(`${url}/api/upload`, { method: "POST", body: form, headers: CONSOLE_HEADERS });
    const lines = (await response.text()).split("\n").filter(Boolean);
    const result = lines
      .map((line) => JSON.parse(line) as { type: string; result?: { status: string; pages: number; chunks: number } })
      .find((line) => line.type === "result")?.result;
    if (result?.status !== "ingested") throw new Error(`${fileName} was not ingested: ${lines.at(-1)}`);
    pages += result.pages;
    chunks += result.chunks;
  }
  return { files: CORPUS.length, pages, chunks, seconds: Math.round((performance.now() - started) / 100) / 10 };
}

/** Questions whose reference answer cites one of the corpus files. */
async function loadQuestions(): Promise<string[]> {
  const lines = (await readFile(path.join(corpusDir, "ground_truth.jsonl"), "utf8")).split("\n").filter(Boolean);
  const questions = lines
    .map((line) => JSON.parse(line) as { question: string; truth: string })
    .filter((entry) => CORPUS.some((file) => entry.truth.includes(file)))
    .map((entry) => entry.question);
  if (questions.length === 0) throw new Error(`no questions in ${corpusDir} cite ${CORPUS.join(", ")}`);
  return questions;
}

async function askOnce(
  url: string,
  question: string,
): Promise<Attempt & { noContext: boolean; errorCode: string | null }> {
  let response: Response;
  try {
    response = await fetch(`${url}/api/ask`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...CONSOLE_HEADERS },
      body: JSON.stringify({ question }),
    });
  } catch {
    return { status: 0, retryAfterSeconds: null, outcome: "broken", noContext: false, errorCode: null };
  }
  const retryAfter = response.headers.get("retry-after");
  const retryAfterSeconds = retryAfter === null ? null : Number(retryAfter);
  if (response.status !== 200) {
    await response.body?.cancel();
    const refused = response.status === 429 || response.status === 503;
    return {
      status: response.status,
      retryAfterSeconds,
      outcome: refused ? "refused" : "error",
      noContext: false,
      errorCode: `http_${response.status}`,
    };
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    return { status: 200, retryAfterSeconds, outcome: "broken", noContext: false, errorCode: null };
  }
  const events = text
    .split("\n\n")
    .map((block) => block.split("\n").find((line) => line.startsWith("data: ")))
    .filter((line): line is string => line !== undefined)
    .map(
      (line) =>
        JSON.parse(line.slice("data: ".length)) as { type: string; code?: string; answer?: { noContext: boolean } },
    );
  const done = events.find((event) => event.type === "done");
  if (done)
    return {
      status: 200,
      retryAfterSeconds,
      outcome: "answered",
      noContext: done.answer?.noContext ?? false,
      errorCode: null,
    };
  const error = events.find((event) => event.type === "error");
  return {
    status: 200,
    retryAfterSeconds,
    outcome: "error",
    noContext: false,
    errorCode: error?.code ?? "no_done_event",
  };
}

async function askUntilAnswered(url: string, question: string): Promise<QuestionRun> {
  const started = performance.now();
  const attempts: Attempt[] = [];
  for (;;) {
    const attempt = await askOnce(url, question);
    attempts.push({ status: attempt.status, retryAfterSeconds: attempt.retryAfterSeconds, outcome: attempt.outcome });
    if (attempt.outcome !== "refused" || attempts.length >= MAX_ATTEMPTS) {
      return {
        attempts,
        latencyMs: performance.now() - started,
        answered: attempt.outcome === "answered",
        noContext: attempt.noContext,
        errorCode: attempt.errorCode,
      };
    }
    // As a well-behaved client does: wait what the server asked, with jitter so retries spread out.
    const waitSeconds = (attempt.retryAfterSeconds ?? 1) * (0.5 + Math.random());
    await new Promise((resolve) => setTimeout(resolve, waitSeconds * 1000));
  }
}

async function serverRefusals(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text
    .split("\n")
    .filter((line) => line.startsWith('folio_http_requests_refused_total{reason="busy"'))
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
}

async function runLevel(url: string, questions: string[], concurrent: number): Promise<LoadLevelReport> {
  const refusedBefore = await serverRefusals(url);
  const started = performance.now();
  const runs = await Promise.all(
    Array.from({ length: concurrent }, (_, index) => askUntilAnswered(url, questions[index % questions.length] ?? "")),
  );
  const wallSeconds = (performance.now() - started) / 1000;
  const first = runs.map((run) => run.attempts[0]);
  const answered = runs.filter((run) => run.answered);
  const latencies = answered.map((run) => run.latencyMs).sort((a, b) => a - b);
  const admitted = answered
    .filter((run) => run.attempts.length === 1)
    .map((run) => run.latencyMs)
    .sort((a, b) => a - b);
  return {
    concurrent,
    firstAttempt: {
      answered: first.filter((attempt) => attempt?.outcome === "answered").length,
      errorEvents: first.filter((attempt) => attempt?.outcome === "error" && attempt.status === 200).length,
      busy429: first.filter((attempt) => attempt?.status === 429).length,
      otherStatus: first.filter((attempt) => attempt && ![200, 429].includes(attempt.status) && attempt.status !== 0)
        .length,
      broken: first.filter((attempt) => attempt?.outcome === "broken").length,
    },
    retryAfterSeconds: [
      ...new Set(runs.flatMap((run) => run.attempts.map((attempt) => attempt.retryAfterSeconds ?? -1))),
    ].filter((seconds) => seconds >= 0),
    eventually: {
      answered: answered.length,
      failed: runs.length - answered.length,
      noContext: answered.filter((run) => run.noContext).length,
      attempts: runs.reduce((sum, run) => sum + run.attempts.length, 0),
    },
    latencyMs: { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), max: percentile(latencies, 1) },
    admittedLatencyMs:
      admitted.length === 0 ? null : { p50: percentile(admitted, 0.5), p95: percentile(admitted, 0.95) },
    wallSeconds: Math.round(wallSeconds * 10) / 10,
    answersPerSecond: Math.round((answered.length / wallSeconds) * 100) / 100,
    serverRefusals: (await serverRefusals(url)) - refusedBefore,
  };
}

async function main(): Promise<void> {
  const json = process.argv.includes("--json");
  const levels = (process.env.FOLIO_BENCH_LEVELS ?? "50,200")
    .split(",")
    .map((level) => Number(level.trim()))
    .filter((level) => Number.isInteger(level) && level > 0);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "folio-load-"));
  const server = await startServer(dataDir);
  try {
    const corpus = await uploadCorpus(server.url);
    const questions = await loadQuestions();
    const generator = process.env.LLM_BASE_URL || process.env.FOLIO_LLM_MODEL ? "llm" : "extractive";
    const limit = process.env.FOLIO_MAX_CONCURRENT_QUESTIONS ?? "16 (default)";
    if (!json) {
      console.log(
        `corpus: ${corpus.files} PDFs, ${corpus.pages} pages, ${corpus.chunks} chunks (uploaded in ${corpus.seconds} s); ` +
          `${questions.length} distinct questions; generator ${generator}; FOLIO_MAX_CONCURRENT_QUESTIONS ${limit}`,
      );
    }
    // One warm-up answer, so the first level does not pay for loading the models' sessions.
    await askOnce(server.url, questions[0] ?? "");
    const reports: LoadLevelReport[] = [];
    for (const level of levels) {
      const report = await runLevel(server.url, questions, level);
      reports.push(report);
      if (json) continue;
      const { firstAttempt: first, eventually, latencyMs } = report;
      console.log(
        `\n${level} concurrent: first attempt ${first.answered} answered, ${first.busy429} busy (429, Retry-After ${report.retryAfterSeconds.join("/") || "-"} s), ` +
          `${first.errorEvents} error events, ${first.otherStatus} other statuses, ${first.broken} broken connections`,
      );
      console.log(
        `  eventually ${eventually.answered}/${level} answered (${eventually.noContext} "not in the documents"), ${eventually.failed} failed, ` +
          `${eventually.attempts} attempts; latency p50 ${latencyMs.p50} ms, p95 ${latencyMs.p95} ms, max ${latencyMs.max} ms` +
          (report.admittedLatencyMs
            ? `; admitted at once: p50 ${report.admittedLatencyMs.p50} ms, p95 ${report.admittedLatencyMs.p95} ms`
            : ""),
      );
      console.log(
        `  wall ${report.wallSeconds} s, ${report.answersPerSecond} answers/s; server counted ${report.serverRefusals} busy refusals`,
      );
    }
    if (json) console.log(JSON.stringify({ corpus, generator, levels: reports }));
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
