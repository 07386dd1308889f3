/**
 * The answer generator backed by a language model: the system rules and the numbered sources (fitted
 * to the model's context, see fit-sources.ts) go in, the model's text streams out with its [n]
 * markers. Greedy decoding, so the same sources give the same answer. What the model writes is a
 * draft: answer-question verifies it against the sources before it becomes the final answer.
 */
import type { LanguageModel } from "../../llm/language-model.js";
import type { Logger } from "../../logger.js";
import { fitSources } from "./fit-sources.js";
import type { AnswerGenerator, GenerationHooks, NumberedSource } from "./generator.js";
import { type AnswerPrompts, describePromptVersions } from "./prompt-templates.js";

/** Room kept for the answer: four cited sentences take about 150 tokens; a small model that rambles stops here. */
export const DEFAULT_ANSWER_TOKENS = 256;
/** Room for the chat template's own tokens around the messages, which countTokens does not see. */
const TEMPLATE_MARGIN_TOKENS = 64;

export function createLlmGenerator(options: {
  model: LanguageModel;
  prompts: AnswerPrompts;
  logger: Logger;
  maxAnswerTokens?: number;
  /** Per-request generation time; the model's default when absent. */
  timeoutMs?: number;
}): AnswerGenerator {
  const { model, prompts } = options;
  const maxTokens = options.maxAnswerTokens ?? DEFAULT_ANSWER_TOKENS;
  const promptVersions = describePromptVersions(prompts);
  return {
    async *generate(question: string, sources: NumberedSource[], signal?: AbortSignal, hooks?: GenerationHooks) {
      const fitted = await fitSources({
        question,
        sources,
        prompts,
        countTokens: (text) => model.countTokens(text),
        budgetTokens: model.contextTokens - maxTokens - TEMPLATE_MARGIN_TOKENS,
      });
      options.logger.info(
        {
          model: model.name,
          prompts: promptVersions,
          promptTokens: fitted.promptTokens,
          sources: fitted.included.length,
          trimmedSources: fitted.trimmed.length,
        },
        "prompting the language model",
      );
      yield* model.stream(fitted.messages, {
        signal,
        maxTokens,
        temperature: 0,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        onQueued: hooks?.onQueued,
      });
    },
  };
}
