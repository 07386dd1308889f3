/**
 * Scores candidate answer windows (answer-windows.ts) for a question on what they say, not only on the
 * words they share with it: the question's specific words in the window (its heading and list line
 * counted at a discount), whether the window holds the kind of answer asked (a length of time for "how
 * long", steps for "how do I" …: answer-expressions.ts), whether its condition holds for the asker's case,
 * the source's retrieval rank, and — with an embedder — the window's meaning against the question's.
 * Features are kept apart so the reader's weights can be calibrated and reported (window-reader.ts).
 */

import { inverseDocumentFrequency } from "../../retrieval/bm25.js";
import { analyzeText } from "../../retrieval/text-analyzer.js";
import type { AskedAnswer } from "../question/asked-answer.js";
import { conditionFit, expressionFit, type StatedQuantity } from "./answer-expressions.js";
import type { AnswerWindow } from "./answer-windows.js";
import { uniqueTerms } from "./sentence-scoring.js";

export type WindowFeatures = {
  /** Weighted share of the question's content terms the window holds (its context at a discount), 0–1. */
  words: number;
  /** Weighted share held by the quoted text alone, 0–1. */
  ownWords: number;
  /** The window holds the kind of answer asked, 0–1. */
  fit: number;
  /** +1 its condition holds for the asker's quantities, -1 it excludes them, 0 no condition. */
  condition: number;
  /** 1 for the first source, falling with rank. */
  rank: number;
  /** Cosine of the window (with its context) and the question, when an embedder scored it; else null. */
  meaning: number | null;
  /** The window only restates a question, is too short to state anything, or breaks off mid-sentence. */
  hollow: boolean;
  /** How far past LONG_WINDOW_WORDS the window runs, 0–1: a long window holds many words by its length alone. */
  length: number;
  /** Share of the question's content terms no passage of the searched spaces holds (the same for every window). */
  unknown: number;
  /** 1 when the window (or its context) holds the question's most specific term the spaces know, else 0. */
  focus: number;
  /**
   * Share of the question's neighbouring content-word pairs the window holds as neighbours too (at most
   * one word apart): "chief executive officer" in "Chief Executive Officer", not in "Executive Vice
   * President and Chief Financial Officer".
   */
  phrases: number;
};

/** A window's context words count this much of a word in its own text: a heading says what it is about. */
const CONTEXT_DISCOUNT = 0.6;
const MIN_WORDS = 4;
/** A window that ends on a word no sentence ends on was cut off (at the end of its passage): it states nothing whole. */
const BREAKS_OFF = /\b(?:the|a|an|of|to|and|or|for|in|on|at|by|with|from|as|that|this|its|their|our|your)\s*$/i;
/** Windows up to this many words are not long; past it, `length` rises to 1 at three times as many. */
const LONG_WINDOW_WORDS = 30;

export type QuestionTerms = {
  /** The question's content terms the searched spaces hold: those a window can be told apart by. */
  terms: ReadonlySet<string>;
  weights: ReadonlyMap<string, number>;
  /** Share of the question's content terms no passage of the searched spaces holds. */
  unknown: number;
  /** The known term with the highest weight: what the question is most specifically about; null for none. */
  focus: string | null;
  /** The question's neighbouring pairs of known content terms, in its order. */
  pairs: ReadonlyArray<readonly [string, string]>;
};

/** How many of the searched spaces' passages hold each term, and how many passages there are. */
export type TermFrequencies = { passages: number; frequencies: ReadonlyMap<string, number> };

/**
 * Question terms weighted by how specific they are: by BM25's inverse document frequency in the searched
 * spaces when their statistics are at hand ("bereavement" in one passage weighs more than "leave" in
 * hundreds), else among the windows' sources: ln(1 + sources / sources holding it). A term no passage
 * holds cannot tell windows apart; it counts in `unknown` instead.
 */
export function weighQuestionTerms(
  terms: ReadonlySet<string>,
  windows: readonly AnswerWindow[],
  corpus?: TermFrequencies,
  /** The question's analyzed words in order, for its pairs; absent: no pairs. */
  sequence: readonly string[] = [],
): QuestionTerms {
  const sources = new Map<number, Set<string>>();
  for (const window of windows) {
    const held = sources.get(window.source.n) ?? new Set<string>();
    for (const term of uniqueTerms(`${window.context} ${window.text}`)) held.add(term);
    sources.set(window.source.n, held);
  }
  const known = new Set<string>();
  const weights = new Map<string, number>();
  for (const term of terms) {
    const frequency = corpus?.frequencies.get(term);
    if (corpus !== undefined && (frequency ?? 0) === 0) continue;
    known.add(term);
    if (corpus !== undefined && frequency !== undefined) {
      weights.set(term, inverseDocumentFrequency(corpus.passages, frequency));
      continue;
    }
    const holding = [...sources.values()].filter((held) => held.has(term)).length;
    if (holding === 0) {
      known.delete(term);
      continue;
    }
    weights.set(term, Math.log(1 + sources.size / holding));
  }
  const focus = [...weights].sort((left, right) => right[1] - left[1])[0]?.[0] ?? null;
  const ordered = sequence.filter((term) => known.has(term));
  const pairs = ordered.slice(1).map((term, index) => [ordered[index] as string, term] as const);
  return { terms: known, weights, unknown: terms.size === 0 ? 0 : 1 - known.size / terms.size, focus, pairs };
}

function wordShare(question: QuestionTerms, own: ReadonlySet<string>, context: ReadonlySet<string>): number {
  let total = 0;
  let held = 0;
  for (const term of question.terms) {
    const weight = question.weights.get(term) ?? 1;
    total += weight;
    if (own.has(term)) held += weight;
    else if (context.has(term)) held += weight * CONTEXT_DISCOUNT;
  }
  return total === 0 ? 0 : held / total;
}

/** The features of one window; `meaning` is filled in later for the windows an embedder scores. */
export function windowFeatures(
  window: AnswerWindow,
  question: QuestionTerms,
  asked: AskedAnswer,
  askedQuantities: readonly StatedQuantity[],
): WindowFeatures {
  const own = uniqueTerms(window.text);
  // The document's title is context too: every passage of "Foot Locker, Inc. — Form 8-K" is about Foot Locker.
  const context = uniqueTerms(`${window.context} ${window.source.result.title}`);
  const words = window.text.split(/\s+/).filter((word) => word !== "").length;
  const isList = window.kind === "list" || window.kind === "item";
  return {
    words: wordShare(question, own, context),
    ownWords: wordShare(question, own, new Set()),
    fit: expressionFit(window.text, asked, isList),
    condition: conditionFit(askedQuantities, `${window.context} ${window.text}`),
    rank: 1 / window.source.n,
    meaning: null,
    hollow: words < MIN_WORDS || /\?\s*$/.test(window.text) || BREAKS_OFF.test(window.text),
    length: Math.min(1, Math.max(0, (words - LONG_WINDOW_WORDS) / (2 * LONG_WINDOW_WORDS))),
    unknown: question.unknown,
    focus: question.focus === null || own.has(question.focus) || context.has(question.focus) ? 1 : 0,
    phrases: pairShare(question.pairs, analyzeText(window.text)),
  };
}

/** Share of the pairs whose second term follows its first in `tokens` within one word. */
function pairShare(pairs: QuestionTerms["pairs"], tokens: readonly string[]): number {
  if (pairs.length === 0) return 0;
  const held = pairs.filter(([first, second]) =>
    tokens.some((token, index) => token === first && (tokens[index + 1] === second || tokens[index + 2] === second)),
  );
  return held.length / pairs.length;
}
