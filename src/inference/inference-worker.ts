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

async function embed(request: Extract<InferenceRequest, { task: "embed" }>): Promise<InferenceReply> {
  const { tokenizer, model } = await loadModel(request.modelDirectory, "encoder");
  const inputs = tokenizer(request.texts, { padding: true, truncation: true });
  const output = (await model(inputs)) as { last_hidden_state: Tensor };
  const hidden = output.last_hidden_state;
  const [batch = 0, sequence = 0, dimensions = 0] = hidden.dims;
  const data = hidden.data as Float32Array;
  const mask = (inputs.attention_mask as Tensor).data as BigInt64Array;
  const vectors = new Float32Array(batch * dimensions);
  for (let row = 0; row < batch; row += 1) {
    const target = vectors.subarray(row * dimensions, (row + 1) * dimensions);
    if (request.pooling === "cls") {
      target.set(data.subarray(row * sequence * dimensions, row * sequence * dimensions + dimensions));
    } else {
      let tokens = 0;
      for (let position = 0; position < sequence; position += 1) {
        if (mask[row * sequence + position] === 0n) continue;
        tokens += 1;
        const offset = (row * sequence + position) * dimensions;
        for (let dimension = 0; dimension < dimensions; dimension += 1) {
          target[dimension] = (target[dimension] ?? 0) + (data[offset + dimension] ?? 0);
        }
      }
      for (let dimension = 0; dimension < dimensions; dimension += 1) {
        target[dimension] = (target[dimension] ?? 0) / Math.max(tokens, 1);
      }
    }
    let norm = 0;
    for (const value of target) norm += value * value;
    norm = Math.sqrt(norm) || 1;
    for (let dimension = 0; dimension < dimensions; dimension += 1) target[dimension] = (target[dimension] ?? 0) / norm;
  }
  hidden.dispose();
  return { id: request.id, ok: true, task: "embed", vectors, dimensions };
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

parentPort?.on("message", (request: InferenceRequest) => {
  const work = request.task === "embed" ? embed(request) : scorePairs(request);
  work.then(
    (reply) => {
      if (reply.ok && reply.task === "embed") parentPort?.postMessage(reply, [reply.vectors.buffer as ArrayBuffer]);
      else parentPort?.postMessage(reply);
    },
    (error: unknown) => parentPort?.postMessage({ id: request.id, ok: false, error: describeFailure(error, request) }),
  );
});
