/**
 * Holds each checkable part of an answer sentence to the text of the sources that support it (issues
 * #30, #40): a sentence whose meaning is close to a source sentence still fails when it adds what the
 * source does not give, or says of one thing what the source says of another.
 *
 * - Every number, in digits or words, must be printed in the source at its scale and in its unit
 *   (claim-numbers.ts), or be computed from the source's numbers by a computation the sentence names
 *   (calculation-check.ts), or be a number of a checked fact the answer was given. A printed number
 *   must be said of what the sentence says it of: the part of the source that prints it (its clause,
 *   or a table row's label and cell) must hold the years the sentence's clause gives, when the passage
 *   gives years, and the passage must hold the clause's names (claim-binding.ts).
 * - Every date must be one the source gives, and every year, date and name must stand in a passage that
 *   shares a word with the clause it qualifies ("the budget for 2024" is not a passage's "moves in 2024").
 * - Every link or domain, defanged forms included (`evil(.)com`), must be one the source holds, as
 *   written (only the scheme and a trailing slash may differ).
 * - Every code (`AES-256`, `Q3`) must be the source's own, as written; the question cannot vouch for one.
 * - Every name (a capitalised word, an acronym) must appear in the source or the question.
 * - A clause that mostly restates a source clause must agree with it on negation ("did retain" for
 *   "did not retain" fails).
 * - Every clause ("…, after confirming their identity at …") must be made mostly of the source's words,
 *   so a clause appended to a supported sentence is not carried by it.
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
import { normalizeLink } from "../citations/literal-links.js";
import { type Calculation, derivationsNamed, isDerived, printedAmounts } from "../compose/calculation-check.js";
import { clauseSpans, negationCount, partAround } from "./claim-binding.js";
import {
  codeKey,
  findCodes,
  findDates,
  findLinks,
  findNames,
  findNumbers,
  type Span,
  type StatedNumber,
  splitClauses,
} from "./claim-extraction.js";
import { matchingNumbers, matchingYears, type PrintedNumber, printedNumbersOf } from "./claim-numbers.js";

/** Share of a clause's content words the source must hold. */
export const MIN_CLAUSE_COVERAGE = 0.5;

/**
 * Share of a claim clause's content words a source clause must hold for their negations to be
 * compared, and the fewest content words a clause needs for it: a looser match pairs a clause with one
 * that negates something else (Northwind calibration: 0.6 against whole sentences too cost 31 of 716
 * correct claims).
 */
const POLARITY_OVERLAP = 0.8;
const POLARITY_MIN_TERMS = 3;
/** Share of the source clause's content words the claim clause must hold for it to be a restatement. */
const RESTATED_SHARE = 0.5;

/**
 * Words that carry no claim: function words the analyzer keeps, and the ones answers frame claims
 * with ("according to the document", "specifically", "also").
 */
export const FRAMING_TERMS: ReadonlySet<string> = new Set(
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

const escapePattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether a text names `name` (case aside) at the start of a word; a plural also matches its singular. */
function namesIn(name: string, text: string): boolean {
  const variants = [name, name.replace(/(?:es|s)$/u, "")].filter((variant) => variant.length >= 2);
  return variants.some((variant) => new RegExp(`(?<![\\p{L}\\p{N}])${escapePattern(variant)}`, "iu").test(text));
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

/** A sentence of a text given as one string: its lines, cut at sentence ends. */
function passagesOf(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(])/u)
    .map((passage) => passage.trim())
    .filter((passage) => passage !== "");
}

/** What the claim is held to, read once. */
type Evidence = {
  passages: string[];
  /** Passages, titles and file names as one text (names and units are looked for in all of it). */
  text: string;
  titles: string;
  terms: Set<string>;
  printed: PrintedNumber[];
  amounts: number[];
};

function readEvidence(evidence: string | readonly string[], titles: readonly string[]): Evidence {
  const passages = typeof evidence === "string" ? passagesOf(evidence) : [...evidence];
  const text = [...passages, ...titles].join("\n");
  return {
    passages,
    text,
    titles: titles.join("\n"),
    terms: new Set(analyzeText(text)),
    printed: printedNumbersOf(passages),
    amounts: printedAmounts(text),
  };
}

/** Whether some passage holding `holds` shares a content word of `text` (a sentence) other than `own`'s. */
function sharesWordWith(evidence: Evidence, text: string, own: string, holds: (passage: string) => boolean): boolean {
  const ownTerms = new Set(analyzeText(own));
  const anchors = contentTerms(text).filter((term) => !ownTerms.has(term));
  if (anchors.length === 0) return true;
  return evidence.passages.some((passage) => {
    if (!holds(passage)) return false;
    const terms = new Set(analyzeText(passage));
    return anchors.some((term) => terms.has(term));
  });
}

/**
 * Whether one printed occurrence of a number is said of what the clause says it of: the part of the
 * passage that prints it (its clause, or a row's label and cell) holds the clause's years when the
 * passage gives any years, and each of the clause's names is in that part or the sources' titles, or
 * elsewhere in the sources when the part names nothing else ("the Paris office has 40 employees and
 * the Berlin office has 25" gives 40 of Paris, not of Berlin), or — named nowhere in the sources — in
 * the question.
 */
function isSaidOf(
  occurrence: PrintedNumber,
  clause: { years: readonly StatedNumber[]; names: readonly string[] },
  evidence: Evidence,
  question: string,
): boolean {
  const passage = evidence.passages[occurrence.passage] ?? "";
  const part = partAround(passage, occurrence.start);
  const passageYears = findNumbers(passage).filter((number) => number.year);
  if (clause.years.length > 0 && passageYears.length > 0) {
    const partYears = new Set(
      findNumbers(part)
        .filter((number) => number.year)
        .map((number) => number.value),
    );
    if (!clause.years.every((year) => partYears.has(year.value))) return false;
  }
  // A part that names something else says the number of that ("the Paris office has 40"); one that
  // names nothing takes the names around it (a plan's deductible row under the plan's name).
  const partNames = findNames(part).filter((name) => !clause.names.some((own) => namesIn(own, name)));
  return clause.names.every((name) => {
    if (namesIn(name, part) || namesIn(name, evidence.titles)) return true;
    // A name only the question gives (a table that never says "Nike") cannot be given to anything else.
    if (!namesIn(name, evidence.text)) return namesIn(name, question);
    return partNames.length === 0;
  });
}

/**
 * The numbers of one clause that the sources do not vouch for, as `number "…"` lines. A year is said of
 * what the clause says when a passage printing one of the clause's figures prints it too, or when a
 * passage printing the year shares a word with the sentence.
 */
function checkNumbers(
  clause: string,
  evidence: Evidence,
  options: {
    /** The whole sentence: a year is bound to what any of its clauses says. */
    sentence: string;
    accounted: ReadonlySet<number>;
    facts: readonly StatedNumber[];
    question: string;
    taken: Span[];
  },
): string[] {
  const derivations = derivationsNamed(clause);
  const numbers = findNumbers(clause, options.taken);
  const years = numbers.filter((number) => number.year);
  const names = findNames(clause, [...findLinks(clause), ...findDates(clause), ...findCodes(clause)]);
  const figurePassages = new Set<number>();
  // Figures first (a year may be bound through them), reported in the order the clause states them.
  const verdicts = new Map<StatedNumber, string>();
  for (const number of numbers) {
    if (number.year || options.accounted.has(number.value)) continue;
    // A checked fact the model was given may be repeated as it stands.
    if (options.facts.some((fact) => fact.value * fact.scale === number.value * number.scale)) continue;
    const printed = matchingNumbers(number, evidence.printed, evidence.text);
    if (printed.length > 0) {
      const saidOf = printed.filter((occurrence) => isSaidOf(occurrence, { years, names }, evidence, options.question));
      if (saidOf.length === 0) verdicts.set(number, `number "${number.text}" (printed of something else)`);
      for (const occurrence of saidOf) figurePassages.add(occurrence.passage);
      continue;
    }
    if (!isDerived(number, evidence.amounts, derivations)) verdicts.set(number, `number "${number.text}"`);
  }
  for (const year of years) {
    if (options.accounted.has(year.value)) continue;
    if (matchingYears(year, evidence.printed).length === 0) {
      verdicts.set(year, `number "${year.text}"`);
      continue;
    }
    const printsYear = (passage: string) => findNumbers(passage).some((number) => number.value === year.value);
    const withFigure = [...figurePassages].some((index) => printsYear(evidence.passages[index] ?? ""));
    if (!withFigure && !sharesWordWith(evidence, options.sentence, year.text, printsYear))
      verdicts.set(year, `year "${year.text}" (not said of what the sentence says)`);
  }
  return numbers.flatMap((number) => {
    const verdict = verdicts.get(number);
    return verdict === undefined ? [] : [verdict];
  });
}

/**
 * A clause that restates a source clause with the opposite negation ("did retain" for "did not
 * retain"): the source clauses that say the same thing in nearly the same words (each holding most of
 * the other's content words) all disagree with it on whether it is negated. One that agrees is enough
 * (a source may say a thing and, elsewhere, its opposite of something else); a source clause that says
 * more than the claim clause, or less, is no restatement and is not compared.
 */
function contradictsPolarity(clause: string, evidence: Evidence): boolean {
  const terms = contentTerms(clause);
  if (terms.length < POLARITY_MIN_TERMS) return false;
  const negated = negationCount(clause) > 0;
  let restatements = 0;
  for (const passage of evidence.passages) {
    for (const span of clauseSpans(passage)) {
      const sourceTerms = contentTerms(span.text);
      if (sourceTerms.length === 0) continue;
      const held = terms.filter((term) => sourceTerms.includes(term)).length;
      const back = sourceTerms.filter((term) => terms.includes(term)).length;
      if (held / terms.length < POLARITY_OVERLAP || back / sourceTerms.length < RESTATED_SHARE) continue;
      if (negationCount(span.text) > 0 === negated) return false;
      restatements += 1;
    }
  }
  return restatements > 0;
}

export function checkClaims(options: {
  /** The sentence, markers stripped (verify-answer.ts's claimText). */
  claim: string;
  /**
   * The supporting sources' passages (sentences, table rows; sentences that address the model already
   * left out), or their text as one string (cut into sentences here).
   */
  evidence: string | readonly string[];
  /** The supporting sources' titles and file names: answers name a source by them. */
  titles?: readonly string[];
  /** A calculation the sentence writes out that checked out: its inputs and result are accounted for. */
  calculation?: Calculation | null;
  /**
   * The question asked: the names it gives count as given ("What was Nike's revenue?" answered from a
   * table that never says "Nike"). Only names: the asker's words cannot vouch for a number, a code or a link.
   */
  question?: string;
  /** Statements the answer was given as already checked (a table cell, a calculation): their numbers stand. */
  facts?: readonly string[];
}): ClaimCheck {
  const { claim } = options;
  const question = options.question ?? "";
  const evidence = readEvidence(options.evidence, options.titles ?? []);
  const unverified: string[] = [];
  const accounted = new Set(
    options.calculation ? [...options.calculation.operands.map(Math.abs), Math.abs(options.calculation.stated)] : [],
  );
  const facts = (options.facts ?? []).flatMap((fact) => findNumbers(fact));

  const links = findLinks(claim);
  const sourceLinks = new Set(findLinks(evidence.text).map((link) => linkKey(link.link)));
  for (const link of links) if (!sourceLinks.has(linkKey(link.link))) unverified.push(`link "${link.text}"`);

  const dates = findDates(claim);
  const sourceDates = findDates(evidence.text);
  const lowerEvidence = evidence.text.toLowerCase();
  for (const date of dates) {
    const given = sourceDates.some(
      (other) =>
        (date.year === undefined || date.year === other.year) &&
        (date.month === undefined || date.month === other.month) &&
        (date.day === undefined || date.day === other.day),
    );
    if (!given && !lowerEvidence.includes(date.text.toLowerCase())) unverified.push(`date "${date.text}"`);
  }

  const codes = findCodes(claim, [...links, ...dates]);
  const sourceCodes = new Set(findCodes(evidence.text).map((code) => codeKey(code.text)));
  for (const code of codes) if (!sourceCodes.has(codeKey(code.text))) unverified.push(`code "${code.text}"`);

  const taken: Span[] = [...links, ...dates, ...codes];
  const namedBy = `${evidence.text}\n${question}`;
  for (const name of findNames(claim, taken)) if (!namesIn(name, namedBy)) unverified.push(`name "${name}"`);

  const clauses = joinShortClauses(splitClauses(claim));
  const uncoveredClauses: string[] = [];
  for (const clause of clauses) {
    const clauseTaken = [...findLinks(clause), ...findDates(clause), ...findCodes(clause)];
    unverified.push(
      ...checkNumbers(clause, evidence, { sentence: claim, accounted, facts, question, taken: clauseTaken }),
    );
    for (const date of findDates(clause)) {
      const printsDate = (passage: string) => findDates(passage).some((other) => sameDate(other, date));
      if (!evidence.passages.some(printsDate)) continue;
      if (!sharesWordWith(evidence, claim, date.text, printsDate))
        unverified.push(`date "${date.text}" (not said of what the sentence says)`);
    }
    for (const name of findNames(clause, clauseTaken)) {
      const inPassages = evidence.passages.some((passage) => namesIn(name, passage));
      // A name only the question or a title gives qualifies the whole answer, not one passage.
      if (!inPassages || namesIn(name, evidence.titles)) continue;
      // A heading or a list item ("Coordination with Medicare", "CT scans") names without a sentence to share.
      if (evidence.passages.some((passage) => namesIn(name, passage) && isHeadingOrItem(passage))) continue;
      if (!sharesWordWith(evidence, claim, name, (passage) => namesIn(name, passage)))
        unverified.push(`name "${name}" (not said of what the sentence says)`);
    }
    if (contradictsPolarity(clause, evidence)) unverified.push(`negation "${clause}"`);
    const terms = contentTerms(clause);
    if (clauses.length < 2 || terms.length === 0) continue;
    const held = terms.filter((term) => evidence.terms.has(term)).length;
    if (held / terms.length < MIN_CLAUSE_COVERAGE) uncoveredClauses.push(clause);
  }
  return { supported: unverified.length === 0 && uncoveredClauses.length === 0, unverified, uncoveredClauses };
}

/** Most words of a heading or list item. */
const MAX_HEADING_WORDS = 8;

/** A passage with no sentence end and a few words: a heading or a list item. */
function isHeadingOrItem(passage: string): boolean {
  const text = passage.trim();
  return !/[.!?:;]["”)]?$/u.test(text) && text.split(/\s+/).length <= MAX_HEADING_WORDS;
}

function sameDate(
  left: { year?: number; month?: number; day?: number },
  right: { year?: number; month?: number; day?: number },
): boolean {
  return (
    (right.year === undefined || left.year === undefined || left.year === right.year) &&
    (right.month === undefined || left.month === right.month) &&
    (right.day === undefined || left.day === right.day)
  );
}
