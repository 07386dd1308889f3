/**
 * How likely a candidate window states the answer, from its features (window-scoring.ts): a logistic
 * model, one set of weights with an embedder (meaning counts) and one without (words only). The weights
 * were fitted on the tuning halves only — the odd-numbered conversations of handbook-dev — and checked on
 * the other halves: `npx tsx bench/calibrate-window-reader.ts` (the fit, both halves and the refusal
 * curve; docs/benchmarks.md, "Prose answers"). The likelihood is the score every reader is compared on.
 */
import type { AnswerWindow } from "./answer-windows.js";
import type { WindowFeatures } from "./window-scoring.js";

export type LikelihoodModel = {
  intercept: number;
  words: number;
  ownWords: number;
  fit: number;
  condition: number;
  rank: number;
  /** Weight of the cosine above MEANING_BASELINE; 0 in the words-only model. */
  meaning: number;
  hollow: number;
  length: number;
  /** Weight of the share of the question's terms the documents do not hold at all. */
  unknown: number;
  /** Weight of holding the question's most specific known term. */
  focus: number;
  /** Per window kind, added to the sum (a list answers a list question; a lone item rarely answers alone). */
  kinds: Record<AnswerWindow["kind"], number>;
  /** The likelihood below which no answer is given: the documents do not hold one (calibrated, see above). */
  answerable: number;
  /**
   * With an embedder: the cosine the most likely window must reach for the documents to hold an answer at
   * all (bench/relevance-calibration.ts: answerable vs absent-fact questions); 0 in the words-only model.
   */
  relevantMeaning: number;
};

/** bge-small's cosines of a question with unrelated text sit near this; meaning counts above it. */
export const MEANING_BASELINE = 0.6;

export const WORDS_ONLY_MODEL: LikelihoodModel = {
  intercept: -2.67,
  words: 1.76,
  ownWords: 1.42,
  fit: 0.95,
  condition: 0.7,
  rank: 0.97,
  meaning: 0,
  hollow: -0.38,
  length: 0,
  unknown: -1.64,
  focus: 0,
  kinds: { sentence: 0, pair: -0.23, list: 0.56, item: -0.14, section: -0.43, row: -0.35 },
  answerable: 0.3,
  relevantMeaning: 0,
};

export const MEANING_MODEL: LikelihoodModel = {
  intercept: -1.42,
  words: 1.36,
  ownWords: 0.74,
  fit: 0.6,
  condition: 0.38,
  rank: 0.46,
  meaning: 1.39,
  hollow: -0.39,
  length: -0.19,
  unknown: 0,
  focus: 0,
  kinds: { sentence: 0, pair: 0.13, list: 0.97, item: 0.29, section: 0.52, row: 0 },
  answerable: 0.45,
  relevantMeaning: 0.65,
};

export function answerLikelihood(features: WindowFeatures, kind: AnswerWindow["kind"], model: LikelihoodModel): number {
  const sum =
    model.intercept +
    model.words * features.words +
    model.ownWords * features.ownWords +
    model.fit * features.fit +
    model.condition * features.condition +
    model.rank * features.rank +
    (features.meaning === null ? 0 : model.meaning * (features.meaning - MEANING_BASELINE)) +
    (features.hollow ? model.hollow : 0) +
    model.length * features.length +
    model.unknown * features.unknown +
    model.focus * features.focus +
    model.kinds[kind];
  return 1 / (1 + Math.exp(-sum));
}
