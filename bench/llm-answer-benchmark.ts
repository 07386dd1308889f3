/**
 * The language model as the writer, measured against the reader alone (issue #40): the same sets asked
 * with the configured model (FOLIO_LLM_MODEL or LLM_BASE_URL) and with `--no-model`, through the
 * product's own path (ingestion, retrieval, answerQuestion), scored by the evaluations' own checks.
 *
 *   handbook     ../shared/data/handbook-dev/conversations.jsonl (folio eval conversations); --half odd|even
 *   tatqa        the stratified 100-question sample of TAT-QA dev in bench/tatqa-dev-sample.txt (folio eval tatqa)
 *   financebench ../shared/data/financebench-dev/qa.jsonl (folio eval answers; then first-sentence figures)
 *
 * Writes OUT.json (the evaluation's report and the model's latency: prompt tokens, time to first token,
 * to the first checked sentence, total, p50/p95) and OUT.jsonl (one line per question: the answer, whether
 * it is right, how the model's draft fared sentence by sentence — the draft's own text — for reading by
 * hand). Document text goes to these files only, never to the console.
 *
 *   FOLIO_LLM_MODEL=~/.cache/folio-models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf FOLIO_LLM_THREADS=2 \
 *     nice npx tsx bench/llm-answer-benchmark.ts handbook --out /tmp/hb-model [--limit N] [--half odd]
 *   nice npx tsx bench/llm-answer-benchmark.ts handbook --no-model --out /tmp/hb-reader
 *   npx tsx bench/llm-answer-benchmark.ts tatqa --write-sample     # (re)writes bench/tatqa-dev-sample.txt
 *
 * Latency under an ingest: `--during-ingest <file> --cache none` re-ingests the file (a space of its own)
 * the whole time the questions are asked, every passage embedded. `--cache DIR` shares passage vectors
 * between runs in different FOLIO_DATA_DIRs (one embedded store per process).
 */
import { randomUUID } from "node:crypto";
import { appendFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { parseArgs } from "node:util";
import type { Answer, AnswerContext, AnswerEvent } from "../src/answer/answer-events.js";
import { createFolio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import { runAnswerEvaluation } from "../src/evaluation/answer-evaluation.js";
import { runConversationEvaluation } from "../src/evaluation/conversation-evaluation.js";
import { summarizeLatency } from "../src/evaluation/latency.js";
import { readTatqaDataset } from "../src/evaluation/tatqa-dataset.js";
import { runTatqaEvaluation } from "../src/evaluation/tatqa-evaluation.js";
import { createLogger } from "../src/logger.js";
import { createSeededRandom } from "../test/support/seeded-random.js";
import { sharedData } from "../test/support/shared-paths.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: "string" },
    "no-model": { type: "boolean", default: false },
    limit: { type: "string" },
    half: { type: "string" },
    "write-sample": { type: "boolean", default: false },
    /** Passage vectors shared by runs in different data directories (one embedded store per process). */
    cache: { type: "string" },
    /** A file ingested again and again, in a space of its own, while the questions are asked (latency under an ingest). */
    "during-ingest": { type: "string" },
  },
});
const set = positionals[0];
const SAMPLE_FILE = path.join(path.dirname(new URL(import.meta.url).pathname), "tatqa-dev-sample.txt");
const TATQA_DATASET = sharedData("tatqa-dev", "tatqa_dataset_dev.json");
const SAMPLE_SIZE = 100;

if (set === "tatqa" && values["write-sample"]) {
  await writeSample();
  process.exit(0);
}
if (!set || !["handbook", "tatqa", "financebench"].includes(set) || !values.out)
  throw new Error("usage: tsx bench/llm-answer-benchmark.ts handbook|tatqa|financebench --out FILE [--no-model]");
const out = values.out;
await rm(`${out}.partial.jsonl`, { force: true });

/** One question as it was answered, with what the model's draft did (from the debug lines of its request). */
type Record_ = {
  requestId: string;
  question: string;
  answer: string;
  noContext: boolean;
  verification: Answer["verification"] | null;
  totalMs: number;
  firstDeltaMs: number | null;
  sentences: Array<{ sentence: string; kept: string | null; unverified: string[]; support: number | null }>;
  draft: string | null;
  right?: boolean;
  /** The machine's 1-minute load average when the answer was done (this box is shared). */
  load?: number;
};

const records: Record_[] = [];
const byRequest = new Map<string, Record_>();

/** Keeps only the debug lines that say what the model wrote and how it was checked. */
const KEPT_MESSAGES = new Set(["sentence checked", "model draft"]);
const logLines = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line.includes('"msg":"sentence checked"') && !line.includes('"msg":"model draft"')) continue;
      const entry = JSON.parse(line) as { requestId?: string; msg: string; draft?: string } & Record<string, unknown>;
      const record = entry.requestId ? byRequest.get(entry.requestId) : undefined;
      if (!record || !KEPT_MESSAGES.has(entry.msg)) continue;
      if (entry.msg === "model draft") record.draft = entry.draft ?? "";
      else
        record.sentences.push({
          sentence: String(entry.sentence ?? ""),
          kept: (entry.kept as string | null) ?? null,
          unverified: (entry.unverified as string[]) ?? [],
          support: (entry.support as number | null) ?? null,
        });
    }
    callback();
  },
});

const config = loadConfig(process.env);
const withModel = !values["no-model"] && config.llm.kind !== "none";
const folio = await createFolio(
  withModel ? config : { ...config, llm: { kind: "none" } },
  createLogger({ level: "debug", destination: logLines }),
  // `--cache none`: every passage embedded, as an upload is (latency under an ingest must pay for it).
  values.cache === "none" ? {} : { embeddingCacheDir: values.cache ?? path.join(config.dataDir, "embedding-cache") },
);
const progress = (message: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);

/** folio.core, recording each answer. */
const recorder = {
  async *answerQuestion(question: string, context: AnswerContext): AsyncIterable<AnswerEvent> {
    const requestId = randomUUID();
    const record: Record_ = {
      requestId,
      question,
      answer: "",
      noContext: false,
      verification: null,
      totalMs: 0,
      firstDeltaMs: null,
      sentences: [],
      draft: null,
    };
    records.push(record);
    byRequest.set(requestId, record);
    const started = performance.now();
    for await (const event of folio.core.answerQuestion(question, { ...context, requestId })) {
      if (event.type === "delta") record.firstDeltaMs ??= Math.round(performance.now() - started);
      if (event.type === "done") {
        record.answer = event.answer.answer;
        record.noContext = event.answer.noContext;
        record.verification = event.answer.verification ?? null;
      }
      yield event;
    }
    record.totalMs = Math.round(performance.now() - started);
    record.load = Math.round((os.loadavg()[0] ?? 0) * 10) / 10;
    // Each answer as it is done, so a run stopped halfway can still be read.
    await appendFile(`${out}.partial.jsonl`, `${JSON.stringify(record)}\n`);
    progress(`${records.length}: ${Math.round(record.totalMs / 1000)} s, ${record.verification?.outcome ?? "reader"}`);
  },
};
const limit = values.limit === undefined ? undefined : Number(values.limit);

let report: unknown;
let ingesting: { stop: () => Promise<number> } | null = null;
let ingests = 0;
try {
  if (values["during-ingest"]) ingesting = ingestOverAndOver(values["during-ingest"]);
  if (set === "handbook") report = await runHandbook();
  else if (set === "tatqa") report = await runTatqa();
  else report = await runFinanceBench();
} finally {
  if (ingesting) ingests = await ingesting.stop();
  await folio.close();
}

const asked = records.filter((record) => record.verification != null && record.verification.promptTokens !== undefined);
const latency = (pick: (record: Record_) => number | undefined) =>
  summarizeLatency(asked.flatMap((record) => (pick(record) === undefined ? [] : [pick(record) as number])));
const summary = {
  set,
  duringIngest: values["during-ingest"] ? { file: path.basename(values["during-ingest"]), ingests } : null,
  model: withModel ? (config.llm.kind === "local" ? path.basename(config.llm.modelPath) : config.llm.kind) : null,
  threads: config.llmRuntime.threads,
  report,
  modelAsked: asked.length,
  outcomes: Object.fromEntries(
    [...new Set(asked.map((record) => record.verification?.outcome))].map((outcome) => [
      outcome,
      asked.filter((record) => record.verification?.outcome === outcome).length,
    ]),
  ),
  promptTokens: latency((record) => record.verification?.promptTokens),
  timeToFirstTokenMs: latency((record) => record.verification?.timeToFirstTokenMs),
  timeToFirstSentenceMs: latency((record) => record.verification?.timeToFirstSentenceMs),
  modelTotalMs: latency((record) => record.verification?.totalMs),
  answerTotalMs: summarizeLatency(records.map((record) => record.totalMs)),
  loadAverage: summarizeLatency(records.map((record) => record.load ?? 0)),
};
await writeFile(`${out}.json`, `${JSON.stringify(summary, null, 2)}\n`);
await writeFile(`${out}.jsonl`, `${records.map((record) => JSON.stringify(record)).join("\n")}\n`);
process.stdout.write(`${JSON.stringify({ ...summary, report: undefined })}\n`);

/**
 * Ingests the file into a space of its own, deletes it, and again, until stopped: an upload going on
 * the whole time the questions are asked (the ingestion of the evaluation's own documents comes first).
 */
function ingestOverAndOver(filePath: string): { stop: () => Promise<number> } {
  let stopped = false;
  let count = 0;
  const spaceId = `bench:ingest:${randomUUID()}`;
  const loop = (async () => {
    // Starts once the evaluation's own documents are in: the first question is asked after them.
    while (!stopped && records.length === 0) await new Promise((resolve) => setTimeout(resolve, 1000));
    const bytes = new Uint8Array(await readFile(filePath));
    while (!stopped) {
      await folio.ingestion.ingestFile({ bytes, fileName: path.basename(filePath), spaceId, uploader: null });
      count += 1;
      for (const document of await folio.catalog.listDocuments(spaceId)) await folio.core.deleteDocument(document.id);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return count;
    },
  };
}

async function runHandbook() {
  const datasetPath = sharedData("handbook-dev", "conversations.jsonl");
  let dataset = datasetPath;
  if (values.half === "odd" || values.half === "even") {
    // Conversations 1, 3, 5, … (odd) or 2, 4, … (even), as issue #38 halves them.
    const lines = (await readFile(datasetPath, "utf8")).split("\n").filter((line) => line.trim() !== "");
    const kept = lines.filter((_, index) => (index % 2 === 0) === (values.half === "odd"));
    dataset = path.join(path.dirname(out), `handbook-${values.half}.jsonl`);
    await writeFile(dataset, `${kept.join("\n")}\n`);
  }
  const run = await runConversationEvaluation(
    { ...folio, core: { ...folio.core, answerQuestion: recorder.answerQuestion } },
    { datasetPath: dataset, docsDir: path.resolve(sharedData()), limit, onProgress: progress },
  );
  const failed = new Set(run.failures.map((failure) => failure.question));
  for (const record of records) record.right = !failed.has(record.question);
  return run;
}

async function runTatqa() {
  const ids = (await readFile(SAMPLE_FILE, "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"));
  const runOut = `${out}.tatqa-run.jsonl`;
  const result = await runTatqaEvaluation(folio, {
    datasetPath: TATQA_DATASET,
    workDirectory: path.join(config.dataDir, "tatqa-documents"),
    questionIds: new Set(ids.slice(0, limit ?? ids.length)),
    answers: recorder,
    runOut,
    onProgress: progress,
  });
  const lines = (await readFile(runOut, "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { question: string; holds: boolean });
  lines.forEach((line, index) => {
    const record = records[index];
    if (record && record.question === line.question) record.right = line.holds;
  });
  return result;
}

async function runFinanceBench() {
  const runOut = `${out}.fb-run.jsonl`;
  return runAnswerEvaluation(
    { ...folio, core: { ...folio.core, answerQuestion: recorder.answerQuestion } },
    {
      datasetPath: sharedData("financebench-dev", "qa.jsonl"),
      docsDir: sharedData("financebench-dev", "pdfs"),
      limit,
      runOut,
      onProgress: progress,
    },
  );
}

/**
 * The TAT-QA sample: 100 dev questions drawn stratified by answer type and by where the answer is
 * (table, text, both), each stratum in proportion to its size (largest remainders), seeded, so the
 * same file comes out every time.
 */
async function writeSample() {
  const excerpts = readTatqaDataset(await readFile(TATQA_DATASET, "utf8"));
  const strata = new Map<string, string[]>();
  for (const excerpt of excerpts)
    for (const question of excerpt.questions) {
      const key = `${question.answerType}/${question.answerFrom}`;
      strata.set(key, [...(strata.get(key) ?? []), question.uid]);
    }
  const total = [...strata.values()].reduce((sum, uids) => sum + uids.length, 0);
  const quotas = [...strata.entries()].map(([key, uids]) => {
    const exact = (uids.length * SAMPLE_SIZE) / total;
    return { key, uids, count: Math.floor(exact), remainder: exact - Math.floor(exact) };
  });
  let missing = SAMPLE_SIZE - quotas.reduce((sum, quota) => sum + quota.count, 0);
  for (const quota of [...quotas].sort(
    (left, right) => right.remainder - left.remainder || left.key.localeCompare(right.key),
  )) {
    if (missing === 0) break;
    quota.count += 1;
    missing -= 1;
  }
  const random = createSeededRandom(40);
  const chosen: string[] = [];
  const lines = [
    `# TAT-QA dev: ${SAMPLE_SIZE} of ${total} questions, stratified by answer type / answer source, seed 40 (bench/llm-answer-benchmark.ts tatqa --write-sample)`,
  ];
  for (const quota of quotas.sort((left, right) => left.key.localeCompare(right.key))) {
    const pool = [...quota.uids];
    for (let index = pool.length - 1; index > 0; index -= 1) {
      const other = Math.floor(random() * (index + 1));
      [pool[index], pool[other]] = [pool[other] as string, pool[index] as string];
    }
    chosen.push(...pool.slice(0, quota.count));
    lines.push(`# ${quota.key}: ${quota.count} of ${quota.uids.length}`);
  }
  await mkdir(path.dirname(SAMPLE_FILE), { recursive: true });
  await writeFile(SAMPLE_FILE, `${[...lines, ...chosen].join("\n")}\n`);
  process.stdout.write(`${SAMPLE_FILE}: ${chosen.length} questions\n`);
}
