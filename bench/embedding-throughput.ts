/**
 * The embedder's raw rate on one document's passages, and how its vectors compare with the earlier path.
 * The file is parsed and chunked as an upload is, its passages given their index text (title, file name,
 * section: src/ingest/index-text.ts), then embedded twice, alternately, in one process:
 *
 * - "current": Folio's embedder (src/embedding/transformers-embedder.ts) in the inference worker, each
 *   passage run through the model on its own;
 * - "batched": the path before issue #33 — slices of 32 passages, each sorted by length and sent in
 *   padded batches of 8 — run here with transformers.js directly on the same model file.
 *
 * Prints one JSON line per run (passages/s, tokens/s — tokens after truncation at the model's limit — and
 * the load average), then the cosine between the two paths' vectors of each passage, and between the
 * batched path and itself with its batch mates shuffled (how far batch mates alone move a vector).
 *
 *   FOLIO_MODELS_DIR=../shared/models npx tsx bench/embedding-throughput.ts <file> [passages] [rounds]
 */
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AutoModel, AutoTokenizer, env, type Tensor } from "@huggingface/transformers";
import { resolveParseLimits } from "../ingestion/limits.js";
import { closeParseWorkers, processFileInWorker } from "../ingestion/run-in-worker.js";
import { indexedDocument, indexTextOf } from "../src/domain/index-text.js";
import { createTransformersEmbedder } from "../src/embedding/transformers-embedder.js";
import { createInferenceClient } from "../src/inference/inference-client.js";
import { silentLogger } from "../src/logger.js";

const [file, limitArgument, roundsArgument] = process.argv.slice(2);
if (!file) {
  console.error("usage: npx tsx bench/embedding-throughput.ts <file> [passages] [rounds]");
  process.exit(2);
}
const modelsDir = path.resolve(process.env.FOLIO_MODELS_DIR ?? "models");
const modelId = process.env.FOLIO_EMBED_MODEL ?? "bge-small-en-v1.5";
const modelDirectory = path.join(modelsDir, modelId);
const threads = Number(process.env.FOLIO_INFERENCE_THREADS ?? 0);
const rounds = Number(roundsArgument ?? 1);

const parsed = await processFileInWorker({
  bytes: new Uint8Array(await readFile(file)),
  fileName: path.basename(file),
  limits: resolveParseLimits(),
  chunking: { maxTokens: 512, overlapTokens: 20, tokenizerDirectory: modelDirectory },
});
await closeParseWorkers();
const document = indexedDocument(parsed.document.title, path.basename(file));
const texts = parsed.chunks
  .map((chunk) => indexTextOf(document, chunk))
  .slice(0, limitArgument ? Number(limitArgument) : undefined);

env.allowRemoteModels = false;
const tokenizer = await AutoTokenizer.from_pretrained(modelDirectory, { local_files_only: true });
const tokens = texts.reduce(
  (sum, text) => sum + ((tokenizer([text], { truncation: true }).input_ids as Tensor).dims[1] ?? 0),
  0,
);

const inference = createInferenceClient({ threads, logger: silentLogger });
const embedder = await createTransformersEmbedder({ inference, modelsDir, modelId });
const sessionOptions = threads > 0 ? { intraOpNumThreads: threads, interOpNumThreads: 1 } : {};
const batchedModel = await AutoModel.from_pretrained(modelDirectory, {
  local_files_only: true,
  dtype: "q8",
  session_options: sessionOptions,
});

async function embedBatch(batch: string[]): Promise<Float32Array[]> {
  const inputs = tokenizer(batch, { padding: true, truncation: true });
  const hidden = ((await batchedModel(inputs)) as { last_hidden_state: Tensor }).last_hidden_state;
  const [rows = 0, sequence = 0, width = 0] = hidden.dims;
  const data = hidden.data as Float32Array;
  const vectors = Array.from({ length: rows }, (_, row) =>
    unit(data.slice(row * sequence * width, row * sequence * width + width)),
  );
  hidden.dispose();
  return vectors;
}

/** The earlier path: slices of 32, sorted by length within the slice, padded batches of 8; CLS pooling (bge). */
async function embedBatched(input: string[]): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  for (let start = 0; start < input.length; start += 32) {
    const slice = input.slice(start, start + 32);
    const order = slice
      .map((_, index) => index)
      .sort((left, right) => (slice[left] ?? "").length - (slice[right] ?? "").length);
    const sliceVectors: Float32Array[] = new Array(slice.length);
    for (let batchStart = 0; batchStart < order.length; batchStart += 8) {
      const indices = order.slice(batchStart, batchStart + 8);
      const batch = await embedBatch(indices.map((index) => slice[index] ?? ""));
      indices.forEach((index, position) => {
        sliceVectors[index] = batch[position] ?? new Float32Array();
      });
    }
    vectors.push(...sliceVectors);
  }
  return vectors;
}

function unit(vector: Float32Array): Float32Array {
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

function cosine(left: ArrayLike<number>, right: ArrayLike<number>): number {
  let sum = 0;
  for (let index = 0; index < left.length; index += 1) sum += (left[index] ?? 0) * (right[index] ?? 0);
  return sum;
}

function summarize(values: number[]) {
  const sorted = [...values].sort((left, right) => left - right);
  const at = (share: number) =>
    Number((sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0).toFixed(6));
  return { min: at(0), p05: at(0.05), median: at(0.5) };
}

async function timed<T>(path: string, run: () => Promise<T>): Promise<T> {
  const load = os.loadavg()[0];
  const started = performance.now();
  const result = await run();
  const seconds = (performance.now() - started) / 1000;
  console.log(
    JSON.stringify({
      path,
      passages: texts.length,
      tokens,
      seconds: Number(seconds.toFixed(2)),
      passagesPerSecond: Number((texts.length / seconds).toFixed(2)),
      tokensPerSecond: Math.round(tokens / seconds),
      loadAverage: Number(load?.toFixed(2)),
    }),
  );
  return result;
}

try {
  // Both sessions load and run once before anything is timed.
  await embedder.embedPassages(texts.slice(0, 2));
  await embedBatch(texts.slice(0, 2));
  let current: number[][] = [];
  let batched: Float32Array[] = [];
  for (let round = 0; round < rounds; round += 1) {
    batched = await timed("batched", () => embedBatched(texts));
    current = await timed("current", () => embedder.embedPassages(texts));
  }
  // The same passages in another order: other batch mates, same path.
  const shuffledOrder = texts
    .map((_, index) => index)
    .sort((left, right) => ((left * 7919) % 101) - ((right * 7919) % 101));
  const shuffled = await embedBatched(shuffledOrder.map((index) => texts[index] ?? ""));
  const batchedAgain: Float32Array[] = new Array(texts.length);
  shuffledOrder.forEach((index, position) => {
    batchedAgain[index] = shuffled[position] ?? new Float32Array();
  });
  const alone = await embedder.embedPassages(texts.slice(0, 8).reverse());
  console.log(
    JSON.stringify({
      cosineCurrentVsBatched: summarize(current.map((vector, index) => cosine(vector, batched[index] ?? []))),
      cosineBatchedVsBatchedOtherMates: summarize(
        batched.map((vector, index) => cosine(vector, batchedAgain[index] ?? [])),
      ),
      currentIndependentOfOrder: alone
        .reverse()
        .every((vector, index) => vector.every((value, at) => value === current[index]?.[at])),
    }),
  );
} finally {
  await batchedModel.dispose();
  await inference.close();
}
