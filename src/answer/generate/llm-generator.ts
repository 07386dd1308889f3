/**
 * The language model as the writer: the system rules, the numbered sources (trimmed to a budget of
 * tokens, see fit-sources.ts) and the facts the code worked out go in; the model's text streams out
 * with its [n] markers, after one piece that says what the prompt held (its tokens, and the passages
 * each trimmed source showed — the only evidence the model had). Greedy decoding, so the same sources
 * give the same answer. What the model writes is a draft: write-verified-answer.ts checks each
 * sentence before it is shown.
 */
import type { LanguageModel } from "../../llm/language-model.js";
import type { Logger } from "../../logger.js";
import { type FittedPrompt, fitSources } from "./fit-sources.js";
import type { AnswerGenerator, NumberedSource } from "./generator.js";
import { type AnswerPrompts, describePromptVersions } from "./prompt-templates.js";

/** Room kept for the answer: four cited sentences take about 150 tokens; a small model that rambles stops here. */
export const DEFAULT_ANSWER_TOKENS = 256;
/** Room for the chat template's own tokens around the messages, which countTokens does not see. */
const TEMPLATE_MARGIN_TOKENS = 64;
/**
 * Tokens the sources may take, read on a CPU (two cores read a 1.5B model's prompt at 15–60 tokens a
 * second, so 640 tokens of sources are 10–40 s before the first word) and on a GPU or a server.
 */
export const CPU_SOURCE_TOKENS = 640;
export const GPU_SOURCE_TOKENS = 3000;

export type DraftRequest = {
  question: string;
  sources: NumberedSource[];
  /** Statements already checked, each with its [n] (a table cell, a calculation with its inputs, a list). */
  facts: readonly string[];
  signal?: AbortSignal;
  /** The model is busy and the request waits in line at this 1-based position. */
  onQueued?: (position: number) => void;
};

export type DraftPiece =
  | { kind: "prompt"; prompt: Pick<FittedPrompt, "included" | "trimmed" | "shown" | "promptTokens"> }
  | { kind: "text"; text: string };

/** Writes a draft answer: one `prompt` piece, then the text as it is generated. */
export interface DraftWriter {
  draft(request: DraftRequest): AsyncIterable<DraftPiece>;
}

export function createLlmGenerator(options: {
  model: LanguageModel;
  prompts: AnswerPrompts;
  logger: Logger;
  maxAnswerTokens?: number;
  /** Tokens the sources may take; by default CPU_SOURCE_TOKENS on a CPU, GPU_SOURCE_TOKENS otherwise. */
  sourceTokens?: number;
  /** Per-request generation time; the model's default when absent. */
  timeoutMs?: number;
}): DraftWriter {
  const { model, prompts } = options;
  const maxTokens = options.maxAnswerTokens ?? DEFAULT_ANSWER_TOKENS;
  const sourceTokens = options.sourceTokens ?? (model.capabilities.cpuPrefill ? CPU_SOURCE_TOKENS : GPU_SOURCE_TOKENS);
  const promptVersions = describePromptVersions(prompts);
  return {
    async *draft(request: DraftRequest) {
      const fitted = await fitSources({
        question: request.question,
        sources: request.sources,
        prompts,
        facts: request.facts,
        countTokens: (text) => model.countTokens(text),
        budgetTokens: model.contextTokens - maxTokens - TEMPLATE_MARGIN_TOKENS,
        sourceTokens,
      });
      options.logger.info(
        {
          model: model.name,
          prompts: promptVersions,
          promptTokens: fitted.promptTokens,
          sources: fitted.included.length,
          trimmedSources: fitted.trimmed.length,
          facts: request.facts.length,
        },
        "prompting the language model",
      );
      const { messages: _messages, ...prompt } = fitted;
      yield { kind: "prompt", prompt };
      for await (const text of model.stream(fitted.messages, {
        signal: request.signal,
        maxTokens,
        temperature: 0,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        onQueued: request.onQueued,
      }))
        yield { kind: "text", text };
    },
  };
}

/**
 * A writer from a plain generator (a scripted model in tests, a stand-in): no prompt is built, so every
 * source is evidence whole.
 */
export function draftsFrom(generator: AnswerGenerator): DraftWriter {
  return {
    async *draft(request: DraftRequest) {
      yield {
        kind: "prompt",
        prompt: { included: request.sources.map((source) => source.n), trimmed: [], shown: new Map(), promptTokens: 0 },
      };
      for await (const text of generator.generate(request.question, request.sources, request.signal, {
        onQueued: request.onQueued,
      }))
        yield { kind: "text", text };
    },
  };
}
