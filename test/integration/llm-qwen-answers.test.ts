/**
 * Answers written by a real instruction-tuned model — Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF, CPU,
 * two threads), found in FOLIO_MODELS_DIR or ~/.cache/folio-models — and checked with the real
 * bge-small-en-v1.5, through answerQuestion: a question its source answers gets the model's own
 * answer, every sentence of it checked (the same text passes the check again), streamed sentence by
 * sentence before the reply is done; a question the source is about but does not answer never gets a
 * checked claim the source does not make. Slow on a CPU (a minute or more an answer on a busy box);
 * skipped with the reason when the model or the runtime is absent.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Answer, AnswerEvent } from "../../src/answer/answer-events.js";
import { createAnswerService } from "../../src/answer/answer-question.js";
import { createExtractiveGenerator } from "../../src/answer/generate/extractive-generator.js";
import { createLlmGenerator } from "../../src/answer/generate/llm-generator.js";
import { loadAnswerPrompts } from "../../src/answer/generate/prompt-templates.js";
import { verifyAnswer } from "../../src/answer/generate/verify-answer.js";
import type { PageText } from "../../src/domain/types.js";
import type { Embedder } from "../../src/embedding/embedder.js";
import { createTransformersEmbedder } from "../../src/embedding/transformers-embedder.js";
import { createInferenceClient } from "../../src/inference/inference-client.js";
import type { LanguageModel } from "../../src/llm/language-model.js";
import { silentLogger } from "../../src/logger.js";
import { importLlamaCppModel, llamaCppMissing } from "../support/llama-cpp-runtime.js";
import { pageChunk } from "../support/page-chunk.js";
import { findQwenModel } from "../support/qwen-model.js";
import { sharedModelsDir } from "../support/shared-paths.js";

const qwen = findQwenModel("1.5b");
const embedderPath = path.join(sharedModelsDir, "bge-small-en-v1.5", "onnx", "model_quantized.onnx");
const skipReason =
  llamaCppMissing ?? qwen.missing ?? (existsSync(embedderPath) ? null : `no ${embedderPath} (shared models absent)`);
if (skipReason) console.warn(`llm-qwen-answers: skipped — ${skipReason}`);
const { loadLlamaCppModel } = await importLlamaCppModel();

/** A real model on a busy CPU: minutes per answer, never a reason to fail. */
const SLOW = 1_800_000;

const PAGES: PageText[] = [
  {
    pageNumber: 1,
    text: "Annual leave. Full-time employees earn 4 hours of annual leave each pay period during their first three years of service. After three years they earn 6 hours each pay period, and after fifteen years 8 hours.",
  },
  {
    pageNumber: 2,
    text: "Carry-over. You can carry over up to 240 hours of annual leave into the next leave year. Hours above that limit are forfeited unless they were scheduled in advance and cancelled for work.",
  },
];
const LEAVE = pageChunk("leave", "Leave policy", PAGES);

describe.skipIf(skipReason !== null)("answers by Qwen2.5-Coder-1.5B, checked with bge-small", () => {
  const inference = createInferenceClient({ threads: 1, logger: silentLogger });
  let model: LanguageModel | null = null;
  let embedder: Embedder | null = null;
  afterAll(async () => {
    await model?.close();
    await inference.close();
  });

  async function ask(question: string): Promise<{ answer: Answer; events: AnswerEvent[] }> {
    model ??= await loadLlamaCppModel({
      modelPath: qwen.path as string,
      gpu: "cpu",
      threads: 2,
      parallel: 1,
      contextTokens: 4096,
      timeoutMs: SLOW,
      logger: silentLogger,
    });
    embedder ??= await createTransformersEmbedder({
      inference,
      modelsDir: sharedModelsDir,
      modelId: "bge-small-en-v1.5",
    });
    const answers = createAnswerService({
      retriever: { search: async () => [LEAVE] },
      generator: createExtractiveGenerator({ embedder }),
      llm: {
        writer: createLlmGenerator({ model, prompts: await loadAnswerPrompts(), logger: silentLogger }),
        embedder,
      },
      linkForCitation: ({ documentId, page }) => `https://folio.test/files/${documentId}#page=${page}`,
      pageTexts: async () => PAGES,
      logger: silentLogger,
    });
    const events: AnswerEvent[] = [];
    for await (const event of answers.answerQuestion(question, { spaceIds: ["s"], history: [], requestId: "r" })) {
      if (event.type === "error") throw new Error(`${event.code}: ${event.message}`);
      events.push(event);
    }
    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("no answer");
    return { answer: done.answer, events };
  }

  it(
    "answers from the source in checked sentences, shown one by one before the reply is done",
    async () => {
      const { answer, events } = await ask("How many hours of annual leave can I carry over into next year?");
      expect(answer.verification?.outcome).toBe("verified");
      expect(answer.answer).toMatch(/240 hours[^[]*\[1\]/);
      expect(answer.citations[0]?.pageStart).toBe(2);
      // Each delta is whole checked sentences, and they all came before the final answer.
      const deltas = events.flatMap((event) => (event.type === "delta" ? [event.text] : []));
      expect(deltas.join("")).toBe(answer.answer);
      expect(events.findIndex((event) => event.type === "delta")).toBeLessThan(
        events.findIndex((event) => event.type === "done"),
      );
      // What was shown passes the check again, whole.
      const again = await verifyAnswer({
        answer: answer.answer,
        sources: [{ n: 1, result: LEAVE }],
        embedder: embedder as Embedder,
      });
      expect(again.unsupportedSentences).toBe(0);
      expect(answer.verification?.promptTokens).toBeGreaterThan(0);
    },
    SLOW,
  );

  it(
    "never shows a checked claim the source does not make about what it does not answer",
    async () => {
      const { answer } = await ask("How many hours of sick leave do full-time employees earn each pay period?");
      // Either "not in the documents" or a reader's quote: never "4 hours of sick leave" as a checked answer.
      if (answer.verification?.outcome === "verified") expect(answer.answer).not.toMatch(/sick leave/i);
      expect(answer.answer).not.toMatch(/\b4 hours of sick leave/i);
    },
    SLOW,
  );
});
