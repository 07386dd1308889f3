/**
 * Checks that make a near miss fail even when two questions read alike: an embedding puts "Do you
 * encrypt data at rest?" right beside "…in transit?", and "Do you…" beside "Do you never…", yet the
 * approved answer to one is wrong for the other. Each guard compares what the two questions say about
 * one thing — polarity, a pair of contrasting terms, the numbers and years, the names — and reports the
 * first difference. Pure functions; precision comes first, so when in doubt they report a difference.
 */

import { CONTRAST_GROUPS, type ContrastGroup } from "./contrast-terms.js";

export type NearMissKind = "negation" | "form" | "contrast" | "number" | "name";

export type NearMiss = { kind: NearMissKind; detail: string };

/** Words that turn a question around. "or not" ("whether or not") asks both ways and is dropped first. */
const NEGATION_WORDS = new Set([
  "not",
  "no",
  "never",
  "none",
  "nobody",
  "nothing",
  "neither",
  "nor",
  "without",
  "cannot",
  "unable",
  "lack",
  "lacks",
  "exclude",
  "excludes",
  "excluded",
  "excluding",
  "except",
  "unencrypted",
  "unprotected",
  "unauthenticated",
  "unmanaged",
  "unmonitored",
  "unpatched",
]);

const NUMBER_WORDS: Record<string, string> = {
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
  ten: "10",
  eleven: "11",
  twelve: "12",
  twenty: "20",
  thirty: "30",
  fifty: "50",
  hundred: "100",
};

/**
 * Capitalised words that are not names: question words, pronouns, and words a sentence or a title
 * capitalises anyway. Anything else capitalised (or an acronym) is taken as a name.
 */
const NOT_NAMES = new Set(
  (
    "a an the and or but if is are am was were be been do does did done doing have has had having can could will would " +
    "shall should may might must what which who whom whose when where why how i you your yours we our ours they their " +
    "theirs it its he she his her this that these those there here please describe explain list provide indicate " +
    "confirm state specify yes no not of for to in on at by with from as all any each every some how many much " +
    "organization organisation company vendor service product department team office plan program programme " +
    "policy group division unit center centre"
  ).split(" "),
);

type Analysed = { text: string; tokens: string[]; names: Set<string> };

/** Lower-case words, with contractions spelt out ("don't" → "do not") and punctuation gone. */
function normalise(text: string): string {
  return text
    .normalize("NFKC")
    .replaceAll("’", "'")
    .toLowerCase()
    .replace(/\bcan't\b/g, "cannot")
    .replace(/\bwon't\b/g, "will not")
    .replace(/n't\b/g, " not")
    .replace(/[^\p{L}\p{N}%$.\-/ ]+/gu, " ")
    .replace(/(?<!\p{N})[./]|[./](?!\p{N})/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Stored questions are compared again and again: their analysis is kept (a bounded cache). */
const analysed = new Map<string, Analysed & { terms: Map<ContrastGroup, Set<number>> }>();
const MAX_ANALYSED = 5_000;

function analyse(question: string): Analysed & { terms: Map<ContrastGroup, Set<number>> } {
  const cached = analysed.get(question);
  if (cached) return cached;
  const text = normalise(question);
  const tokens = text.split(" ").filter((token) => token.length > 0);
  const terms = new Map(CONTRAST_GROUPS.map((group) => [group, termsNamed(text, group)]));
  const result = { text, tokens, names: namesIn(question), terms };
  if (analysed.size >= MAX_ANALYSED) analysed.clear();
  analysed.set(question, result);
  return result;
}

/**
 * Capitalised words and acronyms that are not sentence furniture ("Northwind", "Standard", "SOC", "AWS").
 * A sentence's first word is capitalised anyway: it counts only as an acronym or when the text
 * capitalises it elsewhere too.
 */
function namesIn(question: string): Set<string> {
  const names = new Set<string>();
  const text = question.normalize("NFKC");
  const words = [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}&'’-]*/gu)];
  const capitalisedInside = new Set<string>();
  const found: Array<{ lower: string; sentenceStart: boolean; acronym: boolean }> = [];
  for (const match of words) {
    const bare = match[0].replace(/['’]s?$/u, "");
    if (!/^\p{Lu}/u.test(bare)) continue;
    const before = text.slice(0, match.index).trimEnd();
    const sentenceStart = before === "" || /[.?!:;(\n"“]$/u.test(before);
    const lower = bare.toLowerCase();
    if (NOT_NAMES.has(lower)) continue;
    if (!sentenceStart) capitalisedInside.add(lower);
    found.push({ lower, sentenceStart, acronym: /^\p{Lu}[\p{Lu}\p{N}&-]+$/u.test(bare) });
  }
  for (const { lower, sentenceStart, acronym } of found) {
    if (!sentenceStart || acronym || capitalisedInside.has(lower)) names.add(lower);
  }
  return names;
}

const CLOSED_QUESTION_WORDS = new Set(
  "do does did is are was were can could will would should shall must may have has had".split(" "),
);
const OPEN_QUESTION_WORDS = new Set("what which who whom whose when where why how describe explain list".split(" "));

/**
 * Whether the question asks yes or no ("Does the plan require prior authorization?") or for a
 * description ("What is prior authorization?"): the first question word of its last question
 * sentence decides. Null when neither is found.
 */
function questionForm(text: string): "closed" | "open" | null {
  const sentences = text.split(/(?<=[?])\s+|(?<=[.!:])\s+(?=\p{Lu})/u).filter((sentence) => sentence.trim() !== "");
  const asking = [...sentences].reverse().find((sentence) => sentence.includes("?")) ?? sentences.at(-1) ?? text;
  for (const word of normalise(asking).split(" ")) {
    if (OPEN_QUESTION_WORDS.has(word)) return "open";
    if (CLOSED_QUESTION_WORDS.has(word)) return "closed";
  }
  return null;
}

/** Parity of negations: two questions that differ in it ask opposite things. */
function isNegated(analysed: Analysed): boolean {
  // "(Yes/No)" after a question offers both answers; "whether or not" asks both ways.
  const text = analysed.text.replace(/\bwhether or not\b|\bor not\b|\byes no\b|\bno yes\b/g, " ");
  let count = 0;
  for (const token of text.split(" ")) if (NEGATION_WORDS.has(token)) count += 1;
  return count % 2 === 1;
}

/** The phrase as a whole word or words; a hyphen joins words ("non-production" does not name "production"). */
function phrasePattern(phrase: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}-])${escapeRegExp(phrase)}(?![\\p{L}\\p{N}-])`, "gu");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Each group's spellings, longest first, with their patterns compiled once. */
const GROUP_SPELLINGS = new Map(
  CONTRAST_GROUPS.map((group) => [
    group,
    group.terms
      .flatMap((spellingsOfTerm, index) =>
        spellingsOfTerm.map((spelling) => ({ spelling, index, pattern: phrasePattern(spelling) })),
      )
      .sort((left, right) => right.spelling.length - left.spelling.length),
  ]),
);

/** Which terms of the group the text names, by index; a longer spelling hides the shorter ones inside it. */
function termsNamed(text: string, group: ContrastGroup): Set<number> {
  const named = new Set<number>();
  let remaining = text;
  for (const { index, pattern } of GROUP_SPELLINGS.get(group) ?? []) {
    pattern.lastIndex = 0;
    if (!pattern.test(remaining)) continue;
    named.add(index);
    pattern.lastIndex = 0;
    remaining = remaining.replace(pattern, " ");
  }
  return named;
}

function sameSet<T>(left: Set<T>, right: Set<T>): boolean {
  return left.size === right.size && [...left].every((value) => right.has(value));
}

/** Numbers, years and percentages the question gives, in one spelling ("2,000" = "2000", "five" = "5"). */
function numbersIn(analysed: Analysed): Set<string> {
  const numbers = new Set<string>();
  for (const token of analysed.tokens) {
    const word = NUMBER_WORDS[token];
    if (word !== undefined) {
      numbers.add(word);
      continue;
    }
    for (const match of token.matchAll(/\p{N}[\p{N},]*(?:\.\p{N}+)?/gu)) {
      const value = Number(match[0].replaceAll(",", ""));
      if (Number.isFinite(value)) numbers.add(String(value));
    }
  }
  return numbers;
}

function describeTerms(group: ContrastGroup, named: Set<number>): string {
  if (named.size === 0) return "none";
  return [...named].map((index) => group.terms[index]?.[0] ?? "?").join("/");
}

type NamedQuestion = { raw: string; analysed: Analysed; acronyms: Map<string, string[]> };

function question(raw: string, analysed: Analysed): NamedQuestion {
  return { raw, analysed, acronyms: acronymsOf(raw) };
}

/** Runs of 2–6 capitalised words, by their initials: "Transport Layer Security" → "tls". */
function acronymsOf(raw: string): Map<string, string[]> {
  const acronyms = new Map<string, string[]>();
  for (const match of raw
    .normalize("NFKC")
    .matchAll(/\p{Lu}[\p{L}'’-]*(?:\s+(?:of\s+|and\s+|for\s+)?\p{Lu}[\p{L}'’-]*){1,5}/gu)) {
    const words = match[0].split(/\s+/).filter((word) => /^\p{Lu}/u.test(word));
    acronyms.set(
      words.map((word) => word[0]?.toLowerCase() ?? "").join(""),
      words.map((word) => word.toLowerCase()),
    );
  }
  return acronyms;
}

const GROUP_TERMS = new Set(CONTRAST_GROUPS.flatMap((group) => group.terms.flat()));

/** Names `from` gives that `to` gives neither as a word nor as an acronym (either way round). */
function missingNames(from: NamedQuestion, to: NamedQuestion): string[] {
  const words = new Set(to.analysed.tokens);
  const expandedInFrom = new Set(
    [...from.acronyms.entries()].filter(([acronym]) => words.has(acronym)).flatMap(([, run]) => run),
  );
  return [...from.analysed.names].filter(
    (name) =>
      !words.has(name) &&
      !GROUP_TERMS.has(name) &&
      !to.acronyms.has(name) &&
      !expandedInFrom.has(name) &&
      // "Transport Layer Security (TLS)": the expansion of an acronym both give.
      ![...from.acronyms.entries()].some(
        ([acronym, run]) => run.includes(name) && from.analysed.tokens.includes(acronym),
      ),
  );
}

/** The first way in which the two questions ask different things, or null when none is found. */
export function findNearMiss(asked: string, approved: string): NearMiss | null {
  const left = analyse(asked);
  const right = analyse(approved);

  if (isNegated(left) !== isNegated(right)) {
    return { kind: "negation", detail: "one question is negated, the other is not" };
  }

  const leftForm = questionForm(asked);
  const rightForm = questionForm(approved);
  if (leftForm !== null && rightForm !== null && leftForm !== rightForm) {
    return { kind: "form", detail: `a ${leftForm} question vs a ${rightForm} one` };
  }

  for (const group of CONTRAST_GROUPS) {
    const leftTerms = left.terms.get(group) ?? new Set<number>();
    const rightTerms = right.terms.get(group) ?? new Set<number>();
    if (sameSet(leftTerms, rightTerms)) continue;
    const bothName = leftTerms.size > 0 && rightTerms.size > 0;
    if (bothName || group.scoped) {
      return {
        kind: "contrast",
        detail: `${group.name}: ${describeTerms(group, leftTerms)} vs ${describeTerms(group, rightTerms)}`,
      };
    }
  }

  const leftNumbers = numbersIn(left);
  const rightNumbers = numbersIn(right);
  if (!sameSet(leftNumbers, rightNumbers)) {
    return {
      kind: "number",
      detail: `${[...leftNumbers].join(", ") || "none"} vs ${[...rightNumbers].join(", ") || "none"}`,
    };
  }

  // A name on one side must appear on the other, capitalised or not ("Standard plan" = "standard plan"),
  // or as its acronym ("European Union" = "EU"). Terms of the contrast groups were compared above.
  const missingRight = missingNames(question(asked, left), question(approved, right));
  const missingLeft = missingNames(question(approved, right), question(asked, left));
  if (missingRight.length > 0 || missingLeft.length > 0) {
    return { kind: "name", detail: `${[...missingRight, ...missingLeft].join(", ")} named on one side only` };
  }
  return null;
}
