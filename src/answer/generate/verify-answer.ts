/**
 * Checks a generated answer against the sources it cites, sentence by sentence, before anyone sees it
 * as final. Markers that point to no source are removed. A sentence is supported when the embedder's
 * cosine between the sentence (markers stripped) and the best-matching sentence of a source it cites
 * is at least the threshold; that source sentence becomes the citation's quote (and so fixes its
 * page). A sentence no source sentence supports may still state a figure worked out from the sources
 * ("1,577 / 32,765 = 4.8%"): it is supported when its arithmetic checks out and its inputs are printed
 * in the sources it cites (calculation-check.ts). Markers of cited sources that do not support the
 * sentence are removed from it. Sentences without a marker are claims nobody can check: they count as
 * unsupported, except short lead-ins ending in ":" ("Here is what I found:"), which are dropped
 * without counting either way — the shown answer holds only supported, cited sentences. Source
 * sentences that address the model (see instruction-guard.ts) are never evidence.
 *
 * Similarity alone lets words appended to a supported sentence through ("…180 euros per night in
 * Paris, after confirming their identity at evil.example/verify [1]."), so a sentence that passes is
 * then checked claim by claim against the text of the sources supporting it (claim-check.ts): its
 * numbers, dates, links and names must be the sources' own (a number may be computed from theirs),
 * and each clause of a sentence of several must be made mostly of their words or be, on its own, as
 * close to one of their passages as a sentence must be. A sentence with any part the sources do not
 * hold is unsupported as a whole.
 *
 * Verdict: the supported sentences are kept when at least one remains and they outnumber the
 * unsupported ones; an answer that cites nothing and says the sources do not hold the answer is a
 * refusal; anything else is unsupported (the caller falls back to the extractive answer).
 *
 * Threshold: bench/support-threshold-calibration.ts, bge-small-en-v1.5, the reference answers of the
 * first 80 Northwind questions (179 sentences) as claims. Share of claims passing against their gold
 * page / a random other page of the same document / a page of another document:
 *   0.70: 89.9% / 50.8% / 39.1%    0.75: 83.2% / 25.7% / 19.6%    0.80: 77.7% / 7.3% / 4.5%
 *   0.85: 60.9% / 2.2% / 1.1%      (cosine p50: gold 0.874, same document 0.703, other 0.677)
 * 0.80 is used: a wrong claim shown as checked costs more than a correct one replaced by the
 * extractive answer (which still quotes the sources), and below it wrong pages pass fast. Reference
 * answers often merge two source sentences into one, so the gold pass rate is a lower bound.
 */
import type { Embedder } from "../../embedding/embedder.js";
import { type Calculation, checkCalculation, findCalculation, printedNumbers } from "../compose/calculation-check.js";
import { rankPassages } from "../evidence/sentence-scoring.js";
import { checkClaims } from "./claim-check.js";
import type { NumberedSource } from "./generator.js";
import { isInstructionToModel } from "./instruction-guard.js";

export const DEFAULT_SUPPORT_THRESHOLD = 0.8;

/** A lead-in without a marker ("Here is what I found:") longer than this is a claim, not a lead-in. */
const MAX_LEAD_IN_WORDS = 8;

const MARKER = /\s?\[(\d{1,3})\]/g;
/** Sentence ends, with a marker written after the full stop kept with its sentence ("Claim. [1]"). */
const SENTENCE_BREAK = /(\n+|(?<=[.!?”"](?:\s?\[\d{1,3}\])*)\s+(?!\[\d+\]))/;
const LIST_BULLET = /^\s*(?:[-*•]|\d{1,2}[.)])\s+/;
/**
 * "The sources do not say.", "I could not find this in the sources", "There is no information about
 * it." — said of the sources or of the model itself, not of the subject ("the plan does not cover X"
 * is a claim, and must be cited).
 */
const REFUSAL =
  /\b(sources?|documents?|context|text|passages?)\b[^.!?]{0,40}\b(do not|don't|does not|doesn't|did not|cannot|can't)\b[^.!?]{0,30}\b(say|mention|contain|include|provide|state|answer|specify|tell)|\bI (do not|don't|cannot|can't|could not|couldn't|am unable to) (find|know|answer|tell)|\bno (relevant )?information\b|\bnot (in|found in) the (sources|documents)\b/i;
/** A refusal is short: a long uncited answer that happens to say "no information" is still a set of claims. */
const MAX_REFUSAL_SENTENCES = 2;

/** The passage of a source a sentence is supported by, with its offsets in the source text. */
export type SupportingQuote = { text: string; start: number; end: number; support: number };

export type SentenceVerdict = {
  text: string;
  /** Markers pointing to a source, in order of appearance. */
  cited: number[];
  kind: "claim" | "lead-in";
  /** Best cosine against a cited source's sentences; null when the sentence cites nothing. */
  support: number | null;
  supported: boolean;
  /**
   * Parts of a sentence close to a source that the source does not hold (`number "4.2 million"`,
   * `link "evil.example/verify"`, `name "Falcon"`, `clause "…"`); absent when there are none.
   */
  unverifiedClaims?: string[];
};

export type AnswerVerification = {
  outcome: "verified" | "refusal" | "unsupported";
  /** The supported sentences with their supporting markers; empty unless verified. */
  text: string;
  sentences: SentenceVerdict[];
  /** Sentences citing at least one existing source, and how many of them passed. */
  citedSentences: number;
  supportedSentences: number;
  /** Claims that failed: cited but unsupported, or not cited at all. */
  unsupportedSentences: number;
  /** Each kept source's supporting sentence (the best-supported sentence citing it). */
  quotes: Map<number, SupportingQuote>;
};

type AnswerPiece = { text: string; separator: string };

/** The answer's sentences, each with the whitespace that followed it. */
export function splitAnswer(answer: string): AnswerPiece[] {
  const parts = answer.split(SENTENCE_BREAK);
  const pieces: AnswerPiece[] = [];
  for (let index = 0; index < parts.length; index += 2) {
    const text = parts[index] ?? "";
    const separator = parts[index + 1] ?? "";
    if (text.trim().length > 0) pieces.push({ text, separator });
    else if (pieces.length > 0) {
      const previous = pieces[pieces.length - 1] as AnswerPiece;
      previous.separator += text + separator;
    }
  }
  return pieces;
}

/** A sentence without its markers and list bullet, as it is compared with the sources. */
export function claimText(sentence: string): string {
  return sentence.replace(MARKER, "").replace(LIST_BULLET, "").replace(/\s+/g, " ").trim();
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== "").length;
}

function citedNumbers(sentence: string, known: ReadonlySet<number>): number[] {
  const cited: number[] = [];
  for (const match of sentence.matchAll(MARKER)) {
    const n = Number(match[1]);
    if (known.has(n) && !cited.includes(n)) cited.push(n);
  }
  return cited;
}

/** The sentence with only the markers in `keep` (others, and duplicates, removed). */
function keepMarkers(sentence: string, keep: ReadonlySet<number>): string {
  const seen = new Set<number>();
  return (
    sentence
      .replace(MARKER, (marker, digits: string) => {
        const n = Number(digits);
        if (!keep.has(n) || seen.has(n)) return "";
        seen.add(n);
        return marker;
      })
      // "portal [1][2]" less [1] reads "portal [2]", not "portal[2]".
      .replace(/([^\s[])\[(\d{1,3})\]/g, "$1 [$2]")
  );
}

/** Vectors from the embedder are unit length, so their dot product is their cosine. */
function cosine(left: readonly number[], right: readonly number[]): number {
  let sum = 0;
  for (let index = 0; index < left.length; index += 1) sum += (left[index] ?? 0) * (right[index] ?? 0);
  return sum;
}

type Evidence = { n: number; text: string; start: number; end: number };

/** Every passage of every source, in source order, less sentences that address the model. */
function evidenceOf(sources: readonly NumberedSource[]): Evidence[] {
  return sources.flatMap((source) =>
    rankPassages(source.result, new Set())
      .filter((passage) => passage.text.trim().length > 0 && !isInstructionToModel(passage.text))
      .map((passage) => ({ n: source.n, text: passage.text, start: passage.start, end: passage.end })),
  );
}

/**
 * The cited sources that print an input of the calculation a sentence states, each with the passage
 * printing it as the quote; none when the sentence states no calculation or it does not check out
 * (calculation-check.ts). Numbers in the question count as given (a formula's constant).
 */
function calculationSupport(
  piece: { claim: string; cited: number[] },
  sources: readonly NumberedSource[],
  evidence: readonly Evidence[],
  question: string | undefined,
): Array<[number, SupportingQuote]> {
  const cited = sources.filter((source) => piece.cited.includes(source.n));
  const calculation = checkedCalculation(piece, sources, question);
  if (!calculation) return [];
  const inputs = new Set(calculation.operands.map(Math.abs));
  const quotes: Array<[number, SupportingQuote]> = [];
  for (const source of cited) {
    const passage = evidence.find(
      (candidate) => candidate.n === source.n && [...printedNumbers(candidate.text)].some((n) => inputs.has(n)),
    );
    if (passage) quotes.push([source.n, { text: passage.text, start: passage.start, end: passage.end, support: 0 }]);
  }
  return quotes;
}

/** The calculation a sentence writes out, when its inputs are printed in the cited sources (or the question) and its result is right. */
function checkedCalculation(
  piece: { claim: string; cited: number[] },
  sources: readonly NumberedSource[],
  question: string | undefined,
): Calculation | null {
  const cited = sources.filter((source) => piece.cited.includes(source.n));
  const texts = [...cited.map((source) => source.result.text), ...(question ? [question] : [])];
  const calculation = findCalculation(piece.claim);
  return calculation && checkCalculation(calculation, texts) ? calculation : null;
}

/**
 * The text of the given sources a claim is held to: their passages (less sentences that address the
 * model), and each one's title and file name, which answers name a source by ("According to the
 * Northwind Standard Benefits Details, …").
 */
function evidenceText(
  evidence: readonly Evidence[],
  sources: readonly NumberedSource[],
  supporting: ReadonlySet<number>,
): string {
  const names = sources
    .filter((source) => supporting.has(source.n))
    .flatMap((source) => [source.result.title, source.result.file, source.result.file.replace(/[_-]+/g, " ")]);
  const passages = evidence.filter((passage) => supporting.has(passage.n)).map((passage) => passage.text);
  return [...passages, ...names].join("\n");
}

export async function verifyAnswer(options: {
  answer: string;
  sources: readonly NumberedSource[];
  /** The question asked: numbers it states (a formula's constant) may be used in a calculation. */
  question?: string;
  embedder: Embedder;
  threshold?: number;
  signal?: AbortSignal;
}): Promise<AnswerVerification> {
  const threshold = options.threshold ?? DEFAULT_SUPPORT_THRESHOLD;
  const known = new Set(options.sources.map((source) => source.n));
  const pieces = splitAnswer(options.answer).map((piece) => ({
    ...piece,
    cited: citedNumbers(piece.text, known),
    claim: claimText(piece.text),
  }));
  const citedSources = new Set(pieces.flatMap((piece) => piece.cited));
  const evidence = evidenceOf(options.sources.filter((source) => citedSources.has(source.n)));
  const checked = pieces.filter((piece) => piece.cited.length > 0 && piece.claim.length > 0);
  const vectors =
    checked.length === 0 || evidence.length === 0
      ? []
      : await options.embedder.embedPassages([...checked.map((piece) => piece.claim), ...evidence.map((e) => e.text)], {
          signal: options.signal,
          priority: "interactive",
        });
  const evidenceVectors = vectors.slice(checked.length);

  const sentences: SentenceVerdict[] = [];
  const quotes = new Map<number, SupportingQuote>();
  const kept: string[] = [];
  let supportedSentences = 0;
  let unsupportedSentences = 0;
  for (const piece of pieces) {
    if (piece.cited.length === 0) {
      const isLeadIn = piece.claim.endsWith(":") && wordCount(piece.claim) <= MAX_LEAD_IN_WORDS;
      if (!isLeadIn && piece.claim.length > 0) unsupportedSentences += 1;
      sentences.push({
        text: piece.text,
        cited: [],
        kind: isLeadIn ? "lead-in" : "claim",
        support: null,
        supported: false,
      });
      continue;
    }
    const claimVector = vectors[checked.indexOf(piece)] ?? [];
    // The best passage of each cited source, by cosine with the claim.
    const bestBySource = new Map<number, SupportingQuote>();
    evidence.forEach((candidate, index) => {
      if (!piece.cited.includes(candidate.n)) return;
      const support = cosine(claimVector, evidenceVectors[index] ?? []);
      if (support > (bestBySource.get(candidate.n)?.support ?? Number.NEGATIVE_INFINITY))
        bestBySource.set(candidate.n, { text: candidate.text, start: candidate.start, end: candidate.end, support });
    });
    let supporting = [...bestBySource.entries()].filter(([, quote]) => quote.support >= threshold);
    const support = Math.max(Number.NEGATIVE_INFINITY, ...[...bestBySource.values()].map((quote) => quote.support));
    // A figure worked out from the sources is no sentence of theirs: its arithmetic is checked instead.
    if (supporting.length === 0) supporting = calculationSupport(piece, options.sources, evidence, options.question);
    // Close in meaning is not enough: each number, date, link, name and clause must be the supporting sources' own.
    const claims =
      supporting.length > 0
        ? checkClaims({
            claim: piece.claim,
            evidence: evidenceText(evidence, options.sources, new Set(supporting.map(([n]) => n))),
            calculation: checkedCalculation(piece, options.sources, options.question),
            question: options.question,
          })
        : null;
    // A clause with few of the sources' words may be a paraphrase: it stands if it is itself close to a passage.
    const unverifiedClaims = claims ? [...claims.unverified] : [];
    if (claims && claims.uncoveredClauses.length > 0) {
      const supportingSources = new Set(supporting.map(([n]) => n));
      const clauseVectors = await options.embedder.embedPassages(claims.uncoveredClauses, {
        signal: options.signal,
        priority: "interactive",
      });
      claims.uncoveredClauses.forEach((clause, index) => {
        const closest = Math.max(
          Number.NEGATIVE_INFINITY,
          ...evidence.flatMap((candidate, evidenceIndex) =>
            supportingSources.has(candidate.n)
              ? [cosine(clauseVectors[index] ?? [], evidenceVectors[evidenceIndex] ?? [])]
              : [],
          ),
        );
        if (closest < threshold) unverifiedClaims.push(`clause "${clause}"`);
      });
    }
    const supported = supporting.length > 0 && claims !== null && unverifiedClaims.length === 0;
    sentences.push({
      text: piece.text,
      cited: piece.cited,
      kind: "claim",
      support: Number.isFinite(support) ? support : null,
      supported,
      ...(unverifiedClaims.length > 0 ? { unverifiedClaims } : {}),
    });
    if (!supported) {
      unsupportedSentences += 1;
      continue;
    }
    supportedSentences += 1;
    for (const [n, quote] of supporting)
      if (quote.support > (quotes.get(n)?.support ?? Number.NEGATIVE_INFINITY)) quotes.set(n, quote);
    kept.push(keepMarkers(piece.text, new Set(supporting.map(([n]) => n))).trim() + piece.separator);
  }

  const citedSentences = sentences.filter((sentence) => sentence.cited.length > 0).length;
  let outcome: AnswerVerification["outcome"] = "unsupported";
  if (supportedSentences > 0 && supportedSentences > unsupportedSentences) outcome = "verified";
  else if (citedSentences === 0 && pieces.length <= MAX_REFUSAL_SENTENCES && REFUSAL.test(options.answer))
    outcome = "refusal";
  return {
    outcome,
    text: outcome === "verified" ? kept.join("").trim() : "",
    sentences,
    citedSentences,
    supportedSentences,
    unsupportedSentences,
    quotes: outcome === "verified" ? quotes : new Map(),
  };
}
