/**
 * Fits the window reader's likelihood model (src/answer/evidence/answer-likelihood.ts) on the tuning half
 * and reports it on both: reads the window features of bench/window-features.ts and
 * bench/tatqa-window-features.ts (runs keyword-only, or with the embedder), searches the weights for the
 * most questions whose top window states the expected answer on the tuning halves (coordinate search from
 * the weights in the code), then fits the scale and intercept that make the top window's score the
 * likelihood its answer is right (absent-fact questions never are), and prints, per half, how often the
 * most likely window states the answer, and the weights in the model's shape. Then the refusal curve: for
 * each threshold, the share of answerable questions whose best window falls below it and the share of
 * absent-fact questions refused.
 * Several feature files are pooled (each one's odd half tunes, each one's even half is held out) and
 * reported one by one.
 * Usage: tsx bench/calibrate-window-reader.ts <window-features.jsonl>... [--current]
 *   --current: evaluate the weights now in answer-likelihood.ts instead of fitting.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  answerLikelihood,
  type LikelihoodModel,
  MEANING_BASELINE,
  MEANING_MODEL,
  WORDS_ONLY_MODEL,
} from "../src/answer/evidence/answer-likelihood.js";
import type { AnswerWindow } from "../src/answer/evidence/answer-windows.js";
import type { WindowFeatures } from "../src/answer/evidence/window-scoring.js";
import type { AskedAnswer } from "../src/answer/question/asked-answer.js";

type Window = WindowFeatures & { kind: AnswerWindow["kind"]; label: number; text: string };
type Turn = {
  conversationIndex: number;
  question: string;
  asked: AskedAnswer;
  refusal: boolean;
  windows: Window[];
};

const args = process.argv.slice(2);
const flags = args.filter((arg) => arg.startsWith("--"));
const featurePaths = args.filter((arg) => !arg.startsWith("--"));
if (featurePaths.length === 0)
  throw new Error("usage: tsx bench/calibrate-window-reader.ts <window-features.jsonl>... [--current]");
const sets = await Promise.all(
  featurePaths.map(async (featuresPath) => ({
    name: path.basename(featuresPath),
    turns: (await readFile(featuresPath, "utf8"))
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Turn),
  })),
);
const turns = sets.flatMap((set) => set.turns);
const withMeaning = turns.some((turn) => turn.windows.some((window) => window.meaning !== null));
const KINDS: AnswerWindow["kind"][] = ["sentence", "pair", "list", "item", "section", "row"];
/** The features in the order vector() lists them. */
const NAMES = [
  "words",
  "ownWords",
  "fit",
  "condition",
  "rank",
  "hollow",
  "length",
  "focus",
  "phrases",
  "pair",
  "list",
  "item",
  "section",
  "row",
  "meaning",
];

/** Cosines differ by hundredths where words differ by tenths: scaled, one step size fits both. */
const MEANING_SCALE = 10;

function vector(window: Window): number[] {
  return [
    window.words,
    window.ownWords,
    window.fit,
    window.condition,
    window.rank,
    window.hollow ? 1 : 0,
    window.length,
    window.focus,
    window.phrases,
    ...KINDS.slice(1).map((kind) => (window.kind === kind ? 1 : 0)),
    withMeaning ? MEANING_SCALE * ((window.meaning ?? MEANING_BASELINE) - MEANING_BASELINE) : 0,
  ];
}

if (vector(turns.find((turn) => turn.windows.length > 0)?.windows[0] as Window).length !== NAMES.length)
  throw new Error("vector() and NAMES list different features");

function dot(row: readonly number[], weights: readonly number[]): number {
  return row.reduce((total, value, column) => total + value * (weights[column] ?? 0), 0);
}

/** The ranking weights scaled by `scale`, with `intercept` and the weight of unknown terms, in the model's shape. */
function modelOf(
  weights: number[],
  scale: number,
  intercept: number,
  answerable: number,
  unknown = 0,
): LikelihoodModel {
  const at = (name: string) => scale * (weights[NAMES.indexOf(name)] ?? 0);
  return {
    intercept,
    words: at("words"),
    ownWords: at("ownWords"),
    fit: at("fit"),
    condition: at("condition"),
    rank: at("rank"),
    hollow: at("hollow"),
    length: at("length"),
    unknown,
    focus: at("focus"),
    phrases: at("phrases"),
    meaning: withMeaning ? MEANING_SCALE * at("meaning") : 0,
    kinds: {
      sentence: 0,
      pair: at("pair"),
      list: at("list"),
      item: at("item"),
      section: at("section"),
      row: at("row"),
    },
    answerable,
    relevantMeaning: 0,
  };
}

/**
 * The intercept and the weight of unknown terms that make a question's best window's score the likelihood
 * its answer is right (an absent-fact question's never is), the search's weights kept as they are (they
 * started as a logistic model's log-odds): a logistic fit of those two alone on the tuning questions.
 */
function calibrate(set: Turn[], weights: number[]): { scale: number; intercept: number; unknown: number } {
  const points = set.flatMap((turn) => {
    const best = turn.windows
      .map((window) => ({
        score: dot(vector(window), weights),
        unknown: window.unknown,
        right: window.label === 1 && !turn.refusal,
      }))
      .sort((left, right) => right.score - left.score)[0];
    return best === undefined ? [] : [best];
  });
  let [intercept, unknown] = [0, 0];
  for (let iteration = 0; iteration < 5000; iteration += 1) {
    let [gradientIntercept, gradientUnknown] = [0, 0];
    for (const point of points) {
      const error = 1 / (1 + Math.exp(-(point.score + intercept + unknown * point.unknown))) - (point.right ? 1 : 0);
      gradientIntercept += error;
      gradientUnknown += error * point.unknown;
    }
    intercept -= (0.5 * gradientIntercept) / points.length;
    unknown -= (0.5 * gradientUnknown) / points.length;
  }
  return { scale: 1, intercept, unknown };
}

/** The model's weights as the search's vector (meaning in its scaled unit). */
function initialWeights(model: LikelihoodModel): number[] {
  const byName: Record<string, number> = {
    words: model.words,
    ownWords: model.ownWords,
    fit: model.fit,
    condition: model.condition,
    rank: model.rank,
    hollow: model.hollow,
    length: model.length,
    focus: model.focus,
    phrases: model.phrases,
    pair: model.kinds.pair,
    list: model.kinds.list,
    item: model.kinds.item,
    section: model.kinds.section,
    row: model.kinds.row,
    meaning: model.meaning / MEANING_SCALE,
  };
  return NAMES.map((name) => byName[name] ?? 0);
}

/** Tuning top-1 with each set weighing the same (a share per set, averaged). */
function tuningScore(weights: number[]): number {
  const model = modelOf(weights, 1, 0, 0);
  return (
    sets.reduce((sum, set) => {
      const { right, answerable } = topOne(
        set.turns.filter((turn) => turn.conversationIndex % 2 === 1),
        model,
      );
      return sum + (answerable === 0 ? 0 : right / answerable);
    }, 0) / sets.length
  );
}

const half = (parity: number) => turns.filter((turn) => turn.conversationIndex % 2 === parity);
const tuning = half(1);
const held = half(0);

/** Questions whose most likely window states the answer, of the answerable ones. */
function topOne(set: Turn[], model: LikelihoodModel): { right: number; answerable: number } {
  let right = 0;
  let answerable = 0;
  for (const turn of set) {
    if (turn.refusal) continue;
    answerable += 1;
    const best = bestWindow(turn, model);
    if (best?.label === 1) right += 1;
  }
  return { right, answerable };
}

function bestWindow(turn: Turn, model: LikelihoodModel): (Window & { likelihood: number }) | undefined {
  return turn.windows
    .map((window) => ({ ...window, likelihood: answerLikelihood(window, window.kind, model) }))
    .sort((left, right) => right.likelihood - left.likelihood)[0];
}

/** Top-1 on each half of each set. */
function report(model: LikelihoodModel): void {
  for (const set of sets) {
    const parity = (value: number) => set.turns.filter((turn) => turn.conversationIndex % 2 === value);
    console.log(set.name, "tuning (odd)", topOne(parity(1), model), "held out (even)", topOne(parity(0), model));
  }
}

function refusalCurve(model: LikelihoodModel): void {
  console.log("threshold  answerable refused (tuning / held out)  absent refused (tuning / held out)");
  for (const threshold of [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6]) {
    const share = (set: Turn[], absent: boolean) => {
      const asked = set.filter((turn) => turn.refusal === absent);
      const refused = asked.filter((turn) => (bestWindow(turn, model)?.likelihood ?? 0) < threshold).length;
      return `${refused}/${asked.length}`;
    };
    console.log(
      `${threshold.toFixed(2).padEnd(10)} ${share(tuning, false).padEnd(7)} / ${share(held, false).padEnd(26)} ${share(tuning, true)} / ${share(held, true)}`,
    );
  }
}

if (flags.includes("--current")) {
  const model = withMeaning ? MEANING_MODEL : WORDS_ONLY_MODEL;
  console.log("current model", JSON.stringify(model));
  report(model);
  refusalCurve(model);
} else {
  // Coordinate search from the weights in the code: each weight in turn is moved by steps, kept where the
  // tuning halves' top-1 (each set weighing the same) is best; six rounds. It optimises what the reader
  // does with the weights — pick one window — rather than a proxy loss, and a few dozen weights over a few
  // hundred questions need nothing more.
  let weights = initialWeights(withMeaning ? MEANING_MODEL : WORDS_ONLY_MODEL);
  let best = tuningScore(weights);
  for (let round = 0; round < 6; round += 1)
    for (let column = 0; column < NAMES.length; column += 1)
      for (const step of [-2, -1, -0.5, -0.25, -0.1, 0.1, 0.25, 0.5, 1, 2]) {
        const trial = weights.map((weight, index) => (index === column ? weight + step : weight));
        const score = tuningScore(trial);
        if (score > best + 1e-9) [weights, best] = [trial, score];
      }
  console.log(
    `tuning top-1 share ${best.toFixed(3)} (from ${tuningScore(initialWeights(withMeaning ? MEANING_MODEL : WORDS_ONLY_MODEL)).toFixed(3)})`,
  );
  const { scale, intercept, unknown } = calibrate(tuning, weights);
  const model = modelOf(weights, scale, intercept, 0, unknown);
  report(model);
  console.log(JSON.stringify(model, (_, value) => (typeof value === "number" ? Math.round(value * 100) / 100 : value)));
  refusalCurve(model);
}
