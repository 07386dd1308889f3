/**
 * Precision and recall of approved-answer reuse (src/answer-library/), and the calibration of its
 * threshold. The pairs are bench/approved-answer-pairs.jsonl: each probe question was written against one
 * approved question, as a paraphrase that should reuse its answer or a near miss that must not
 * (negation, at rest vs in transit, another plan, year, number, name, or a neighbouring topic). The
 * library holds every approved question of the file plus, as distractors, every other question of the
 * shared data (VSAQ's 242 question texts, Northwind's 249 questions), stored through the real store on
 * PGlite and matched by the real ApprovedAnswerLibrary with bge-small-en-v1.5.
 *
 * The threshold is calibrated on one half of the approved questions (split by question, so a question's
 * paraphrases and near misses stay together) for precision ≥ --min-precision, and measured on the
 * other half, then overall. The lexical fallback (FOLIO_EMBED_MODEL=none) is measured at its fixed threshold.
 *
 *   FOLIO_MODELS_DIR=../shared/models npx tsx bench/approved-answers-eval.ts [--min-precision 0.97] [--threshold T] [--json]
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { parse as parseCsv } from "csv-parse/sync";
import {
  ApprovedAnswerLibrary,
  DEFAULT_APPROVED_ANSWER_THRESHOLD,
  type ScoredCandidate,
} from "../src/answer-library/approved-answer-library.js";
import { createSqlApprovedAnswerStore } from "../src/answer-library/approved-answer-store.js";
import { LEXICAL_MATCH_THRESHOLD } from "../src/answer-library/lexical-similarity.js";
import {
  calibrateThreshold,
  isReused,
  measureReuse,
  type ReuseMetrics,
  type ReuseProbeOutcome,
  splitByGroup,
} from "../src/answer-library/reuse-evaluation.js";
import { createCachedEmbedder } from "../src/embedding/embedding-cache.js";
import { createTransformersEmbedder } from "../src/embedding/transformers-embedder.js";
import { createInferenceClient } from "../src/inference/inference-client.js";
import { silentLogger } from "../src/logger.js";
import { openStores } from "../src/stores/open-stores.js";
import { sharedData, sharedModelsDir } from "../test/support/shared-paths.js";

type PairRow = {
  id: string;
  source: string;
  approved: string;
  asked: string;
  expected: "match" | "no_match";
  kind: string;
  /**
   * Questions of the library (distractors) whose answer is right for this probe: the library holds an
   * equivalent of the probe itself. Reusing one counts as a correct reuse, for a near miss too.
   */
  acceptable?: string[];
};

const { values } = parseArgs({
  options: {
    pairs: { type: "string", default: path.join("bench", "approved-answer-pairs.jsonl") },
    /** Pairs written after the guards and the threshold were fixed, never used to change either. */
    fresh: { type: "string", default: path.join("bench", "approved-answer-pairs-fresh.jsonl") },
    "min-precision": { type: "string", default: "0.97" },
    /** The threshold in use, measured beside the calibrated one (default: FOLIO_APPROVED_ANSWER_THRESHOLD, else the shipped one). */
    threshold: {
      type: "string",
      default: process.env.FOLIO_APPROVED_ANSWER_THRESHOLD ?? String(DEFAULT_APPROVED_ANSWER_THRESHOLD),
    },
    "no-distractors": { type: "boolean", default: false },
    "cache-dir": { type: "string", default: path.join(".folio", "embedding-cache") },
    json: { type: "boolean", default: false },
    /** Also lists the paraphrases that were not reused. */
    verbose: { type: "boolean", default: false },
  },
});
const minimumPrecision = Number(values["min-precision"]);
const configuredThreshold = Number(values.threshold);

async function readPairs(file: string): Promise<PairRow[]> {
  return (await readFile(file, "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as PairRow);
}
const pairs = await readPairs(values.pairs);
const freshPairs = values.fresh === "" ? [] : await readPairs(values.fresh);

async function distractorQuestions(): Promise<string[]> {
  const vsaq = parseCsv(await readFile(sharedData("questionnaires", "vsaq", "vsaq_questions_flat.csv"), "utf8"), {
    columns: true,
  }) as Array<{ question_text: string }>;
  const northwind = (await readFile(sharedData("northwind-rag-qa", "ground_truth.jsonl"), "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => (JSON.parse(line) as { question: string }).question);
  return [...vsaq.map((row) => row.question_text.trim()), ...northwind].filter((question) => question !== "");
}

const approvedQuestions = [...new Set([...pairs, ...freshPairs].map((pair) => pair.approved))];
const distractors = values["no-distractors"]
  ? []
  : (await distractorQuestions()).filter((question) => !approvedQuestions.includes(question));
const libraryQuestions = [...new Set([...approvedQuestions, ...distractors])];

const stores = await openStores(
  { mode: "embedded", dataDir: "memory://" },
  { denseDimensions: 384, logger: silentLogger },
);
const store = createSqlApprovedAnswerStore(stores.client);
const SPACE = "eval:approved-answers";
await store.addFromFile({
  spaceId: SPACE,
  file: "library.xlsx",
  addedBy: "eval",
  entries: libraryQuestions.map((question, index) => ({
    question,
    answer: `Approved answer ${index + 1}`,
    sheet: "Library",
    row: index + 2,
  })),
});

const inference = createInferenceClient({ threads: 2, logger: silentLogger });
const rawEmbedder = await createTransformersEmbedder({
  inference,
  modelsDir: sharedModelsDir,
  modelId: "bge-small-en-v1.5",
});
// Probe and library vectors are cached between runs; the latency below uses the raw embedder.
const embedder = await createCachedEmbedder(rawEmbedder, values["cache-dir"]);

function outcomeOf(pair: PairRow, candidates: ScoredCandidate[], guards: boolean): ReuseProbeOutcome {
  const best = candidates.filter((candidate) => !guards || candidate.nearMiss === null)[0];
  const right = new Set([...(pair.expected === "match" ? [pair.approved] : []), ...(pair.acceptable ?? [])]);
  return {
    id: pair.id,
    group: pair.source,
    kind: pair.kind,
    expected: pair.expected,
    best: best ? { question: best.record.question, similarity: best.similarity } : null,
    bestIsRight: best !== undefined && right.has(best.record.question),
  };
}

async function scoreAll(library: ApprovedAnswerLibrary, probes: PairRow[]) {
  const guarded: ReuseProbeOutcome[] = [];
  const unguarded: ReuseProbeOutcome[] = [];
  for (const pair of probes) {
    const candidates = await library.score(SPACE, pair.asked, { guardAll: true });
    guarded.push(outcomeOf(pair, candidates, true));
    unguarded.push(outcomeOf(pair, candidates, false));
  }
  return { guarded, unguarded };
}

const started = performance.now();
const semanticLibrary = new ApprovedAnswerLibrary({ store, embedder, logger: silentLogger });
const semantic = await scoreAll(semanticLibrary, pairs);
const fresh = await scoreAll(semanticLibrary, freshPairs);
const lexicalLibrary = new ApprovedAnswerLibrary({ store, embedder: null, logger: silentLogger });
const lexical = await scoreAll(lexicalLibrary, pairs);
const lexicalFresh = await scoreAll(lexicalLibrary, freshPairs);
const seconds = Math.round((performance.now() - started) / 1000);

/** What one match costs a question in chat: embedding it (uncached) and scoring the whole library. */
async function measureMatchLatency(probes: PairRow[]): Promise<{ questions: number; p50: number; p95: number }> {
  const library = new ApprovedAnswerLibrary({ store, embedder: rawEmbedder, logger: silentLogger });
  const milliseconds: number[] = [];
  for (const pair of probes) {
    const start = performance.now();
    await library.match(SPACE, pair.asked);
    milliseconds.push(performance.now() - start);
  }
  milliseconds.sort((left, right) => left - right);
  const at = (share: number) =>
    Math.round(milliseconds[Math.min(milliseconds.length - 1, Math.floor(share * milliseconds.length))] ?? 0);
  return { questions: milliseconds.length, p50: at(0.5), p95: at(0.95) };
}
const matchLatencyMs = await measureMatchLatency(freshPairs.slice(0, 20));

const halves = splitByGroup(semantic.guarded);
const calibrated = calibrateThreshold(halves.calibration, minimumPrecision);
const heldOutIds = new Set(halves.heldOut.map((outcome) => outcome.id));
const heldOut = (outcomes: ReuseProbeOutcome[]) => outcomes.filter((outcome) => heldOutIds.has(outcome.id));
const calibrationOf = (outcomes: ReuseProbeOutcome[]) => outcomes.filter((outcome) => !heldOutIds.has(outcome.id));

/** A looser threshold, to show what the calibration trades away. */
const LOOSER_THRESHOLD = 0.9;
const unguardedThreshold = calibrateThreshold(calibrationOf(semantic.unguarded), minimumPrecision);
const calibratedSetting = `bge-small + guards, calibrated (shipped: ${DEFAULT_APPROVED_ANSWER_THRESHOLD})`;
const rows: Array<{ setting: string; split: string; metrics: ReuseMetrics }> = [
  { setting: calibratedSetting, split: "calibration half", metrics: measureReuse(halves.calibration, calibrated) },
  { setting: calibratedSetting, split: "held-out half", metrics: measureReuse(halves.heldOut, calibrated) },
  { setting: calibratedSetting, split: "all", metrics: measureReuse(semantic.guarded, calibrated) },
  { setting: calibratedSetting, split: "fresh set", metrics: measureReuse(fresh.guarded, calibrated) },
  ...(["held-out half", "all", "fresh set"] as const).map((split) => ({
    setting: "bge-small + guards, threshold in use",
    split,
    metrics: measureReuse(
      split === "held-out half" ? halves.heldOut : split === "all" ? semantic.guarded : fresh.guarded,
      configuredThreshold,
    ),
  })),
  {
    setting: "bge-small + guards, looser",
    split: "all",
    metrics: measureReuse(semantic.guarded, LOOSER_THRESHOLD),
  },
  {
    setting: "bge-small + guards, looser",
    split: "fresh set",
    metrics: measureReuse(fresh.guarded, LOOSER_THRESHOLD),
  },
  {
    setting: "bge-small without guards, calibrated on its half",
    split: "held-out half",
    metrics: measureReuse(heldOut(semantic.unguarded), unguardedThreshold),
  },
  {
    setting: "bge-small without guards, at the guarded threshold",
    split: "all",
    metrics: measureReuse(semantic.unguarded, calibrated),
  },
  {
    setting: `lexical fallback + guards (${LEXICAL_MATCH_THRESHOLD})`,
    split: "all",
    metrics: measureReuse(lexical.guarded, LEXICAL_MATCH_THRESHOLD),
  },
  {
    setting: `lexical fallback + guards (${LEXICAL_MATCH_THRESHOLD})`,
    split: "fresh set",
    metrics: measureReuse(lexicalFresh.guarded, LEXICAL_MATCH_THRESHOLD),
  },
];

const summary = {
  pairs: pairs.length,
  freshPairs: freshPairs.length,
  approvedQuestions: approvedQuestions.length,
  libraryQuestions: libraryQuestions.length,
  minimumPrecision,
  calibratedThreshold: calibrated,
  seconds,
  matchLatencyMs,
  rows: rows.map(({ setting, split, metrics }) => ({
    setting,
    split,
    ...metrics,
    wrongReuses: metrics.wrongReuses.map((outcome) => ({
      id: outcome.id,
      kind: outcome.kind,
      reused: outcome.best?.question,
      similarity: outcome.best && Math.round(outcome.best.similarity * 1000) / 1000,
    })),
  })),
};

if (values.json) {
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
} else {
  process.stdout.write(
    `${pairs.length} probes (+ ${freshPairs.length} fresh) against ${approvedQuestions.length} approved questions + ${distractors.length} distractors; threshold calibrated on the calibration half for precision ≥ ${minimumPrecision}: ${calibrated}\n\n`,
  );
  process.stdout.write("| setting | split | threshold | probes | should match | reused | precision | recall |\n");
  process.stdout.write("|---|---|---|---|---|---|---|---|\n");
  for (const { setting, split, metrics } of rows) {
    process.stdout.write(
      `| ${setting} | ${split} | ${metrics.threshold} | ${metrics.probes} | ${metrics.shouldMatch} | ${metrics.reused} | ${metrics.precision} | ${metrics.recall} |\n`,
    );
  }
  process.stdout.write(
    `\nmatch latency over ${libraryQuestions.length} stored questions (${matchLatencyMs.questions} questions, uncached): p50 ${matchLatencyMs.p50} ms, p95 ${matchLatencyMs.p95} ms\n`,
  );
  if (calibrated !== DEFAULT_APPROVED_ANSWER_THRESHOLD) {
    process.stdout.write(
      `NOTE: the calibrated threshold ${calibrated} differs from the shipped DEFAULT_APPROVED_ANSWER_THRESHOLD ${DEFAULT_APPROVED_ANSWER_THRESHOLD}\n`,
    );
  }
  for (const wrong of [...(rows[2]?.metrics.wrongReuses ?? []), ...(rows[3]?.metrics.wrongReuses ?? [])]) {
    process.stdout.write(
      `wrong reuse at ${calibrated}: ${wrong.id} [${wrong.kind}] → "${wrong.best?.question}" (${wrong.best?.similarity.toFixed(3)})\n`,
    );
  }
  if (values.verbose) {
    for (const wrong of [...(rows[4]?.metrics.wrongReuses ?? []), ...(rows[5]?.metrics.wrongReuses ?? [])]) {
      process.stdout.write(
        `wrong reuse at ${LOOSER_THRESHOLD}: ${wrong.id} [${wrong.kind}] → "${wrong.best?.question}" (${wrong.best?.similarity.toFixed(3)})\n`,
      );
    }
    for (const outcome of [...semantic.guarded, ...fresh.guarded].filter(
      (item) => item.expected === "match" && !(item.bestIsRight && isReused(item, calibrated)),
    )) {
      process.stdout.write(
        `missed at ${calibrated}: ${outcome.id} → ${outcome.bestIsRight ? "right question" : `"${outcome.best?.question}"`} (${outcome.best?.similarity.toFixed(3)})\n`,
      );
    }
  }
}

await embedder.close();
await inference.close();
await stores.client.close();
