/**
 * Of the questions whose gold answer is a single figure, the share whose answer states that figure in
 * its first sentence (issue #20's "direct answer first" measure). Reads the gold answers of a QA set
 * and the run file `folio eval answers --run-out FILE` wrote (it records each answer's text). The
 * figure's scale is the one the question asks for ("in USD millions"), and it must be stated to the
 * gold's precision (0.5% relative, or half a unit of its last decimal, whichever is larger).
 *
 * Usage: tsx bench/first-sentence-figures.ts <qa.jsonl> <run-out.jsonl>
 */
import { readFile } from "node:fs/promises";
import { type ExpectedNumber, type Scale, textStatesNumber } from "../src/evaluation/answer-numbers.js";

const [datasetPath, runPath] = process.argv.slice(2);
if (!datasetPath || !runPath) throw new Error("usage: tsx bench/first-sentence-figures.ts <qa.jsonl> <run-out.jsonl>");

const readLines = async (file: string) =>
  (await readFile(file, "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** "$1577.00", "8.70", "30.8%": a gold answer that is one number and nothing else (its page references aside). */
const SINGLE_FIGURE = /^\$?\s*(-?[\d,]*\.?\d+)\s*(%)?$/;

function askedScale(question: string): Scale {
  if (/\bin (?:usd |us\$ |\$ ?)?billions?\b/i.test(question)) return "billion";
  if (/\bin (?:usd |us\$ |\$ ?)?millions?\b/i.test(question)) return "million";
  if (/\bin (?:usd |us\$ |\$ ?)?thousands?\b/i.test(question)) return "thousand";
  return "one";
}

/** The answer's first sentence: up to the first full stop that ends a sentence, or its first line. */
function firstSentence(answer: string): string {
  const line = answer.split("\n")[0] ?? "";
  return /^.+?[.!?](?=\s|$)/.exec(line)?.[0] ?? line;
}

const gold = await readLines(datasetPath);
const runs = new Map((await readLines(runPath)).map((run) => [run.question as string, run]));
let figures = 0;
let stated = 0;
for (const entry of gold) {
  const question = entry.question as string;
  const truth = String(entry.truth).split("[")[0]?.trim() ?? "";
  const match = SINGLE_FIGURE.exec(truth);
  if (!match) continue;
  figures += 1;
  const digits = (match[1] ?? "").replace(/,/g, "");
  const decimals = digits.includes(".") ? (digits.split(".")[1] ?? "").length : 0;
  const value = Number(digits);
  const tolerance = Math.max(0.005, (0.5 * 10 ** -decimals) / Math.abs(value || 1));
  const expected: ExpectedNumber = { value, scale: askedScale(question), tolerance };
  const answer = String(runs.get(question)?.answer ?? "");
  const hit = textStatesNumber(firstSentence(answer), expected);
  if (hit) stated += 1;
  process.stdout.write(`${hit ? "yes" : "no "}  ${truth.padEnd(10)} ${firstSentence(answer).slice(0, 110)}\n`);
}
process.stdout.write(
  `\n${stated} of ${figures} single-figure questions state the figure in the first sentence: ${(stated / Math.max(figures, 1)).toFixed(3)}\n`,
);
