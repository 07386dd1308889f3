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
  /** Per window kind, added to the sum (a list answers a list question; a lone item rarely answers alone). */
  kinds: Record<AnswerWindow["kind"], number>;
  /** The likelihood below which no answer is given: the documents do not hold one (calibrated, see above). */
  answerable: number;
};

/** bge-small's cosines of a question with unrelated text sit near this; meaning counts above it. */
export const MEANING_BASELINE = 0.6;

export const WORDS_ONLY_MODEL: LikelihoodModel = {
  intercept: -1.4,
  words: 1.19,
  ownWords: 0.3,
  fit: 0.39,
  condition: 0.32,
  rank: 0.39,
  meaning: 0,
  hollow: -0.29,
  length: -0.06,
  unknown: 0,
  kinds: { sentence: 0, pair: 0.12, list: 0.44, item: 0.07, section: 0.27, row: 0 },
  answerable: 0.4,
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
  kinds: { sentence: 0, pair: 0.13, list: 0.97, item: 0.29, section: 0.52, row: 0 },
  answerable: 0.45,
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
    model.kinds[kind];
  return 1 / (1 + Math.exp(-sum));
}
