/**
 * Whether a questionnaire row's answer is supported well enough to be marked "answered" — a filled copy
 * goes back to a customer, and a confident answer quoting an unrelated passage is worse than a row left
 * for a person. Read from the Answer the chat pipeline returns, never from a second search:
 *
 * - **With a language model** (`answer.verification` present): supported only when the draft was
 *   verified against its sources (`outcome: "verified"`, every cited sentence held to the source it
 *   cites, write-verified-answer.ts). A draft that failed the check, a model that failed, or a check
 *   that failed leaves the quotes standing, but the row needs review.
 * - **Extractive** (no model): supported when
 *   0. the reader that chose the answer gives it a score of at least SUPPORT_SCORE (`answer.reading`: the
 *      likelihood that its passage states what was asked, however the question words it), or
 *   1. the answer leads with a direct answer worked out from cited evidence (`answer.value`: a figure
 *      from a table cell or a stated figure, a computation from such figures, a list, a yes/no verdict
 *      from the deciding sentence — the readers (src/answer/readers/) build these from cited passages only), or
 *   2. one cited passage's quote states it: it holds at least MIN_COVERAGE (80 %) of the question's
 *      content words (stemmed; stop words, function words and the questionnaire's own framing —
 *      "describe" opening it, "your", "how long", "vendor" — left out), at least MIN_SHARED of them (a
 *      question with fewer is never supported by a quote; a question of two needs them in its order, a
 *      few words apart); every name the question gives ("Northwind Health Plus", "ETag") in
 *      the passage; the identifiers a question names the document by — "FIPS 200" — may stand in the
 *      cited document's title or file name); a question asking for a quantity ("How many …", "What is the
 *      minimum length …") is stated only by a quote with a number (or a frequency: "annually") the
 *      question does not name; a question asking what a term is ("What is patch management?", "What
 *      does Purge mean for media sanitization?") only by a quote with a sentence, list item or glossary
 *      line that starts with the term and goes on as a definition does ("Patch management is the
 *      process …", "Purge applies …", "Community cloud. The cloud infrastructure …"; not "Enterprise
 *      patch management is dependent on …"). Words scattered over several quotes do not count.
 *
 * Anything else with sources is "needs review" (the best source is kept for the reviewer); no sources
 * relevant enough is "not found in the documents" (answer.noContext), decided by the pipeline.
 */
import type { Answer } from "../../answer/answer-events.js";
import { analyzeText } from "../../retrieval/text-analyzer.js";

/** Share of the question's content words one quoted passage must hold (see docs/benchmarks.md, #32). */
export const MIN_COVERAGE = 0.8;
/**
 * The reader's score (src/answer/readers/: the likelihood its answer states what was asked) at which a row
 * is "answered" on its answer alone, whatever words the question uses; below it, the quote rule below
 * decides. Set on the four tuning sets (bench/enterprise-questionnaire*.jsonl, keyword-only, 2026-11-29:
 * `bench/questionnaire-support-score.ts`) as the highest score that still answers 70 % of their answerable
 * rows: there "answered" is right 50 of 63 times (0.794; the quote rule alone: 38/43) — the sets never
 * reach 0.90 at any score. The fresh set never tuned on (enterprise-questionnaire-fresh-4.jsonl): 10/10.
 */
export const SUPPORT_SCORE = 0.85;
/** Content words one quoted passage must share with the question (a question with fewer is never stated by a quote). */
export const MIN_SHARED = 2;

/**
 * Words that frame a questionnaire question rather than say what it is about: asking words, the
 * respondent ("your company", "the vendor"), quantity words answered by a number rather than repeated
 * ("how long", "how many", "how often"), and the function words Lucene's short stop list keeps
 * ("about", "after", "only", "its").
 */
const FRAMING = new Set(
  analyzeText(
    "what which who whom whose when where why how do does did done you your yours we our i my me " +
      "can could would should shall may might must have has had been being any all each every also " +
      "please company organization organisation vendor supplier " +
      "long many much often frequently currently exist exists existing there " +
      "about above after again against along among around before behind below beside between beyond during " +
      "except from inside near off onto out outside over since than through throughout toward towards under " +
      "until upon within without up down its itself them those this these which whose only just even still " +
      "very more most less least own same other another both either neither few several some whether per via",
  ),
);

/**
 * The verbs a questionnaire opens with ("Describe …", "Please provide …", "1.2 List …"): framing there,
 * but the very thing asked in "What does the ETag header field provide?".
 */
const OPENING_VERB =
  /^(?:[([]?[a-z0-9]{1,4}[.)\]:]\s+)?(?:please\s+)?(?:describe|explain|provide|list|specify|state|indicate|confirm|detail|outline|identify|summari[sz]e|include|enumerate|attach|upload|give)\b/i;

/** Questions answered by a number or a frequency ("How many …", "What is the minimum length …"). */
const QUANTITY_QUESTION =
  /^(?:how (?:many|much|long|often|old|large|big|far|soon|frequently)|what (?:(?:is|are|was) the )?(?:number|percentage|percent|share|amount|length|size|limit|duration|period|frequency|age|minimum|maximum|min|max)\b)/i;
/** A number, in digits or words, or a frequency. */
const QUANTITY =
  /(?:\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|once|twice|annual|annually|daily|weekly|monthly|quarterly|yearly|hourly|biweekly|semiannually)\b)/i;

/** "What is patch management?", "What does Purge mean …?", "What does the Clear method do?": the term defined. */
const DEFINITION_QUESTION =
  /^(?:what|who)\s+(?:is|are)\s+(?:an?\s+|the\s+)?([^?]+?)\s*\??$|^what\s+does\s+(?:an?\s+|the\s+)?([^?]+?)\s+(?:mean|do|stand for)\b/i;
/**
 * What follows the term in a defining sentence: "is the process …", "are those …", "means …", "refers
 * to …", "applies …", "leverages …" — or a glossary's separator ("Community cloud. The cloud
 * infrastructure …", "Media Sanitization | A general term …"). "Patch management is dependent on …" is no
 * definition.
 */
const DEFINING_CONTINUATION =
  /^(?:(?:is|are|was|were)\s+(?:a|an|the|one|any|those|that|what|when|where|how|defined|used|made|composed|described)\b|(?:means?|refers?\s+to|applies|apply|renders?|consists?\s+of|comprises?|denotes?|represents?|describes?|leverages?|involves?|encompasses|includes?|provides?|is\s+defined)\b|[.:|—–-]\s)/i;
/** Where a sentence (or a list item, or a glossary line) begins within a quote. */
const SENTENCE_START = /(?:^|[.!?;:•|]\s+)(?:(?:a|an|the)\s+)?/gi;

export type SupportVerdict = {
  supported: boolean;
  /** Why, in words a reviewer reads in the Status cell when it is not. */
  reason: string;
  /** The citation (index in answer.citations) whose quote states it, when one passage decided. */
  citation?: number;
};

/** The question's content words, stemmed, framing left out. */
export function questionTerms(question: string): string[] {
  const asked = question.trim().replace(OPENING_VERB, "");
  return [...new Set(analyzeText(asked).filter((term) => !FRAMING.has(term)))];
}

/**
 * The names a question gives — capitalised words after its first ("Northwind Health Plus", "PerksPlus",
 * "ETag"), acronyms and identifiers ("FIPS", "200") — as stems: what makes it ask about one thing.
 */
export function questionNames(question: string): string[] {
  const words = question.trim().replace(OPENING_VERB, "").split(/\s+/).slice(1);
  const bare = words.map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""));
  const names = bare.filter((word) => /^\p{Lu}/u.test(word) || /\d/.test(word));
  // A question in Title Case names nothing by its capitals.
  if (names.length > bare.length / 2) return [];
  return [...new Set(analyzeText(names.join(" ")).filter((term) => !FRAMING.has(term)))];
}

/** How much of the question one passage holds: shared content words and their share. */
export function passageCoverage(terms: string[], passage: string): { shared: number; ratio: number } {
  if (terms.length === 0) return { shared: 0, ratio: 0 };
  const words = new Set(analyzeText(passage));
  const shared = terms.filter((term) => words.has(term)).length;
  return { shared, ratio: shared / terms.length };
}

/** The short term a definition question asks about ("patch management"), or null for other questions. */
function definedTerm(question: string): string | null {
  const match = DEFINITION_QUESTION.exec(question.trim());
  const term = (match?.[1] ?? match?.[2] ?? "").replace(/\s+(?:for|in|of)\s+.*$/i, "").trim();
  // "What is the minimum length of a memorized secret …" asks for a value, not a definition.
  if (
    term === "" ||
    term.split(/\s+/).length > 3 ||
    /^(minimum|maximum|number|length|purpose|difference|process|role)\b/i.test(term)
  )
    return null;
  return term;
}

/**
 * Whether the quote defines the term: a sentence (or list item, or glossary line) that starts with the
 * term — after an article, and before an optional parenthesis ("Cryptographic Erase (CE) leverages …")
 * — and goes on as a definition does (DEFINING_CONTINUATION).
 */
function defines(quote: string, term: string): boolean {
  const words = term.split(/\s+/).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const termPattern = new RegExp(`^${words.join("[\\s-]+")}\\w*(?:\\s*\\([^)]{1,40}\\))?\\s*`, "i");
  for (const start of quote.matchAll(SENTENCE_START)) {
    const rest = quote.slice((start.index ?? 0) + start[0].length);
    const named = termPattern.exec(rest);
    if (named && DEFINING_CONTINUATION.test(`${rest.slice(named[0].length)} `)) return true;
  }
  return false;
}

/** Content words at most this many make a short question, whose words must stand together in the quote. */
const SHORT_QUESTION_TERMS = 2;
/** Content words between a short question's words in the quote, at most. */
const TOGETHER_WITHIN = 4;

/**
 * Whether the terms occur in the quote in their order, each within a few content words of the one
 * before: stop words do not count ("Backups are taken every night and kept …" holds "backups … kept").
 */
function together(terms: string[], quote: string): boolean {
  const stems = analyzeText(quote);
  const from = (termIndex: number, position: number): boolean => {
    if (termIndex === terms.length) return true;
    const limit = termIndex === 0 ? stems.length : Math.min(stems.length, position + TOGETHER_WITHIN + 1);
    for (let index = position; index < limit; index++) {
      if (stems[index] === terms[termIndex] && from(termIndex + 1, index + 1)) return true;
    }
    return false;
  };
  return from(0, 0);
}

/** Numbers the question itself names ("SP 800-171", "FIPS 200") answer nothing. */
function newQuantity(question: string, quote: string): boolean {
  const asked = new Set(question.match(/\d+/g) ?? []);
  const digits = (quote.match(/\d+/g) ?? []).some((number) => !asked.has(number));
  return digits || QUANTITY.test(quote.replace(/\d+/g, ""));
}

/**
 * Whether one quote states what the question asks (see the module comment): most of its content words,
 * and — for a question asking for a number — a number the question does not name; for a question
 * asking what a term is — the term followed by a defining verb.
 */
export function quoteStatesQuestion(question: string, quote: string, documentName = ""): boolean {
  const terms = questionTerms(question);
  if (terms.length === 0) return false;
  // "What does Purge mean for media sanitization?" is answered by "Purge applies …": the term, defined.
  const term = definedTerm(question);
  if (term !== null) return passageCoverage(analyzeText(term), quote).ratio === 1 && defines(quote, term);
  // A question naming the document by its identifiers ("… the FIPS 200 requirements …") is answered
  // by a sentence of it: those words (numbers, acronyms) may stand in its title or file name.
  const named = new Set(analyzeText(documentName.replace(/[-_.]+/g, " ").replace(/(\d+)/g, " $1 ")));
  const identifiers = new Set(
    analyzeText((question.match(/\b(?:[A-Z]{2,}\w*|\w*\d\w*)\b/g) ?? []).join(" ")).filter((term) => named.has(term)),
  );
  const { shared } = passageCoverage(
    terms.filter((term) => !identifiers.has(term)),
    quote,
  );
  const coverage = {
    shared: shared + identifiers.size,
    ratio: terms.length === 0 ? 0 : (shared + identifiers.size) / terms.length,
  };
  // One word in common is chance ("How many offices …?" and "… Flight Standards Office"): two at least.
  if (terms.length < MIN_SHARED || coverage.ratio < MIN_COVERAGE || coverage.shared < MIN_SHARED) return false;
  // Every name the question gives is in the passage (or, an identifier, in the document's name).
  const quoted = new Set(analyzeText(quote));
  if (questionNames(question).some((name) => !quoted.has(name) && !identifiers.has(name))) return false;
  // Two words anywhere in a sentence are chance ("risk" … "function"): a short question's words stand together.
  if (terms.length <= SHORT_QUESTION_TERMS && !together(terms, quote)) return false;
  return !QUANTITY_QUESTION.test(question.trim()) || newQuantity(question, quote);
}

export function judgeSupport(question: string, answer: Answer): SupportVerdict {
  if (answer.noContext || answer.citations.length === 0) {
    return { supported: false, reason: "the documents do not cover it" };
  }
  const outcome = answer.verification?.outcome;
  if (outcome !== undefined) {
    return outcome === "verified"
      ? { supported: true, reason: "the language model's answer was verified against its sources" }
      : { supported: false, reason: "the language model's draft could not be verified; the quotes stand" };
  }
  if (answer.value !== undefined) {
    return { supported: true, reason: "a direct answer worked out from the cited evidence" };
  }
  // The reader that chose the answer says how likely its quote states what was asked, whatever words it uses.
  if (answer.reading !== undefined && answer.reading.score >= SUPPORT_SCORE) {
    return { supported: true, reason: "the answer's reader found a passage that states what the question asks" };
  }
  const stating = answer.citations.findIndex((citation) =>
    quoteStatesQuestion(question, citation.quote, `${citation.title} ${citation.file}`),
  );
  if (stating !== -1)
    return { supported: true, reason: "a cited passage states what the question asks", citation: stating };
  return {
    supported: false,
    reason: "no cited passage states what the question asks; the closest source is given",
  };
}
