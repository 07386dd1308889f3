/**
 * The embedder and the cross-encoder on the real ONNX models from the shared models folder, in the
 * real inference worker: vector shape and meaning, the query instruction, order kept across sorting
 * and batching, questions served before queued ingestion batches, and the reranker's output shape.
 * The test cross-encoder has random weights, so only shapes and plumbing are checked, never quality.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Embedder } from "../../src/embedding/embedder.js";
import { createTransformersEmbedder } from "../../src/embedding/transformers-embedder.js";
import { createInferenceClient } from "../../src/inference/inference-client.js";
import { silentLogger } from "../../src/logger.js";
import { createCrossEncoderReranker } from "../../src/rerank/cross-encoder-reranker.js";
import { sharedModelsDir } from "../support/shared-paths.js";

const hasEmbedder = existsSync(path.join(sharedModelsDir, "bge-small-en-v1.5", "onnx", "model_quantized.onnx"));
const hasCrossEncoder = existsSync(
  path.join(sharedModelsDir, "test-cross-encoder-random", "onnx", "model_quantized.onnx"),
);

function dot(left: number[], right: number[]): number {
  return left.reduce((sum, value, index) => sum + value * (right[index] ?? 0), 0);
}

describe.skipIf(!hasEmbedder)("bge-small-en-v1.5 embedder in the inference worker", () => {
  const inference = createInferenceClient({ threads: 1, logger: silentLogger });
  let embedder: Embedder;
  afterAll(() => inference.close());

  it("makes unit-length 384-d vectors whose nearest passage is the paraphrase", async () => {
    embedder = await createTransformersEmbedder({
      inference,
      modelsDir: sharedModelsDir,
      modelId: "bge-small-en-v1.5",
    });
    expect(embedder.dimensions).toBe(384);
    const question = await embedder.embedQuery("What does AES stand for?");
    const passages = await embedder.embedPassages([
      "Cats are small furry animals that like to sleep in the sun.",
      "The Advanced Encryption Standard is a symmetric block cipher adopted by NIST.",
      "Quarterly revenue grew by four percent.",
    ]);
    expect(question).toHaveLength(384);
    for (const vector of [question, ...passages]) expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    const similarities = passages.map((passage) => dot(question, passage));
    expect(similarities.indexOf(Math.max(...similarities))).toBe(1);
  });

  it("gives questions the instruction and passages none", async () => {
    const asQuestion = await embedder.embedQuery("annual leave policy");
    const [asPassage] = await embedder.embedPassages(["annual leave policy"]);
    const [withInstruction] = await embedder.embedPassages([
      "Represent this sentence for searching relevant passages: annual leave policy",
    ]);
    expect(dot(asQuestion, withInstruction ?? [])).toBeGreaterThan(0.999);
    expect(dot(asQuestion, asPassage ?? [])).toBeLessThan(0.99);
  });

  it("returns vectors in input order across requests, with progress, each independent of its batch mates", async () => {
    const texts = Array.from({ length: 19 }, (_, index) => `${"word ".repeat((index * 7) % 23)}item number ${index}`);
    const progress: number[] = [];
    const together = await embedder.embedPassages(texts, { onProgress: (done) => progress.push(done) });
    expect(progress).toEqual([4, 8, 12, 16, 19]);
    for (const index of [0, 7, 18]) {
      // Each text runs through the model alone: int8 activation scales are per tensor, so a padded batch
      // would move a vector with its batch mates (cosine ~0.997); alone it is the same to the last bit.
      const [alone] = await embedder.embedPassages([texts[index] ?? ""]);
      expect(alone).toEqual(together[index]);
    }
  });

  it("serves a question before ingestion batches queued ahead of it", async () => {
    const finished: string[] = [];
    const passages = Array.from({ length: 6 }, (_, batch) =>
      embedder
        .embedPassages(
          Array.from({ length: 8 }, (_, index) => `background passage ${batch}-${index} ${"text ".repeat(60)}`),
        )
        .then(() => finished.push(`batch ${batch}`)),
    );
    const question = embedder
      .embedQuery("a question asked while a file is indexed")
      .then(() => finished.push("question"));
    await Promise.all([...passages, question]);
    // At most the batch already running (and the first passage call's) finishes before the question.
    expect(finished.indexOf("question")).toBeLessThanOrEqual(1);
  });

  it("refuses an aborted request without running it", async () => {
    const controller = new AbortController();
    controller.abort(new Error("cancelled by the asker"));
    await expect(embedder.embedQuery("never asked", { signal: controller.signal })).rejects.toThrow(
      "cancelled by the asker",
    );
  });

  it("names the missing file and the fix when the model is absent", async () => {
    await expect(
      createTransformersEmbedder({ inference, modelsDir: sharedModelsDir, modelId: "no-such-model" }),
    ).rejects.toThrow(/no-such-model.*config\.json does not exist.*models pull/);
  });
});

describe.skipIf(!hasCrossEncoder)("cross-encoder reranker (random test weights: shapes only)", () => {
  const inference = createInferenceClient({ threads: 1, logger: silentLogger });
  afterAll(() => inference.close());

  it("scores every pair with a finite logit, in input order, across batches", async () => {
    const reranker = createCrossEncoderReranker({
      inference,
      modelsDir: sharedModelsDir,
      modelId: "test-cross-encoder-random",
    });
    const passages = Array.from({ length: 21 }, (_, index) => `passage ${index} ${"about leave ".repeat(index)}`);
    const scores = await reranker.score("how many days of leave", passages);
    expect(scores).toHaveLength(21);
    for (const score of scores) expect(Number.isFinite(score)).toBe(true);
    const [again] = await reranker.score("how many days of leave", [passages[20] ?? ""]);
    expect(again).toBeCloseTo(scores[20] ?? Number.NaN, 1);
    expect(new Set(scores.map((score) => score.toFixed(4))).size).toBeGreaterThan(1);
  });

  it("truncates a pair longer than 512 tokens instead of failing", async () => {
    const reranker = createCrossEncoderReranker({
      inference,
      modelsDir: sharedModelsDir,
      modelId: "test-cross-encoder-random",
    });
    const [score] = await reranker.score("question", ["very long passage ".repeat(600)]);
    expect(Number.isFinite(score)).toBe(true);
  });
});
