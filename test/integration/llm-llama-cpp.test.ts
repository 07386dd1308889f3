/**
 * The node-llama-cpp language model on the real SmolLM2-135M GGUF, CPU, one thread: the shared
 * contract, then what only the in-process model does — parallel sequences decoding together, the
 * bounded waiting line, prompts that do not fit, a request after another answering as on a fresh
 * context (only the shared system rules stay read), and the start-up log. One model file is loaded for
 * the whole file; each test builds its own context (sequences) on it.
 */
import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { LanguageModel } from "../../src/llm/language-model.js";
import type { LoadedLlamaModel } from "../../src/llm/llama-cpp-model.js";
import { type LogFields, type Logger, silentLogger } from "../../src/logger.js";
import { importLlamaCppModel, llamaCppMissing } from "../support/llama-cpp-runtime.js";
import { sharedModel } from "../support/shared-paths.js";
import { COUNTING_PROMPT, collectStream, runLanguageModelContract } from "./language-model-contract.js";

const modelPath = sharedModel("SmolLM2-135M-Instruct.Q4_1.gguf");
const skipReason = llamaCppMissing ?? (existsSync(modelPath) ? null : `no ${modelPath} (shared models absent)`);
const { createLlamaCppModel, loadLlamaModelFile } = await importLlamaCppModel();

let loading: Promise<LoadedLlamaModel> | null = null;
/** Loads the GGUF once per file, on first use (not at import, so a skipped file loads nothing). */
function loadSharedModel(): Promise<LoadedLlamaModel> {
  loading ??= loadLlamaModelFile({ modelPath, gpu: "cpu", threads: 1, logger: silentLogger });
  return loading;
}

afterAll(async () => {
  if (loading) await (await loading).dispose();
});

function openContext(options: { parallel: number; queueLimit?: number; logger?: Logger }): Promise<LanguageModel> {
  return loadSharedModel().then((loaded) =>
    createLlamaCppModel({
      loaded,
      parallel: options.parallel,
      queueLimit: options.queueLimit ?? 4,
      threads: 1,
      contextTokens: 1024,
      logger: options.logger ?? silentLogger,
    }),
  );
}

runLanguageModelContract(
  "node-llama-cpp",
  async () => {
    const loaded = await loadSharedModel();
    const model = await openContext({ parallel: 1 });
    return {
      model,
      countReferenceTokens: (text) => loaded.model.tokenize(text).length,
      close: () => model.close(),
    };
  },
  skipReason,
);

describe.skipIf(skipReason !== null)("node-llama-cpp language model", () => {
  it("decodes 4 concurrent questions together on 4 sequences: every first chunk comes before any answer ends", async () => {
    const model = await openContext({ parallel: 4 });
    try {
      expect(model.capabilities.parallelSequences).toBe(4);
      const started = performance.now();
      const firstChunkAt: number[] = [];
      const finishedAt: number[] = [];
      const questions = ["Name two fruits.", "Name two colours.", "Name two animals.", "Name two cities."];
      const results = await Promise.all(
        questions.map(async (question, index) => {
          const result = await collectStream(
            model,
            [{ role: "user", content: question }],
            { maxTokens: 16 },
            (_chunk, chunkIndex) => {
              if (chunkIndex === 0) firstChunkAt[index] = performance.now() - started;
            },
          );
          finishedAt[index] = performance.now() - started;
          return result;
        }),
      );
      for (const result of results) {
        expect(result.error).toBeNull();
        expect(result.text.trim().length).toBeGreaterThan(0);
      }
      expect(firstChunkAt).toHaveLength(4);
      // On one sequence the questions would run one after another and the first would end before the last started.
      expect(Math.max(...firstChunkAt)).toBeLessThan(Math.min(...finishedAt));
    } finally {
      await model.close();
    }
  });

  it("puts the second question in line, refuses the third with llm_busy, then answers the second", async () => {
    const model = await openContext({ parallel: 1, queueLimit: 1 });
    try {
      const order: string[] = [];
      const positions: number[] = [];
      const first = collectStream(model, COUNTING_PROMPT, { maxTokens: 16 }).then((result) => {
        order.push("first");
        return result;
      });
      const second = collectStream(model, COUNTING_PROMPT, {
        maxTokens: 6,
        onQueued: (position) => positions.push(position),
      }).then((result) => {
        order.push("second");
        return result;
      });
      const third = await collectStream(model, COUNTING_PROMPT, { maxTokens: 6 });
      expect(third.error?.code).toBe("llm_busy");
      expect(third.error?.retryable).toBe(true);
      expect(third.error?.message).toBe(
        "The model is busy: 1 answer(s) in progress and 1 question(s) already in line. Please ask again in a minute.",
      );
      expect(third.chunks).toEqual([]);
      expect(positions).toEqual([1]);
      const [firstResult, secondResult] = await Promise.all([first, second]);
      expect(firstResult.error).toBeNull();
      expect(secondResult.error).toBeNull();
      expect(secondResult.finishReason).toBe("length");
      expect(order).toEqual(["first", "second"]);
    } finally {
      await model.close();
    }
  });

  it("refuses a prompt that leaves no room for an answer instead of silently dropping its start", async () => {
    const model = await openContext({ parallel: 1 });
    try {
      const longSources = "The quick brown fox jumps over the lazy dog. ".repeat(120);
      const result = await collectStream(model, [{ role: "user", content: longSources }], { maxTokens: 8 });
      expect(result.error?.code).toBe("llm_error");
      expect(result.error?.message).toMatch(
        /^The prompt takes \d+ tokens and leaves no room for an answer in the model's 1024-token context/,
      );
      expect(result.chunks).toEqual([]);
      const next = await collectStream(model, COUNTING_PROMPT, { maxTokens: 4 });
      expect(next.error).toBeNull();
    } finally {
      await model.close();
    }
  });

  it("answers a request after another exactly as on a fresh context: only the shared system rules stay read", async () => {
    const rules = { role: "system" as const, content: "You answer in one short sentence." };
    const earlier = [rules, { role: "user" as const, content: "My secret word is PELICAN. Name a colour." }];
    const later = [rules, { role: "user" as const, content: "What was my secret word?" }];
    const reused = await openContext({ parallel: 1 });
    const fresh = await openContext({ parallel: 1 });
    try {
      const first = await collectStream(reused, earlier, { maxTokens: 12 });
      expect(first.error).toBeNull();
      const afterAnother = await collectStream(reused, later, { maxTokens: 24 });
      const onFresh = await collectStream(fresh, later, { maxTokens: 24 });
      expect(afterAnother.error).toBeNull();
      // Greedy decoding: the same prompt on the same rules gives the same text, whatever came before.
      expect(afterAnother.text).toBe(onFresh.text);
      expect(afterAnother.text.toUpperCase()).not.toContain("PELICAN");
    } finally {
      await reused.close();
      await fresh.close();
    }
  });

  it("logs the backend, model, context size, parallel sequences and threads when ready", async () => {
    const lines: Array<{ fields: LogFields; message: string }> = [];
    const recorder: Logger = {
      ...silentLogger,
      info: (fields, message) => lines.push({ fields, message }),
      child: () => recorder,
    };
    const model = await openContext({ parallel: 2, queueLimit: 3, logger: recorder });
    await model.close();
    expect(lines).toEqual([
      {
        message: "language model ready",
        fields: {
          gpu: "cpu",
          model: "SmolLM2-135M-Instruct.Q4_1.gguf",
          contextTokens: 1024,
          parallel: 2,
          queueLimit: 3,
          threads: 1,
        },
      },
    ]);
  });
});
