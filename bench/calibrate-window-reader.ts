/**
 * Fits the window reader's likelihood model (src/answer/evidence/answer-likelihood.ts) on the tuning half
 * and reports it on both: reads the window features of bench/window-features.ts (one run keyword-only, one
 * with the embedder), fits a logistic regression of "this window states the expected answer" on the odd
 * conversations' windows (L2-regularised, answerable questions only), and prints, per half, how often the
 * most likely window is one that states the answer, and the weights in the model's shape. Then the refusal
 * curve: for each threshold, the share of answerable questions whose best window falls below it and the
 * share of absent-fact questions refused.
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
/** Each set weighs the same in the fit, however many questions it has (a large set would drown a small one). */
const setWeight = new Map(
  sets.flatMap((set) => set.turns.map((turn) => [turn, turns.length / sets.length / set.turns.length] as const)),
);
const withMeaning = turns.some((turn) => turn.windows.some((window) => window.meaning !== null));
const KINDS: AnswerWindow["kind"][] = ["sentence", "pair", "list", "item", "section", "row"];
const NAMES = [
  "words",
  "ownWords",
  "fit",
  "condition",
  "rank",
  "hollow",
  "length",
  "pair",
  "list",
  "item",
  "section",
  "row",
  "meaning",
];

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
    ...KINDS.slice(1).map((kind) => (window.kind === kind ? 1 : 0)),
    withMeaning ? (window.meaning ?? MEANING_BASELINE) - MEANING_BASELINE : 0,
  ];
}

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
    meaning: withMeaning ? at("meaning") : 0,
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
 * Ranking weights: for each answerable tuning question with a window that states its answer, gradient
 * descent on -log(share of the softmax over its windows that falls on such windows), L2-regularised.
 */
function fitRanking(set: Turn[], l2: number): number[] {
  const questions = set
    .filter((turn) => !turn.refusal && turn.windows.some((window) => window.label === 1))
    .map((turn) => ({
      rows: turn.windows.map(vector),
      positive: turn.windows.map((window) => window.label === 1),
      weight: setWeight.get(turn) ?? 1,
    }));
  const weights = new Array<number>(NAMES.length).fill(0);
  for (let iteration = 0; iteration < 1500; iteration += 1) {
    const gradient = new Array<number>(NAMES.length).fill(0);
    for (const { rows, positive, weight } of questions) {
      const scores = rows.map((row) => dot(row, weights));
      const top = Math.max(...scores);
      const exps = scores.map((score) => Math.exp(score - top));
      const all = exps.reduce((sum, value) => sum + value, 0);
      const good = exps.reduce((sum, value, index) => sum + (positive[index] ? value : 0), 0);
      rows.forEach((row, index) => {
        const coefficient = weight * (exps[index]! / all - (positive[index] ? exps[index]! / good : 0));
        row.forEach((value, column) => {
          gradient[column] = (gradient[column] ?? 0) + coefficient * value;
        });
      });
    }
    for (let column = 0; column < weights.length; column += 1)
      weights[column] =
        (weights[column] ?? 0) - (0.5 * ((gradient[column] ?? 0) + l2 * (weights[column] ?? 0))) / questions.length;
  }
  return weights;
}

/**
 * Scale, intercept and the weight of unknown terms that turn a question's best ranking score into the
 * likelihood its answer is right (absent-fact questions are never right).
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
  // Scores in units of their spread, so one step size fits every fit; the scale is kept small (L2): a
  // few dozen questions separate easily, and a likelihood of 1.0 for many windows would tie them.
  const mean = points.reduce((sum, point) => sum + point.score, 0) / points.length;
  const spread = Math.sqrt(points.reduce((sum, point) => sum + (point.score - mean) ** 2, 0) / points.length) || 1;
  let [scale, intercept, unknown] = [0, 0, 0];
  for (let iteration = 0; iteration < 5000; iteration += 1) {
    let [gradientScale, gradientIntercept, gradientUnknown] = [0, 0, 0];
    for (const point of points) {
      const standard = (point.score - mean) / spread;
      const sum = scale * standard + intercept + unknown * point.unknown;
      const error = 1 / (1 + Math.exp(-sum)) - (point.right ? 1 : 0);
      gradientScale += error * standard;
      gradientIntercept += error;
      gradientUnknown += error * point.unknown;
    }
    scale -= (0.5 * (gradientScale + scale)) / points.length;
    intercept -= (0.5 * gradientIntercept) / points.length;
    unknown -= (0.5 * (gradientUnknown + unknown)) / points.length;
  }
  return { scale: scale / spread, intercept: intercept - (scale * mean) / spread, unknown };
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
  let best: { weights: number[]; right: number; l2: number } | null = null;
  for (const l2 of [0.01, 0.1, 1, 10]) {
    const weights = fitRanking(tuning, l2);
    const { right } = topOne(tuning, modelOf(weights, 1, 0, 0));
    console.log(`l2 ${l2}: tuning top-1 ${right} (held out ${topOne(held, modelOf(weights, 1, 0, 0)).right})`);
    if (best === null || right > best.right) best = { weights, right, l2 };
  }
  if (best === null) throw new Error("nothing to fit");
  const { scale, intercept, unknown } = calibrate(tuning, best.weights);
  const model = modelOf(best.weights, scale, intercept, 0, unknown);
  console.log(`chosen l2 ${best.l2}`);
  report(model);
  console.log(JSON.stringify(model, (_, value) => (typeof value === "number" ? Math.round(value * 100) / 100 : value)));
  refusalCurve(model);
}
