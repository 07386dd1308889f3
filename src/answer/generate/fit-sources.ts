/**
 * Builds the LLM's messages: the system rules, then the numbered sources, the facts the code already
 * worked out (checked, with their [n]), and the question. On a CPU the prompt's length is most of an
 * answer's wait (prefill runs at tens of tokens a second on two cores), so the sources share a fixed
 * budget of tokens rather than filling the context:
 *
 * - sources go in best first, at most MAX_SOURCES of them;
 * - the first may take up to 40% of the budget, each later one up to 20%;
 * - a source that fits its share goes in whole; a longer one is cut to a window around its best
 *   passages — its best sentence (or table row) by the question's words, then that passage's
 *   neighbours, then its next best passages, while they fit — kept in text order, " … " marking a gap;
 * - a source whose best passage alone does not fit its share is left out, and the sources stop when
 *   less than MIN_SOURCE_TOKENS of the budget remains.
 *
 * With the default CPU budget (640 tokens) that is the top source's best 256 tokens and three more
 * sources' best 128 each. Numbers stay the sources' own n, so the answer's [n] point where the
 * citations expect; the passages each source showed are returned, since only they can support what the
 * model writes (sentence-verifier.ts).
 */
import type { ChatMessage } from "../../llm/language-model.js";
import { rankPassages, uniqueTerms } from "../evidence/sentence-scoring.js";
import type { NumberedSource } from "./generator.js";
import { type AnswerPrompts, fillTemplate } from "./prompt-templates.js";
import type { ShownPassage } from "./sentence-verifier.js";

export type CountTokens = (text: string) => Promise<number> | number;

export type FittedPrompt = {
  messages: ChatMessage[];
  /** Source numbers in the prompt, in order; `trimmed` holds those cut to some of their passages. */
  included: number[];
  trimmed: number[];
  /** The passages a trimmed source showed, by n (a source shown whole is not listed). */
  shown: Map<number, ShownPassage[]>;
  promptTokens: number;
};

/** Sources shown at most: past the fourth or fifth, retrieval's ranking rarely holds the answer. */
export const MAX_SOURCES = 5;
/** Share of the source budget the first source may take, and each later one. */
const FIRST_SHARE = 0.4;
const LATER_SHARE = 0.2;
/** Below this many tokens no source is worth starting. */
const MIN_SOURCE_TOKENS = 32;

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

type Candidate = ShownPassage & { score: number };

/**
 * A source's passages in text order, each with its score for the question: sentences of prose, whole
 * rows of a table (each quoted with its column names, so a row stands alone).
 */
function passagesFor(source: NumberedSource, questionTerms: Set<string>): Candidate[] {
  const scored = rankPassages(source.result, questionTerms);
  // Scored against every term of its own table, a row is quoted with all its cells, not a few.
  const whole =
    source.result.kind === "table"
      ? new Map(rankPassages(source.result, uniqueTerms(source.result.text)).map((row) => [row.start, row.text]))
      : null;
  return scored
    .filter((passage) => passage.text.trim() !== "")
    .map((passage) => ({ ...passage, text: whole?.get(passage.start) ?? passage.text }))
    .sort((left, right) => left.start - right.start);
}

/** The order passages are tried in: the best, its neighbours, then the rest by score. */
function tryOrder(passages: readonly Candidate[]): Candidate[] {
  if (passages.length === 0) return [];
  const bestIndex = passages.reduce(
    (best, passage, index) => (passage.score > (passages[best]?.score ?? 0) ? index : best),
    0,
  );
  const order = [bestIndex, bestIndex + 1, bestIndex - 1].filter((index) => index >= 0 && index < passages.length);
  const rest = passages
    .map((_, index) => index)
    .filter((index) => !order.includes(index) && (passages[index]?.score ?? 0) > 0)
    .sort((left, right) => (passages[right]?.score ?? 0) - (passages[left]?.score ?? 0) || left - right);
  return [...order, ...rest].map((index) => passages[index] as Candidate);
}

/** Chosen passages as one text: adjacent ones joined plainly, a gap marked. */
function windowText(chosen: readonly Candidate[], all: readonly Candidate[], separator: string): string {
  const sorted = [...chosen].sort((left, right) => left.start - right.start);
  return sorted
    .map((passage, index) => {
      if (index === 0) return passage.text;
      const previous = all.indexOf(sorted[index - 1] as Candidate);
      return `${all.indexOf(passage) === previous + 1 ? separator : GAP}${passage.text}`;
    })
    .join("");
}

/** The source cut to its best passages within `room` tokens; null when not even the best fits. */
async function windowOf(
  prompts: AnswerPrompts,
  source: NumberedSource,
  questionTerms: Set<string>,
  room: number,
  countTokens: CountTokens,
): Promise<{ block: string; tokens: number; shown: ShownPassage[] } | null> {
  const passages = passagesFor(source, questionTerms);
  const separator = source.result.kind === "table" ? "\n" : " ";
  const chosen: Candidate[] = [];
  let best: { block: string; tokens: number; shown: ShownPassage[] } | null = null;
  for (const passage of tryOrder(passages)) {
    const candidate = [...chosen, passage];
    const block = sourceBlock(prompts, source, windowText(candidate, passages, separator));
    const tokens = await countTokens(block + SOURCE_SEPARATOR);
    if (tokens > room) {
      if (chosen.length === 0) return null;
      continue;
    }
    chosen.push(passage);
    best = {
      block,
      tokens,
      shown: [...chosen]
        .sort((left, right) => left.start - right.start)
        .map(({ text, start, end }) => ({ text, start, end })),
    };
  }
  return best;
}

export async function fitSources(options: {
  question: string;
  sources: readonly NumberedSource[];
  prompts: AnswerPrompts;
  /** Statements the code worked out from the sources (a table cell, a calculation), each with its [n]. */
  facts?: readonly string[];
  countTokens: CountTokens;
  /** Tokens the prompt may take: the model's context less the answer's budget and a margin. */
  budgetTokens: number;
  /** Tokens the sources may take together (see the file's opening comment); the context caps it. */
  sourceTokens: number;
}): Promise<FittedPrompt> {
  const { prompts, question, countTokens } = options;
  const system = fillTemplate(prompts.system, {});
  const facts = options.facts ?? [];
  const factsBlock =
    facts.length === 0
      ? ""
      : `${fillTemplate(prompts.facts, { facts: facts.map((fact) => `- ${fact}`).join("\n") })}\n\n`;
  const frame = (sources: string) => fillTemplate(prompts.question, { sources, facts: factsBlock, question });
  const frameTokens = (await countTokens(system)) + (await countTokens(frame("")));
  const budget = Math.min(options.sourceTokens, options.budgetTokens - frameTokens);
  const questionTerms = uniqueTerms(question);
  const blocks: string[] = [];
  const included: number[] = [];
  const trimmed: number[] = [];
  const shown = new Map<number, ShownPassage[]>();
  let used = 0;
  for (const source of options.sources) {
    if (included.length >= MAX_SOURCES || budget - used < MIN_SOURCE_TOKENS) break;
    const share = Math.min(budget - used, Math.floor(budget * (included.length === 0 ? FIRST_SHARE : LATER_SHARE)));
    const whole = sourceBlock(prompts, source, source.result.text);
    const wholeTokens = await countTokens(whole + SOURCE_SEPARATOR);
    let fitted: { block: string; tokens: number } | null =
      wholeTokens <= share ? { block: whole, tokens: wholeTokens } : null;
    if (fitted === null) {
      const window = await windowOf(prompts, source, questionTerms, share, countTokens);
      if (window === null) continue;
      fitted = window;
      trimmed.push(source.n);
      shown.set(source.n, window.shown);
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
    shown,
    promptTokens: frameTokens + used,
  };
}
