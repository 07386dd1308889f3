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
import type { NumberedSource } from "./generator.js";
import {
  claimText,
  createSentenceVerifier,
  type SentenceVerdict,
  type ShownPassage,
  type SupportingQuote,
} from "./sentence-verifier.js";

export { claimText, type SentenceVerdict, type SupportingQuote };

export const DEFAULT_SUPPORT_THRESHOLD = 0.8;

/**
 * Sentence ends, with a marker written after the full stop kept with its sentence ("Claim. [1]"); a
 * closing quote ends a sentence only after a full stop inside it (`falls under the "Fewer than 3
 * years" category` is one sentence), and an abbreviation's full stop ends none ("the U.S. Tax Act").
 */
const SENTENCE_BREAK =
  /(\n+|(?<=[.!?][”"]?(?:\s?\[\d{1,3}\])*)(?<!\b(?:[A-Z]|e\.g|i\.e|etc|vs|approx|Inc|Corp|Ltd|Co|No|Nos|Mr|Mrs|Ms|Dr|St|Jr|Sr|Fig)\.)\s+(?!\[\d+\]))/;
/**
 * "The sources do not say.", "I could not find this in the sources", "There is no information about
 * it.", "Not in the documents." — said of the sources or of the model itself, not of the subject ("the
 * plan does not cover X" is a claim, and must be cited).
 */
export const REFUSAL =
  /\b(sources?|documents?|context|text|passages?)\b[^.!?]{0,40}\b(do not|don't|does not|doesn't|did not|cannot|can't)\b[^.!?]{0,30}\b(say|mention|contain|include|provide|state|answer|specify|tell)|\bI (do not|don't|cannot|can't|could not|couldn't|am unable to) (find|know|answer|tell)|\bno (relevant )?information\b|\bnot (in|found in|mentioned in|stated in|covered in|covered by) the (provided )?(sources|documents)\b/i;
/** A refusal is short: a long uncited answer that happens to say "no information" is still a set of claims. */
export const MAX_REFUSAL_SENTENCES = 2;

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

export type AnswerPiece = { text: string; separator: string };

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

/** Whether an answer that cites nothing says the sources do not hold the answer. */
export function isRefusal(answer: string, citedSentences: number): boolean {
  return citedSentences === 0 && splitAnswer(answer).length <= MAX_REFUSAL_SENTENCES && REFUSAL.test(answer);
}

/** A whole answer checked at once (the streaming writer checks sentence by sentence, write-verified-answer.ts). */
export async function verifyAnswer(options: {
  answer: string;
  sources: readonly NumberedSource[];
  /** The question asked: numbers it states (a formula's constant) may be used in a calculation. */
  question?: string;
  embedder: Embedder;
  threshold?: number;
  /** The passages each source showed the model; a source not listed is evidence whole. */
  shown?: ReadonlyMap<number, readonly ShownPassage[]>;
  signal?: AbortSignal;
}): Promise<AnswerVerification> {
  const verifier = createSentenceVerifier({
    sources: options.sources,
    question: options.question,
    embedder: options.embedder,
    threshold: options.threshold ?? DEFAULT_SUPPORT_THRESHOLD,
    shown: options.shown,
    signal: options.signal,
  });
  const sentences: SentenceVerdict[] = [];
  const quotes = new Map<number, SupportingQuote>();
  const kept: string[] = [];
  let supportedSentences = 0;
  let unsupportedSentences = 0;
  for (const piece of splitAnswer(options.answer)) {
    const { kept: keptText, quotes: sentenceQuotes, ...verdict } = await verifier.check(piece.text);
    sentences.push(verdict);
    if (verdict.kind === "lead-in") continue;
    if (!verdict.supported || keptText === null) {
      if (claimText(piece.text).length > 0) unsupportedSentences += 1;
      continue;
    }
    supportedSentences += 1;
    for (const [n, quote] of sentenceQuotes)
      if (quote.support > (quotes.get(n)?.support ?? Number.NEGATIVE_INFINITY)) quotes.set(n, quote);
    kept.push(keptText + piece.separator);
  }

  const citedSentences = sentences.filter((sentence) => sentence.cited.length > 0).length;
  let outcome: AnswerVerification["outcome"] = "unsupported";
  if (supportedSentences > 0 && supportedSentences > unsupportedSentences) outcome = "verified";
  else if (isRefusal(options.answer, citedSentences)) outcome = "refusal";
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
