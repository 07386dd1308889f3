/**
 * Worker-thread entry that runs ONNX models with transformers.js: sentence embeddings and
 * cross-encoder pair scores. Models load on first use, from local directories only (downloads are
 * src/models' job), and stay loaded. The main thread sends one request at a time, so the order of
 * work (questions before ingestion batches) is decided there, not here.
 */
import { parentPort, workerData } from "node:worker_threads";
import {
  AutoModel,
  AutoModelForSequenceClassification,
  AutoTokenizer,
  env,
  type PreTrainedModel,
  type PreTrainedTokenizer,
  type Tensor,
} from "@huggingface/transformers";
import type { InferenceReply, InferenceRequest, InferenceWorkerOptions } from "./inference-protocol.js";

type LoadedModel = { tokenizer: PreTrainedTokenizer; model: PreTrainedModel };

const options = workerData as InferenceWorkerOptions;
const loaded = new Map<string, Promise<LoadedModel>>();

env.allowRemoteModels = false;

function loadModel(directory: string, kind: "encoder" | "cross-encoder"): Promise<LoadedModel> {
  const key = `${kind}:${directory}`;
  let model = loaded.get(key);
  if (!model) {
    const sessionOptions = options.threads > 0 ? { intraOpNumThreads: options.threads, interOpNumThreads: 1 } : {};
    const loader = kind === "encoder" ? AutoModel : AutoModelForSequenceClassification;
    model = Promise.all([
      AutoTokenizer.from_pretrained(directory, { local_files_only: true }),
      loader.from_pretrained(directory, { local_files_only: true, dtype: "q8", session_options: sessionOptions }),
    ]).then(([tokenizer, network]) => ({ tokenizer, model: network }));
    loaded.set(key, model);
    model.catch(() => loaded.delete(key));
  }
  return model;
}

/**
 * Each text runs through the model on its own. The model's int8 layers quantize their inputs with one
 * scale per tensor (DynamicQuantizeLinear), so in a padded batch every text's vector moved with its batch
 * mates (cosine 0.995–0.997 between the same passage in two batches); alone, a vector depends on its text
 * only — the same at ingestion, at re-indexing and in the evaluation cache — and nothing is padded. On
 * two cores this is also faster for long passages: 15 passages/s alone against 8.5 in batches of 8
 * (400-token filing passages, measured: docs/benchmarks.md), and no slower for short ones.
 */
async function embed(request: Extract<InferenceRequest, { task: "embed" }>): Promise<InferenceReply> {
  const { tokenizer, model } = await loadModel(request.modelDirectory, "encoder");
  let dimensions = 0;
  let vectors = new Float32Array(0);
  for (const [row, text] of request.texts.entries()) {
    // Truncated at the model's own limit (model_max_length, 512 tokens for bge): position embeddings end there.
    const inputs = tokenizer([text], { truncation: true });
    const output = (await model(inputs)) as { last_hidden_state: Tensor };
    const hidden = output.last_hidden_state;
    const [, sequence = 0, width = 0] = hidden.dims;
    if (row === 0) {
      dimensions = width;
      vectors = new Float32Array(request.texts.length * dimensions);
    }
    poolInto(
      vectors.subarray(row * dimensions, (row + 1) * dimensions),
      hidden.data as Float32Array,
      sequence,
      request.pooling,
    );
    hidden.dispose();
  }
  return { id: request.id, ok: true, task: "embed", vectors, dimensions };
}

/** One text's token vectors (sequence × width, no padding) pooled into `target` and scaled to unit length. */
function poolInto(target: Float32Array, data: Float32Array, sequence: number, pooling: "cls" | "mean"): void {
  const width = target.length;
  if (pooling === "cls") {
    target.set(data.subarray(0, width));
  } else {
    for (let position = 0; position < sequence; position += 1) {
      const offset = position * width;
      for (let dimension = 0; dimension < width; dimension += 1) {
        target[dimension] = (target[dimension] ?? 0) + (data[offset + dimension] ?? 0);
      }
    }
    for (let dimension = 0; dimension < width; dimension += 1) {
      target[dimension] = (target[dimension] ?? 0) / Math.max(sequence, 1);
    }
  }
  let norm = 0;
  for (const value of target) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  for (let dimension = 0; dimension < width; dimension += 1) target[dimension] = (target[dimension] ?? 0) / norm;
}

async function scorePairs(request: Extract<InferenceRequest, { task: "score-pairs" }>): Promise<InferenceReply> {
  const { tokenizer, model } = await loadModel(request.modelDirectory, "cross-encoder");
  if (request.passages.length === 0) return { id: request.id, ok: true, task: "score-pairs", scores: [] };
  const inputs = tokenizer(
    request.passages.map(() => request.query),
    { text_pair: request.passages, padding: true, truncation: true, max_length: request.maxTokens },
  );
  // Raw logits: a single-label classifier's softmax would be 1.0 for every pair.
  const output = (await model(inputs)) as { logits: Tensor };
  const logits = output.logits.data as Float32Array;
  const labels = output.logits.dims[1] ?? 1;
  const scores = request.passages.map((_, row) => logits[row * labels + (labels > 1 ? labels - 1 : 0)] ?? 0);
  output.logits.dispose();
  return { id: request.id, ok: true, task: "score-pairs", scores };
}

function describeFailure(error: unknown, request: InferenceRequest): { code: string; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (/no such file|not found|could not locate|ENOENT/i.test(message)) {
    return {
      code: "model_missing",
      message: `Cannot load the model in ${request.modelDirectory} (${message}) — run \`folio models pull\` or check FOLIO_MODELS_DIR.`,
    };
  }
  return { code: "inference_failed", message: `The model in ${request.modelDirectory} failed: ${message}` };
}

async function load(request: Extract<InferenceRequest, { task: "load" }>): Promise<InferenceReply> {
  await loadModel(request.modelDirectory, request.kind);
  return { id: request.id, ok: true, task: "load" };
}

parentPort?.on("message", (request: InferenceRequest) => {
  const work =
    request.task === "embed" ? embed(request) : request.task === "load" ? load(request) : scorePairs(request);
  work.then(
    (reply) => {
      if (reply.ok && reply.task === "embed") parentPort?.postMessage(reply, [reply.vectors.buffer as ArrayBuffer]);
      else parentPort?.postMessage(reply);
    },
    (error: unknown) => parentPort?.postMessage({ id: request.id, ok: false, error: describeFailure(error, request) }),
  );
});
