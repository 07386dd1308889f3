/**
 * The cross-encoder's CPU cost: rescoring N candidates of real passages (SciFact abstracts) per
 * question, for several N and passage windows, p50/p95 over a handful of questions. It needs a model
 * of a real reranker's shape; the shared test-cross-encoder-random has MiniLM-L-6's exact architecture
 * (random weights: cost only, its ranking means nothing).
 * Usage: tsx bench/rerank-benchmark.ts [BEIR dir] [model name, default test-cross-encoder-random]
 */
import { loadBeirDataset } from "../src/evaluation/beir-dataset.js";
import { summarizeLatency } from "../src/evaluation/latency.js";
import { beirPassageText } from "../src/evaluation/retrieval-evaluation.js";
import { createInferenceClient } from "../src/inference/inference-client.js";
import { silentLogger } from "../src/logger.js";
import { createCrossEncoderReranker } from "../src/rerank/cross-encoder-reranker.js";
import { sharedData, sharedModelsDir } from "../test/support/shared-paths.js";

const [datasetDir = sharedData("beir-scifact"), modelId = "test-cross-encoder-random"] = process.argv.slice(2);
const dataset = await loadBeirDataset(datasetDir, "test");
const passages = dataset.corpus.map(beirPassageText);
const questions = [...dataset.queries.values()].slice(0, 8);
const inference = createInferenceClient({ threads: 0, logger: silentLogger });
const reranker = createCrossEncoderReranker({
  inference,
  modelsDir: process.env.FOLIO_MODELS_DIR ?? sharedModelsDir,
  modelId,
});
await reranker.score("warm-up", ["warm-up passage"]);

process.stdout.write("| candidates | passage window | p50 ms | p95 ms |\n| --- | --- | --- | --- |\n");
for (const [candidates, window] of [
  [50, Number.POSITIVE_INFINITY],
  [50, 1200],
  [20, 1200],
  [20, 600],
  [10, 1200],
] as const) {
  const latencies: number[] = [];
  for (const [index, question] of questions.entries()) {
    const batch = passages.slice(index * candidates, (index + 1) * candidates).map((text) => text.slice(0, window));
    const started = performance.now();
    await reranker.score(question, batch);
    latencies.push(performance.now() - started);
  }
  const { p50, p95 } = summarizeLatency(latencies);
  const windowText = Number.isFinite(window) ? `${window} chars` : "whole (≤ 512 tokens)";
  process.stdout.write(`| ${candidates} | ${windowText} | ${p50} | ${p95} |\n`);
}
await inference.close();
