/**
 * How likely a candidate window states the answer, from its features (window-scoring.ts): a logistic
 * model, one set of weights with an embedder (meaning counts) and one without (words only). The weights
 * were searched on the tuning halves only — handbook-dev's odd-numbered conversations and TAT-QA dev's
 * even-numbered excerpts' text questions, each set weighing the same — for the most questions whose most
 * likely window states the expected answer, and the intercept fitted so the top window's likelihood is
 * how often it is right; the other halves are reported beside them: `npx tsx bench/calibrate-window-reader.ts
 * <features>…` (docs/benchmarks.md, "Prose answers", has the commands that make the features). The
 * likelihood is the score every reader of text is compared on.
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
  /** Weight of the share of the question's word pairs the window holds as pairs. */
  phrases: number;
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
  intercept: -1.5,
  words: 1.11,
  ownWords: 1.42,
  fit: 0.95,
  condition: 0.7,
  rank: 0.47,
  meaning: 0,
  hollow: 0.12,
  length: 0,
  unknown: -3.31,
  focus: 0,
  phrases: 0,
  kinds: { sentence: 0, pair: -0.23, list: 0.56, item: -0.14, section: -1.43, row: -0.35 },
  answerable: 0.3,
  relevantMeaning: 0,
};

export const MEANING_MODEL: LikelihoodModel = {
  intercept: -0.56,
  words: 1.11,
  ownWords: -0.01,
  fit: 0.6,
  condition: 0.13,
  rank: 0.21,
  meaning: 3.89,
  hollow: -0.39,
  length: -0.44,
  // The fit gave unknown terms a positive weight on 49 questions; a word the documents lack never makes an
  // answer likelier, so it is left out.
  unknown: 0,
  focus: 0,
  phrases: 0,
  kinds: { sentence: 0, pair: -0.87, list: 0.97, item: 0.29, section: 0.02, row: -1 },
  answerable: 0.35,
  relevantMeaning: 0.65,
};

/** `evidence`: log-odds a reader adds for a test of its own the features do not hold (prose-evidence.ts). */
export function answerLikelihood(
  features: WindowFeatures,
  kind: AnswerWindow["kind"],
  model: LikelihoodModel,
  evidence = 0,
): number {
  const sum =
    evidence +
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
    model.phrases * features.phrases +
    model.kinds[kind];
  return 1 / (1 + Math.exp(-sum));
}
