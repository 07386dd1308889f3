/**
 * Holds each checkable part of an answer sentence to the text of the sources that support it (issue
 * #30): a sentence whose meaning is close to a source sentence still fails when it adds what the source
 * does not give. Every number must be printed in the source or computed from its numbers by a
 * computation the sentence names (calculation-check.ts); every date must be one the source gives; every
 * link or domain must be one the source holds, as written (only the scheme and a trailing slash may
 * differ); every name (a capitalised word, an acronym) must appear in the source or the question; and every clause
 * ("…, after confirming their identity at …", "…, and the Falcon budget is …") must be made mostly of
 * the source's words, so a clause appended to a supported sentence is not carried by it.
 *
 * The clause test counts content words (the BM25 analyzer's stemmed terms less function and framing
 * words): at least half of a clause's must occur in the source. A sentence of one clause is left to
 * the similarity test it already passed (a paraphrase, "capital expenditure" for "purchases of
 * property and equipment", has few of the source's words); a clause of a longer sentence that fails
 * here is returned so the caller can still accept it by similarity of its own (verify-answer.ts).
 * Calibrated on the Northwind reference answers against their gold pages
 * (bench/claim-check-calibration.ts; the figures are in docs/security.md).
 */
import { analyzeText } from "../../retrieval/text-analyzer.js";
import { findLinkShapes, normalizeLink } from "../citations/literal-links.js";
import {
  type Calculation,
  derivationsNamed,
  isDerived,
  isPrinted,
  printedAmounts,
} from "../compose/calculation-check.js";
import { findDates, findNames, findNumbers, splitClauses } from "./claim-extraction.js";

/** Share of a clause's content words the source must hold. */
export const MIN_CLAUSE_COVERAGE = 0.5;

/**
 * Words that carry no claim: function words the analyzer keeps, and the ones answers frame claims
 * with ("according to the document", "specifically", "also").
 */
const FRAMING_TERMS = new Set(
  analyzeText(
    "can could may might must shall should would will also up all any each every has have had do does did been being its which who whom whose what when where while how than so very more most less other same only just about over under per from after before including include includes out off both either neither nor you your we our us he she his her them i me my here yes there those according document documents source sources state states stated mention mentions mentioned based information provided specifically however note notes additionally following follow follows says say said given within well",
  ),
);

export type ClaimCheck = {
  /** No part failed (clauses included). */
  supported: boolean;
  /** What the source does not hold, for logs and tests: `number "4.2 million"`, `link "…"`, `name "…"`. */
  unverified: string[];
  /** Clauses of a sentence of several with less than MIN_CLAUSE_COVERAGE of their words in the source. */
  uncoveredClauses: string[];
};

/** A clause's content terms (numbers are checked as numbers). */
function contentTerms(clause: string): string[] {
  return [...new Set(analyzeText(clause))].filter((term) => !FRAMING_TERMS.has(term) && !/^\d/.test(term));
}

/** Whether the source names `name` (case aside) at the start of a word; a plural also matches its singular. */
function namesIn(name: string, evidence: string): boolean {
  const escapePattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const variants = [name, name.replace(/(?:es|s)$/u, "")].filter((variant) => variant.length >= 2);
  return variants.some((variant) => new RegExp(`(?<![\\p{L}\\p{N}])${escapePattern(variant)}`, "iu").test(evidence));
}

/** A link as compared: normalised, without its scheme, `www.` or a trailing slash. */
function linkKey(link: string): string {
  return normalizeLink(link)
    .replace(/^[a-z][a-z0-9+.-]*:(?:\/\/)?/u, "")
    .replace(/^\/\//u, "")
    .replace(/^www\./u, "")
    .replace(/\/$/u, "");
}

/** Fewest content words a clause is checked with on its own; a shorter one ("…, and costs") is read with the clause before. */
const MIN_CLAUSE_TERMS = 2;

/** Clauses with a list's last item or a word or two joined back to the clause before them. */
function joinShortClauses(clauses: readonly string[]): string[] {
  const joined: string[] = [];
  for (const clause of clauses) {
    const previous = joined.length - 1;
    if (previous >= 0 && contentTerms(clause).length < MIN_CLAUSE_TERMS)
      joined[previous] = `${joined[previous]} ${clause}`;
    else joined.push(clause);
  }
  return joined;
}

export function checkClaims(options: {
  /** The sentence, markers stripped (verify-answer.ts's claimText). */
  claim: string;
  /** The supporting sources' text (sentences that address the model already left out). */
  evidence: string;
  /** A calculation the sentence writes out that checked out: its inputs and result are accounted for. */
  calculation?: Calculation | null;
  /**
   * The question asked: the names it gives count as given ("What was Nike's revenue?" answered from a
   * table that never says "Nike"). Only names: the asker's words cannot vouch for a number or a link.
   */
  question?: string;
}): ClaimCheck {
  const { claim, evidence } = options;
  const unverified: string[] = [];
  const amounts = printedAmounts(evidence);
  const accounted = new Set(
    options.calculation ? [...options.calculation.operands.map(Math.abs), Math.abs(options.calculation.stated)] : [],
  );

  const links = findLinkShapes(claim);
  const sourceLinks = new Set(findLinkShapes(evidence).map((link) => linkKey(link.text)));
  for (const link of links) if (!sourceLinks.has(linkKey(link.text))) unverified.push(`link "${link.text}"`);

  const dates = findDates(claim);
  const sourceDates = findDates(evidence);
  const lowerEvidence = evidence.toLowerCase();
  for (const date of dates) {
    const given = sourceDates.some(
      (other) =>
        (date.year === undefined || date.year === other.year) &&
        (date.month === undefined || date.month === other.month) &&
        (date.day === undefined || date.day === other.day),
    );
    if (!given && !lowerEvidence.includes(date.text.toLowerCase())) unverified.push(`date "${date.text}"`);
  }

  const taken = [...links, ...dates];
  const namedBy = `${evidence}\n${options.question ?? ""}`;
  for (const name of findNames(claim, taken)) if (!namesIn(name, namedBy)) unverified.push(`name "${name}"`);

  const sourceTerms = new Set(analyzeText(evidence));
  const clauses = joinShortClauses(splitClauses(claim));
  const uncoveredClauses: string[] = [];
  for (const clause of clauses) {
    const derivations = derivationsNamed(clause);
    const clauseTaken = [...findLinkShapes(clause), ...findDates(clause)];
    for (const number of findNumbers(clause, clauseTaken)) {
      if (accounted.has(number.value)) continue;
      if (isPrinted(number, amounts)) continue;
      if (!number.year && isDerived(number, amounts, derivations)) continue;
      unverified.push(`number "${number.text}"`);
    }
    const terms = contentTerms(clause);
    if (clauses.length < 2 || terms.length === 0) continue;
    const held = terms.filter((term) => sourceTerms.has(term)).length;
    if (held / terms.length < MIN_CLAUSE_COVERAGE) uncoveredClauses.push(clause);
  }
  return { supported: unverified.length === 0 && uncoveredClauses.length === 0, unverified, uncoveredClauses };
}
