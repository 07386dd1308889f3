/**
 * Checks one sentence of a model's answer at a time, so each can be shown as soon as it passes
 * (write-verified-answer.ts) — the rule is verify-answer.ts's: the sentence must cite a source, be as
 * close to one of that source's passages as the threshold asks (or state a calculation whose inputs the
 * cited sources print), and then hold claim by claim (claim-check.ts). The sources' passages are
 * embedded once per cited source, on the first sentence that cites it; when the caller knows which
 * passages the model was shown (fit-sources.ts trims sources), only those are evidence, since the model
 * cannot have read the rest.
 */
import type { Embedder } from "../../embedding/embedder.js";
import { type Calculation, checkCalculation, findCalculation, printedNumbers } from "../compose/calculation-check.js";
import { rankPassages } from "../evidence/sentence-scoring.js";
import { checkClaims } from "./claim-check.js";
import type { NumberedSource } from "./generator.js";
import { isInstructionToModel } from "./instruction-guard.js";

/** The passage of a source a sentence is supported by, with its offsets in the source text. */
export type SupportingQuote = { text: string; start: number; end: number; support: number };

/** A passage the model was shown, with its offsets in its source's text. */
export type ShownPassage = { text: string; start: number; end: number };

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

/** A verdict with what the answer keeps of the sentence: its supporting markers and their quotes. */
export type CheckedSentence = SentenceVerdict & {
  /** The sentence with only its supporting markers; null when it is not kept. */
  kept: string | null;
  quotes: Array<[number, SupportingQuote]>;
};

const MARKER = /\s?\[(\d{1,3})\]/g;
const LIST_BULLET = /^\s*(?:[-*•]|\d{1,2}[.)])\s+/;
/** A lead-in without a marker ("Here is what I found:") longer than this is a claim, not a lead-in. */
const MAX_LEAD_IN_WORDS = 8;

/** A sentence without its markers and list bullet, as it is compared with the sources. */
export function claimText(sentence: string): string {
  return sentence.replace(MARKER, "").replace(LIST_BULLET, "").replace(/\s+/g, " ").trim();
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== "").length;
}

/** Whether an uncited sentence is a short lead-in ("Here is what I found:"), dropped without counting. */
export function isLeadIn(sentence: string): boolean {
  const claim = claimText(sentence);
  return claim.endsWith(":") && wordCount(claim) <= MAX_LEAD_IN_WORDS;
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
export function keepMarkers(sentence: string, keep: ReadonlySet<number>): string {
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

/** A passage as evidence; `fact`: a checked fact the model was given, citing this source. */
type Evidence = ShownPassage & { vector: number[]; fact?: boolean };

/** A source's passages as evidence: those shown to the model, or all of them, less sentences addressing it. */
function passagesOf(source: NumberedSource, shown: readonly ShownPassage[] | undefined): ShownPassage[] {
  const passages = (shown ?? rankPassages(source.result, new Set()))
    .filter((passage) => passage.text.trim().length > 0 && !isInstructionToModel(passage.text))
    .map(({ text, start, end }) => ({ text, start, end }));
  const items = passages.flatMap(itemsOf).filter((item) => !passages.some((passage) => passage.text === item.text));
  return [...passages, ...items];
}

/** A list item or a line begins here: a line break, or a bullet ("- ", "* ", "• ", "1. ") after a space. */
const ITEM_START = /\n+\s*|(?:^|\s)(?=(?:[-*•]|\d{1,2}[.)])\s+\S)/gu;

/**
 * The items of a passage that holds a list or several lines ("… all of the following: - Exhausted all
 * leave balances - Have an anticipated negative balance …"): a model copies one item, and one item is
 * not close to the whole run. Each keeps its offsets in the source.
 */
function itemsOf(passage: ShownPassage): ShownPassage[] {
  const starts = [...passage.text.matchAll(ITEM_START)].map((match) => match.index + match[0].length);
  if (starts.length === 0) return [];
  const bounds = [0, ...starts.filter((start) => start > 0 && start < passage.text.length), passage.text.length];
  const items: ShownPassage[] = [];
  for (let index = 0; index + 1 < bounds.length; index += 1) {
    const from = bounds[index] as number;
    const raw = passage.text.slice(from, bounds[index + 1]);
    const text = raw.trim();
    if (text.split(/\s+/).length < 2 || isInstructionToModel(text)) continue;
    const start = passage.start + from + (raw.length - raw.trimStart().length);
    items.push({ text, start, end: start + text.length });
  }
  return items.length > 1 ? items : [];
}

/** The calculation a sentence writes out, when its inputs are printed in the cited sources (or the question) and its result is right. */
function checkedCalculation(
  claim: string,
  cited: readonly NumberedSource[],
  evidence: ReadonlyMap<number, Evidence[]>,
  question: string | undefined,
): Calculation | null {
  const texts = [
    ...cited.flatMap((source) => (evidence.get(source.n) ?? []).map((passage) => passage.text)),
    ...(question ? [question] : []),
  ];
  const calculation = findCalculation(claim);
  return calculation && checkCalculation(calculation, texts) ? calculation : null;
}

/**
 * The best passage of each cited source, by cosine with the claim. A checked fact citing the source
 * may give the support, but the quote is always the source's own passage (a fact has no place on a page).
 */
function bestPassages(
  claimVector: readonly number[],
  evidence: ReadonlyMap<number, Evidence[]>,
): Map<number, SupportingQuote> {
  const best = new Map<number, SupportingQuote>();
  for (const [n, passages] of evidence) {
    let support = Number.NEGATIVE_INFINITY;
    let quote: Evidence | undefined;
    let quoteSupport = Number.NEGATIVE_INFINITY;
    for (const passage of passages) {
      const similarity = cosine(claimVector, passage.vector);
      support = Math.max(support, similarity);
      if (!passage.fact && similarity > quoteSupport) {
        quote = passage;
        quoteSupport = similarity;
      }
    }
    if (quote) best.set(n, { text: quote.text, start: quote.start, end: quote.end, support });
  }
  return best;
}

/** Each cited source's passage printing an input of the calculation, as its quote. */
function calculationQuotes(
  calculation: Calculation,
  evidence: ReadonlyMap<number, Evidence[]>,
): Array<[number, SupportingQuote]> {
  const inputs = new Set(calculation.operands.map(Math.abs));
  return [...evidence.entries()].flatMap(([n, passages]) => {
    const passage = passages.find(
      (candidate) => !candidate.fact && [...printedNumbers(candidate.text)].some((value) => inputs.has(value)),
    );
    return passage ? [[n, { text: passage.text, start: passage.start, end: passage.end, support: 0 }]] : [];
  });
}

/**
 * Close in meaning is not enough: each number, date, link, name and clause must be the supporting
 * sources' own (claim-check.ts). A clause with few of the sources' words may be a paraphrase: it stands
 * if it is itself as close to one of their passages as a sentence must be.
 */
async function checkParts(
  context: {
    sources: readonly NumberedSource[];
    question?: string;
    facts?: readonly string[];
    threshold: number;
    embed: (texts: string[]) => Promise<number[][]>;
  },
  sentence: {
    claim: string;
    supporting: ReadonlyArray<[number, SupportingQuote]>;
    evidence: ReadonlyMap<number, Evidence[]>;
    calculation: Calculation | null;
  },
): Promise<string[]> {
  const supportingSources = new Set(sentence.supporting.map(([n]) => n));
  const passages = [...sentence.evidence.entries()]
    .filter(([n]) => supportingSources.has(n))
    .flatMap(([, list]) => list);
  const titles = context.sources
    .filter((source) => supportingSources.has(source.n))
    .flatMap((source) => [source.result.title, source.result.file, source.result.file.replace(/[_-]+/g, " ")]);
  const claims = checkClaims({
    claim: sentence.claim,
    evidence: passages.map((passage) => passage.text),
    titles,
    calculation: sentence.calculation,
    question: context.question,
    facts: context.facts,
  });
  const unverified = [...claims.unverified];
  if (claims.uncoveredClauses.length > 0) {
    const clauseVectors = await context.embed(claims.uncoveredClauses);
    claims.uncoveredClauses.forEach((clause, index) => {
      const closest = Math.max(
        Number.NEGATIVE_INFINITY,
        ...passages.map((passage) => cosine(clauseVectors[index] ?? [], passage.vector)),
      );
      if (closest < context.threshold) unverified.push(`clause "${clause}"`);
    });
  }
  return unverified;
}

export type SentenceVerifier = {
  /** The verdict on one sentence of the answer (markers included). */
  check(sentence: string): Promise<CheckedSentence>;
};

export function createSentenceVerifier(options: {
  sources: readonly NumberedSource[];
  /** The question asked: numbers it states (a formula's constant) may be used in a calculation. */
  question?: string;
  embedder: Embedder;
  threshold: number;
  /** The passages each source showed the model (by n); a source not listed is evidence whole. */
  shown?: ReadonlyMap<number, readonly ShownPassage[]>;
  /** Statements the model was given as already checked: their numbers may be repeated. */
  facts?: readonly string[];
  signal?: AbortSignal;
}): SentenceVerifier {
  const { embedder, signal } = options;
  const known = new Set(options.sources.map((source) => source.n));
  const embedded = new Map<number, Promise<Evidence[]>>();
  const embed = (texts: string[]) => embedder.embedPassages(texts, { signal, priority: "interactive" });

  // A checked fact ("Rent and other deposits for 2018 were $5,687 thousand [1].") is evidence of the
  // sources it cites: the model restating it states what was checked.
  const factsOf = (n: number): ShownPassage[] =>
    (options.facts ?? [])
      .filter((fact) => citedNumbers(fact, new Set([n])).length > 0)
      .map((fact) => ({ text: claimText(fact), start: -1, end: -1 }));
  const evidenceOf = (source: NumberedSource): Promise<Evidence[]> => {
    let evidence = embedded.get(source.n);
    if (!evidence) {
      const passages = passagesOf(source, options.shown?.get(source.n));
      const all = [...passages, ...factsOf(source.n)];
      evidence =
        all.length === 0
          ? Promise.resolve([])
          : embed(all.map((passage) => passage.text)).then((vectors) =>
              all.map((passage, index) => ({
                ...passage,
                vector: vectors[index] ?? [],
                ...(index >= passages.length ? { fact: true } : {}),
              })),
            );
      embedded.set(source.n, evidence);
    }
    return evidence;
  };

  async function check(sentence: string): Promise<CheckedSentence> {
    const claim = claimText(sentence);
    const cited = citedNumbers(sentence, known);
    if (cited.length === 0 || claim.length === 0) {
      const leadIn = isLeadIn(sentence);
      return {
        text: sentence,
        cited: [],
        kind: leadIn ? "lead-in" : "claim",
        support: null,
        supported: false,
        kept: null,
        quotes: [],
      };
    }
    const citedSources = options.sources.filter((source) => cited.includes(source.n));
    const evidence = new Map<number, Evidence[]>();
    for (const source of citedSources) evidence.set(source.n, await evidenceOf(source));
    const [claimVector = []] = await embed([claim]);
    const bestBySource = bestPassages(claimVector, evidence);
    let supporting = [...bestBySource.entries()].filter(([, quote]) => quote.support >= options.threshold);
    const support = Math.max(Number.NEGATIVE_INFINITY, ...[...bestBySource.values()].map((quote) => quote.support));
    const calculation = checkedCalculation(claim, citedSources, evidence, options.question);
    // A figure worked out from the sources is no sentence of theirs: its arithmetic is checked instead.
    if (supporting.length === 0 && calculation) supporting = calculationQuotes(calculation, evidence);
    const unverifiedClaims =
      supporting.length > 0
        ? await checkParts({ ...options, embed }, { claim, supporting, evidence, calculation })
        : [];
    const supported = supporting.length > 0 && unverifiedClaims.length === 0;
    return {
      text: sentence,
      cited,
      kind: "claim",
      support: Number.isFinite(support) ? support : null,
      supported,
      ...(unverifiedClaims.length > 0 ? { unverifiedClaims } : {}),
      kept: supported ? keepMarkers(sentence, new Set(supporting.map(([n]) => n))).trim() : null,
      quotes: supported ? supporting : [],
    };
  }

  return { check };
}
