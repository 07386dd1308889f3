/**
 * Builds the LLM's messages: the system rules, then the numbered sources and the question, with the
 * sources fitted to the model's context by token count, best first. A source that no longer fits
 * whole is cut to its sentences nearest the question (by the question's words, kept in text order);
 * when not even one of them fits, it and every later source are left out. Numbers stay the sources'
 * own n, so the answer's [n] point where the citations expect.
 */
import type { ChatMessage } from "../../llm/language-model.js";
import { rankPassages, uniqueTerms } from "../evidence/sentence-scoring.js";
import type { NumberedSource } from "./generator.js";
import { type AnswerPrompts, fillTemplate } from "./prompt-templates.js";

export type CountTokens = (text: string) => Promise<number> | number;

export type FittedPrompt = {
  messages: ChatMessage[];
  /** Source numbers in the prompt, in order; `trimmed` holds those cut to some of their sentences. */
  included: number[];
  trimmed: number[];
  promptTokens: number;
};

const SOURCE_SEPARATOR = "\n\n";
const GAP = " … ";

function describePages(source: NumberedSource): string {
  const { pageStart, pageEnd } = source.result;
  if (pageStart === null) return "no page numbers";
  return pageEnd === null || pageEnd === pageStart ? `page ${pageStart}` : `pages ${pageStart}–${pageEnd}`;
}

function sourceBlock(prompts: AnswerPrompts, source: NumberedSource, text: string): string {
  return fillTemplate(prompts.source, {
    n: String(source.n),
    title: source.result.title,
    pages: describePages(source),
    text: text.replace(/[ \t]+/g, " ").trim(),
  });
}

/** The source cut to the sentences nearest the question that fit in `room` tokens; null if none does. */
async function trimSource(
  prompts: AnswerPrompts,
  source: NumberedSource,
  question: string,
  room: number,
  countTokens: CountTokens,
): Promise<{ block: string; tokens: number } | null> {
  const ranked = rankPassages(source.result, uniqueTerms(question)).filter((passage) => passage.text.trim() !== "");
  const chosen: typeof ranked = [];
  let best: { block: string; tokens: number } | null = null;
  for (const passage of ranked) {
    const candidate = [...chosen, passage].sort((left, right) => left.start - right.start);
    const block = sourceBlock(prompts, source, candidate.map((sentence) => sentence.text).join(GAP));
    const tokens = await countTokens(block + SOURCE_SEPARATOR);
    if (tokens > room) continue;
    chosen.push(passage);
    best = { block, tokens };
  }
  return best;
}

export async function fitSources(options: {
  question: string;
  sources: readonly NumberedSource[];
  prompts: AnswerPrompts;
  countTokens: CountTokens;
  /** Tokens the prompt may take: the model's context less the answer's budget and a margin. */
  budgetTokens: number;
}): Promise<FittedPrompt> {
  const { prompts, question, countTokens } = options;
  const system = fillTemplate(prompts.system, {});
  const frame = (sources: string) => fillTemplate(prompts.question, { sources, question });
  let used = (await countTokens(system)) + (await countTokens(frame("")));
  const blocks: string[] = [];
  const included: number[] = [];
  const trimmed: number[] = [];
  for (const source of options.sources) {
    const room = options.budgetTokens - used;
    const whole = sourceBlock(prompts, source, source.result.text);
    const wholeTokens = await countTokens(whole + SOURCE_SEPARATOR);
    let fitted: { block: string; tokens: number } | null =
      wholeTokens <= room ? { block: whole, tokens: wholeTokens } : null;
    if (fitted === null) {
      fitted = await trimSource(prompts, source, question, room, countTokens);
      if (fitted === null) break;
      trimmed.push(source.n);
    }
    blocks.push(fitted.block);
    included.push(source.n);
    used += fitted.tokens;
  }
  return {
    messages: [
      { role: "system", content: system },
      { role: "user", content: frame(blocks.join(SOURCE_SEPARATOR)) },
    ],
    included,
    trimmed,
    promptTokens: used,
  };
}
