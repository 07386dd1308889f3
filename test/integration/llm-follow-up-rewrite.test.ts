/**
 * Thread follow-ups rewritten by the real SmolLM2-135M (CPU, one thread) inside answerQuestion:
 * whatever the tiny model replies, the question is answered, and what retrieval searched is either
 * the model's rewrite — which then passes validation — or the rule-based rewrite with a logged reason.
 * Which of the two happened is printed per follow-up, so a change of prompt or model shows up here.
 */
import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { Answer, ConversationTurn } from "../../src/answer/answer-events.js";
import { createAnswerService } from "../../src/answer/answer-question.js";
import { createExtractiveGenerator } from "../../src/answer/generate/extractive-generator.js";
import { loadAnswerPrompts } from "../../src/answer/generate/prompt-templates.js";
import {
  createLlmFollowUpRewriter,
  renderRecentTurns,
  validateStandaloneQuestion,
} from "../../src/answer/question/llm-follow-up-rewrite.js";
import {
  type FollowUpRewrite,
  type FollowUpRewriter,
  rewriteQuestion,
} from "../../src/answer/question/rewrite-question.js";
import type { PageText } from "../../src/domain/types.js";
import type { LanguageModel } from "../../src/llm/language-model.js";
import type { LoadedLlamaModel } from "../../src/llm/llama-cpp-model.js";
import { type LogFields, type Logger, silentLogger } from "../../src/logger.js";
import { importLlamaCppModel, llamaCppMissing } from "../support/llama-cpp-runtime.js";
import { pageChunk } from "../support/page-chunk.js";
import { sharedModel } from "../support/shared-paths.js";

const modelPath = sharedModel("SmolLM2-135M-Instruct.Q4_1.gguf");
const skipReason = llamaCppMissing ?? (existsSync(modelPath) ? null : `no ${modelPath} (shared models absent)`);
const { createLlamaCppModel, loadLlamaModelFile } = await importLlamaCppModel();
if (skipReason) console.warn(`llm-follow-up-rewrite: skipped — ${skipReason}`);

const PAGES: PageText[] = [
  {
    pageNumber: 1,
    text: "New employees get 15 vacation days a year. Unused vacation days roll over to the next year, up to five days.",
  },
  { pageNumber: 2, text: "Contractors do not get paid vacation days. Their contracts set their leave." },
];
const VACATION = pageChunk("vacation", "Vacation policy", PAGES);

const HISTORY: ConversationTurn[] = [
  { role: "user", text: "How many vacation days do new employees get?" },
  { role: "assistant", text: "New employees get 15 vacation days a year [1]." },
];

/** A pronoun follow-up, a short one, and one that already stands alone. */
const FOLLOW_UPS = [
  "Does it roll over to the next year?",
  "And contractors?",
  "Do unused vacation days roll over to the next year?",
];

describe.skipIf(skipReason !== null)("follow-ups rewritten by SmolLM2", () => {
  let loaded: LoadedLlamaModel | null = null;
  let model: LanguageModel | null = null;
  afterAll(async () => {
    await model?.close();
    await loaded?.dispose();
  });

  async function openModel(): Promise<LanguageModel> {
    loaded ??= await loadLlamaModelFile({ modelPath, gpu: "cpu", threads: 1, logger: silentLogger });
    model ??= await createLlamaCppModel({ loaded, parallel: 1, threads: 1, contextTokens: 2048, logger: silentLogger });
    return model;
  }

  it.each(FOLLOW_UPS)(
    "answers %j, searching the validated rewrite or the rule-based one",
    async (question) => {
      const ready = await openModel();
      const prompt = (await loadAnswerPrompts()).rewriteFollowUp;
      // A generous timeout on a shared CPU: the model's reply itself is what this test checks.
      // The model's raw reply is logged at debug level when it is not used: kept to print it below.
      const replies: LogFields[] = [];
      const logger: Logger = {
        ...silentLogger,
        debug: (fields, message) => {
          if (message === "the model's follow-up rewrite") replies.push(fields);
        },
        child: () => logger,
      };
      const rewriter = createLlmFollowUpRewriter({ model: ready, prompt, logger: silentLogger, timeoutMs: 120_000 });
      const rewrites: FollowUpRewrite[] = [];
      const recording: FollowUpRewriter = {
        async rewrite(request) {
          const rewrite = await rewriter.rewrite(request);
          rewrites.push(rewrite);
          return rewrite;
        },
      };
      const searched: string[] = [];
      const answers = createAnswerService({
        retriever: {
          search: async (request) => {
            searched.push(request.query);
            return [VACATION];
          },
        },
        generator: createExtractiveGenerator(),
        followUpRewriter: recording,
        linkForCitation: ({ documentId, page }) => `https://folio.test/files/${documentId}#page=${page}`,
        pageTexts: async () => PAGES,
        logger,
      });
      let answer: Answer | null = null;
      for await (const event of answers.answerQuestion(question, {
        spaceIds: ["console:test"],
        history: HISTORY,
        requestId: "r",
      })) {
        if (event.type === "error") throw new Error(`${event.code}: ${event.message}`);
        if (event.type === "done") answer = event.answer;
      }

      expect(answer?.answer.trim().length).toBeGreaterThan(0);
      expect(answer?.citations.length).toBeGreaterThan(0);
      expect(rewrites).toHaveLength(1);
      const [rewrite] = rewrites as [FollowUpRewrite];
      // The question's search is the rewrite; any after it are the direct answer's own lookups (a line item by keyword).
      expect(searched[0]).toBe(rewrite.query);
      const rulesQuery = rewriteQuestion(question, HISTORY);
      if (rewrite.method === "llm") {
        const shownHistory = await renderRecentTurns({
          question,
          history: HISTORY,
          maxTurns: 4,
          historyTokens: 400,
          countTokens: (text) => ready.countTokens(text),
        });
        expect(
          validateStandaloneQuestion({
            reply: rewrite.query,
            finishReason: "stop",
            question,
            shownHistory,
            rulesAddContext: rulesQuery !== question,
          }),
        ).toEqual({ valid: true, question: rewrite.query });
        expect(rewrite.fallbackReason).toBeUndefined();
      } else {
        expect(rewrite.query).toBe(rulesQuery);
        expect(rewrite.fallbackReason).toMatch(/^[a-z_]+$/);
      }
      console.info(
        `llm-follow-up-rewrite: ${JSON.stringify(question)} → ${rewrite.method}` +
          `${rewrite.fallbackReason ? ` (${rewrite.fallbackReason}; the model said ${JSON.stringify(replies[0]?.reply ?? null)})` : ""}` +
          `: searched ${JSON.stringify(rewrite.query)}`,
      );
    },
    180_000,
  );

  it("gives up at once, without waiting in line, while the model's one sequence writes another answer", async () => {
    const ready = await openModel();
    const prompt = (await loadAnswerPrompts()).rewriteFollowUp;
    const rewriter = createLlmFollowUpRewriter({ model: ready, prompt, logger: silentLogger, timeoutMs: 120_000 });
    const other = ready
      .stream([{ role: "user", content: "Count from one to fifty in words." }], { maxTokens: 200 })
      [Symbol.asyncIterator]();
    try {
      await other.next();
      // The rules answer at once while the model is busy: "llm_queued" says it was not waited for.
      const rewrite = await rewriter.rewrite({ question: FOLLOW_UPS[0] as string, history: HISTORY });
      expect(rewrite).toEqual({
        query: rewriteQuestion(FOLLOW_UPS[0] as string, HISTORY),
        method: "rules",
        fallbackReason: "llm_queued",
      });
    } finally {
      await other.return?.();
    }
  }, 180_000);
});
