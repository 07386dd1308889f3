/**
 * The language-model contract: one suite every LanguageModel implementation must pass (node-llama-cpp
 * in-process, OpenAI-compatible HTTP). Both are driven by the real SmolLM2 GGUF with greedy decoding,
 * so outputs are compared with the model's own tokenizer and with each other's runs, not with fakes.
 * The model under test must have one sequence (or one server slot) free between tests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FolioError } from "../../src/errors.js";
import type { ChatMessage, FinishReason, LanguageModel, StreamOptions } from "../../src/llm/language-model.js";

export type LanguageModelFactory = () => Promise<{
  model: LanguageModel;
  /** The model's own token count for a text (node-llama-cpp's tokenizer). */
  countReferenceTokens(text: string): number;
  close(): Promise<void>;
}>;

export const COUNTING_PROMPT: ChatMessage[] = [
  { role: "system", content: "You are a helpful assistant." },
  { role: "user", content: "Count from 1 to 20, separated by commas." },
];

export type StreamRecord = {
  chunks: string[];
  text: string;
  finishReason: FinishReason | null;
  error: FolioError | null;
  elapsedMs: number;
};

/** Reads a whole stream, keeping the text that arrived before any error. */
export async function collectStream(
  model: LanguageModel,
  messages: ChatMessage[],
  options: StreamOptions = {},
  onChunk?: (chunk: string, index: number) => void,
): Promise<StreamRecord> {
  const started = performance.now();
  const chunks: string[] = [];
  let finishReason: FinishReason | null = null;
  let error: FolioError | null = null;
  try {
    for await (const chunk of model.stream(messages, {
      ...options,
      onFinish: (result) => {
        finishReason = result.finishReason;
      },
    })) {
      chunks.push(chunk);
      onChunk?.(chunk, chunks.length - 1);
    }
  } catch (caught) {
    if (!(caught instanceof FolioError)) throw caught;
    error = caught;
  }
  return { chunks, text: chunks.join(""), finishReason, error, elapsedMs: performance.now() - started };
}

export function runLanguageModelContract(
  name: string,
  openModel: LanguageModelFactory,
  skipReason: string | null,
): void {
  describe.skipIf(skipReason !== null)(
    `language-model contract: ${name}${skipReason ? ` (${skipReason})` : ""}`,
    () => {
      let opened: Awaited<ReturnType<LanguageModelFactory>>;
      let model: LanguageModel;
      beforeAll(async () => {
        opened = await openModel();
        model = opened.model;
      });
      afterAll(() => opened?.close());

      it("streams the answer in several chunks and reports why it ended", async () => {
        const result = await collectStream(model, COUNTING_PROMPT, { maxTokens: 12 });
        expect(result.error).toBeNull();
        expect(result.chunks.length).toBeGreaterThanOrEqual(3);
        expect(result.chunks.every((chunk) => chunk.length > 0)).toBe(true);
        expect(result.text.trim().length).toBeGreaterThan(0);
        expect(result.text).toMatch(/1/);
        expect(result.finishReason).toBe("length");
      });

      it("stops at maxTokens: the answer is exactly that many of the model's tokens", async () => {
        const result = await collectStream(model, COUNTING_PROMPT, { maxTokens: 8 });
        expect(result.error).toBeNull();
        expect(result.finishReason).toBe("length");
        expect(opened.countReferenceTokens(result.text)).toBe(8);
      });

      it("ends before a stop string, without streaming it, where the unstopped answer went on", async () => {
        const full = await collectStream(model, COUNTING_PROMPT, { maxTokens: 16 });
        const cut = full.text.indexOf("3");
        expect(cut).toBeGreaterThan(0);
        const stopped = await collectStream(model, COUNTING_PROMPT, { maxTokens: 16, stop: ["3"] });
        expect(stopped.error).toBeNull();
        expect(stopped.finishReason).toBe("stop");
        expect(stopped.text).toBe(full.text.slice(0, cut));
      });

      it("counts tokens with the model's tokenizer", async () => {
        const text = "Folio answers questions from a team's documents, with page citations.";
        expect(await model.countTokens(text)).toBe(opened.countReferenceTokens(text));
        expect(model.contextTokens).toBeGreaterThanOrEqual(1024);
      });

      it("ends an aborted answer with llm_aborted after the text so far, and serves the next question", async () => {
        const controller = new AbortController();
        const aborted = await collectStream(
          model,
          COUNTING_PROMPT,
          { maxTokens: 24, signal: controller.signal },
          (_chunk, index) => {
            if (index === 1) controller.abort();
          },
        );
        expect(aborted.error?.code).toBe("llm_aborted");
        expect(aborted.chunks.length).toBeGreaterThanOrEqual(2);
        expect(aborted.chunks.length).toBeLessThan(24);
        const next = await collectStream(model, COUNTING_PROMPT, { maxTokens: 6 });
        expect(next.error).toBeNull();
        expect(next.finishReason).toBe("length");
      });

      it("refuses a question whose signal is already aborted, streaming nothing", async () => {
        const result = await collectStream(model, COUNTING_PROMPT, { maxTokens: 6, signal: AbortSignal.abort() });
        expect(result.error?.code).toBe("llm_aborted");
        expect(result.chunks).toEqual([]);
      });

      it("ends a slow answer with llm_timeout soon after the deadline, and serves the next question", async () => {
        const result = await collectStream(model, COUNTING_PROMPT, { maxTokens: 24, timeoutMs: 150 });
        expect(result.error?.code).toBe("llm_timeout");
        expect(result.error?.retryable).toBe(true);
        expect(result.elapsedMs).toBeGreaterThanOrEqual(140);
        expect(result.elapsedMs).toBeLessThan(3000);
        const next = await collectStream(model, COUNTING_PROMPT, { maxTokens: 6 });
        expect(next.error).toBeNull();
      });

      it("frees the model when the reader stops early", async () => {
        let seen = 0;
        for await (const _chunk of model.stream(COUNTING_PROMPT, { maxTokens: 24 })) {
          seen += 1;
          if (seen === 2) break;
        }
        expect(seen).toBe(2);
        const next = await collectStream(model, COUNTING_PROMPT, { maxTokens: 6, timeoutMs: 20_000 });
        expect(next.error).toBeNull();
        expect(next.finishReason).toBe("length");
      });
    },
  );
}
