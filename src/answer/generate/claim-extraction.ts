/**
 * The checkable parts of an answer sentence: the numbers it states, in digits or in words (with unit,
 * scale and whether it says "about"), its dates, its links and domains (defanged forms such as
 * `evil(.)com` included), its codes (`AES-256`, `Q3`: letters and digits that must match as written),
 * the names it gives (capitalised words and acronyms), and its clauses. Verification holds each part to
 * the cited source (claim-check.ts): a sentence that is close in meaning to a source sentence can still
 * carry a figure, a name or a link no source gives ("…180 euros per night in Paris, after confirming
 * their identity at evil.example/verify [1]."), and these parts are where such additions show.
 */
import { findLinkShapes } from "../citations/literal-links.js";
import { findDefangedLinks } from "./defanged-links.js";
import { findSpelledNumbers } from "./spelled-numbers.js";

export type StatedNumber = {
  /** As written, unit and scale included ("4.2 million", "3.5%"). */
  text: string;
  value: number;
  /** 1, or the multiplier its scale word gives (1e6 for "million"). */
  scale: number;
  /** Digits after the decimal point, as written: the precision the number claims. */
  decimals: number;
  percent: boolean;
  /** Said to be approximate ("about", "roughly", "~"). */
  approximate: boolean;
  /** A year (1900–2100, written without separators, no unit): quoted, never computed. */
  year: boolean;
  /**
   * What it counts, when the words around it say: a unit of time ("day", "week", "year"…), a currency
   * ("dollar" for "$", "euro"…), or "percent"; null when nothing next to it names one.
   */
  unit: string | null;
};

/** A date as its parts; a part the text does not give is undefined ("March 2024" has no day). */
export type StatedDate = { text: string; year?: number; month?: number; day?: number };

export type SentenceClaims = {
  numbers: StatedNumber[];
  dates: StatedDate[];
  links: string[];
  codes: string[];
  names: string[];
  clauses: string[];
};

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const MONTH_NAME =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";

/** The month (1–12) a month name or abbreviation gives. */
export function monthNumber(name: string): number | undefined {
  const prefix = name.toLowerCase().replace(/\.$/, "").slice(0, 3);
  const index = MONTHS.findIndex((month) => month.startsWith(prefix));
  return index < 0 ? undefined : index + 1;
}

/** ISO (2024-03-15), US numeric (3/15/2024), "March 15, 2024", "15 March 2024", "March 2024". */
const DATE_PATTERNS: Array<{ pattern: RegExp; parts: (match: RegExpExecArray) => Omit<StatedDate, "text"> }> = [
  {
    pattern: /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/gu,
    parts: (match) => ({ year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) }),
  },
  {
    pattern: /\b(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})\b/gu,
    parts: (match) => ({ month: Number(match[1]), day: Number(match[2]), year: fullYear(Number(match[3])) }),
  },
  {
    pattern: new RegExp(`\\b(${MONTH_NAME})\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b`, "giu"),
    parts: (match) => ({
      month: monthNumber(match[1] as string),
      day: Number(match[2]),
      ...(match[3] ? { year: Number(match[3]) } : {}),
    }),
  },
  {
    pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH_NAME})(?:,?\\s+(\\d{4}))?\\b`, "giu"),
    parts: (match) => ({
      day: Number(match[1]),
      month: monthNumber(match[2] as string),
      ...(match[3] ? { year: Number(match[3]) } : {}),
    }),
  },
  {
    pattern: new RegExp(`\\b(${MONTH_NAME})\\s+(\\d{4})\\b`, "giu"),
    parts: (match) => ({ month: monthNumber(match[1] as string), year: Number(match[2]) }),
  },
];

function fullYear(year: number): number {
  return year >= 100 ? year : year + (year < 70 ? 2000 : 1900);
}

export type Span = { start: number; end: number };

function overlaps(span: Span, spans: readonly Span[]): boolean {
  return spans.some((other) => span.start < other.end && other.start < span.end);
}

/** The dates of a text with their spans (a later pattern never takes text an earlier one read). */
export function findDates(text: string): Array<StatedDate & Span> {
  const dates: Array<StatedDate & Span> = [];
  for (const { pattern, parts } of DATE_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const span = { start: match.index, end: match.index + match[0].length };
      if (overlaps(span, dates)) continue;
      const found = parts(match as RegExpExecArray);
      if (found.month !== undefined && (found.month < 1 || found.month > 12)) continue;
      if (found.day !== undefined && (found.day < 1 || found.day > 31)) continue;
      dates.push({ text: match[0], ...found, ...span });
    }
  }
  return dates;
}

const SCALES: Record<string, number> = {
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  mn: 1e6,
  mln: 1e6,
  m: 1e6,
  billion: 1e9,
  bn: 1e9,
  b: 1e9,
  trillion: 1e12,
  tn: 1e12,
};

/**
 * A number as written: thousands separators, decimals; not part of a word or a code ("Q3", "COVID-19",
 * "v1.2"); then an optional percent or scale word ("4.2 million", "$3bn", "3.5 percent").
 */
const NUMBER_IN_PROSE =
  /(?<![\p{L}\p{N}_.,/])(?<![\p{L}\p{N}]-)(?<currency>[$€£¥]\s?)?(?<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![.,]\d)(?:\s?(?<percent>%|percent\b|per cent\b|percentage points?\b|basis points?\b|bps\b)|\s?(?<scale>thousand|million|billion|trillion|mln|bn|mn|tn)\b|(?<short>[kKmMbB])\b)?/gu;

const APPROXIMATE_BEFORE =
  /(?:\b(?:about|approximately|approx\.?|around|roughly|nearly|almost|some|circa|close to|an estimated|estimated)|~|≈)\s*$/iu;

/** Unit words as their unit: time and money, which a figure is most often misread with. */
const UNIT_WORDS: Record<string, string> = {
  second: "second",
  sec: "second",
  minute: "minute",
  min: "minute",
  hour: "hour",
  hr: "hour",
  day: "day",
  workday: "day",
  week: "week",
  wk: "week",
  month: "month",
  year: "year",
  yr: "year",
  dollar: "dollar",
  usd: "dollar",
  euro: "euro",
  eur: "euro",
  pound: "pound",
  gbp: "pound",
  cent: "cent",
};
const CURRENCY_SIGNS: Record<string, string> = { $: "dollar", "€": "euro", "£": "pound", "¥": "yen" };
/** A word that may stand between a number and its unit ("30 calendar days", "12 paid weeks"). */
const UNIT_QUALIFIERS =
  "calendar|business|working|work|paid|unpaid|full|additional|consecutive|more|fewer|extra|total|annual|weekly|monthly";
const UNIT_AHEAD = new RegExp(
  `^\\s*-?\\s*(?:(?:${UNIT_QUALIFIERS})[\\s-]+)?(?<unit>${Object.keys(UNIT_WORDS).join("|")})(?:e?s)?\\b`,
  "iu",
);

/** The unit the words right after a number name, if any. */
export function unitAhead(rest: string): string | null {
  const unit = UNIT_AHEAD.exec(rest)?.groups?.unit?.toLowerCase();
  return unit === undefined ? null : (UNIT_WORDS[unit] ?? null);
}

/** The numbers a text states, in digits or words (dates excluded: they are checked as dates), in order. */
export function findNumbers(text: string, skip: readonly Span[] = []): Array<StatedNumber & Span> {
  const numbers: Array<StatedNumber & Span> = [];
  for (const match of text.matchAll(NUMBER_IN_PROSE)) {
    const groups = match.groups ?? {};
    const digits = groups.digits as string;
    const start = match.index + (groups.currency?.length ?? 0);
    const span = { start, end: match.index + match[0].length };
    if (overlaps(span, skip)) continue;
    // "$4.2M": a one-letter scale only after a currency sign, so "5 m" (metres) is not five million.
    const scaleWord = groups.scale ?? (groups.short && groups.currency ? groups.short : undefined);
    const scale = scaleWord ? (SCALES[scaleWord.toLowerCase()] ?? 1) : 1;
    const value = Number(digits.replaceAll(",", ""));
    const decimals = digits.split(".")[1]?.length ?? 0;
    const percent = groups.percent !== undefined;
    const currency = groups.currency?.trim();
    numbers.push({
      text: match[0].slice(groups.currency?.length ?? 0).trim(),
      value,
      scale,
      decimals,
      percent,
      approximate: APPROXIMATE_BEFORE.test(text.slice(Math.max(0, match.index - 20), match.index)),
      year:
        /^\d{4}$/.test(digits) &&
        value >= 1900 &&
        value <= 2100 &&
        !percent &&
        scale === 1 &&
        groups.currency === undefined,
      unit: percent ? "percent" : currency ? (CURRENCY_SIGNS[currency] ?? null) : unitAhead(text.slice(span.end)),
      ...span,
    });
  }
  const unitOrScaleAhead = (rest: string) => unitAhead(rest) !== null || /^\s?(?:percent|per cent)\b/iu.test(rest);
  for (const spelled of findSpelledNumbers(text, unitOrScaleAhead)) {
    if (overlaps(spelled, skip) || overlaps(spelled, numbers)) continue;
    const rest = text.slice(spelled.end);
    const percent = /^\s?(?:percent|per cent)\b/iu.test(rest);
    numbers.push({
      text: spelled.text,
      value: spelled.value,
      scale: spelled.scale,
      decimals: spelled.decimals,
      percent,
      approximate: APPROXIMATE_BEFORE.test(text.slice(Math.max(0, spelled.start - 20), spelled.start)),
      year: false,
      unit: percent ? "percent" : unitAhead(rest),
      start: spelled.start,
      end: spelled.end,
    });
  }
  return numbers.sort((left, right) => left.start - right.start);
}

/**
 * Codes: a word of letters and digits, or letters and digits joined by a hyphen or a dot ("AES-256",
 * "SHA256", "Q3", "COVID-19", "TLS1.2", "ISO-27001"). A code names one thing, so it must be found as
 * written: "AES-128" is not "AES-256", though both say "AES".
 */
const CODE = /(?<![\p{L}\p{N}_-])\p{L}[\p{L}]*(?:[-‐.]?\p{N}[\p{N}]*)(?:[-‐.]?[\p{L}\p{N}]+)*(?![\p{L}\p{N}_])/gu;

/** An acronym and a number written apart ("AES 256", "SOC 2", "TLS 1.2"); not a year ("FY 2018"). */
const SPACED_CODE = /(?<![\p{L}\p{N}_-])\p{Lu}{2,}\s\d+(?:\.\d+)?(?![\p{L}\p{N}_]|\.\d)/gu;

/** The codes of a text with their spans. */
export function findCodes(text: string, skip: readonly Span[] = []): Array<{ text: string } & Span> {
  const codes: Array<{ text: string } & Span> = [];
  for (const match of text.matchAll(SPACED_CODE)) {
    const span = { start: match.index, end: match.index + match[0].length };
    if (/\s(?:19|20)\d{2}$|^(?:USD|EUR|GBP|JPY|CHF|CAD|AUD|FY)\s/u.test(match[0]) || overlaps(span, skip)) continue;
    codes.push({ text: match[0], ...span });
  }
  for (const match of text.matchAll(CODE)) {
    const written = match[0].replace(/[.]+$/u, "");
    const span = { start: match.index, end: match.index + written.length };
    if (!/\p{N}/u.test(written) || overlaps(span, skip) || overlaps(span, codes)) continue;
    codes.push({ text: written, ...span });
  }
  return codes.sort((left, right) => left.start - right.start);
}

/** The key a code is compared by: case and the joining hyphen or dot aside ("aes256" for "AES-256"). */
export function codeKey(code: string): string {
  return code.toLowerCase().replace(/[-‐.\s]/gu, "");
}

/** Links as written (plain shapes, and defanged forms with their ordinary spelling), with their spans. */
export function findLinks(text: string): Array<{ text: string; link: string } & Span> {
  const defanged = findDefangedLinks(text);
  const plain = findLinkShapes(text)
    .filter((shape) => !overlaps(shape, defanged))
    .map((shape) => ({ ...shape, link: shape.text }));
  return [...plain, ...defanged].sort((left, right) => left.start - right.start);
}

/** Words that are capitalised for reasons other than naming something. */
const NOT_NAMES = new Set(["i", "i'm", "i've", "ok", "yes", "no", "note", "however", "also", "according"]);

/**
 * Capitalised words and acronyms other than a sentence's or clause's first word ("Falcon", "Paris",
 * "HSA", "PerksPlus"), possessives dropped; one-letter words ("A", "I") are not names.
 */
export function findNames(text: string, skip: readonly Span[] = []): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}&'’-]*/gu)) {
    const word = match[0].replace(/['’]s?$/u, "");
    const span = { start: match.index, end: match.index + match[0].length };
    if (!/\p{Lu}/u.test(word) || word.length < 2 || overlaps(span, skip)) continue;
    if (NOT_NAMES.has(word.toLowerCase())) continue;
    // The first word of the sentence, or after a colon, dash, bracket or quote, is capitalised anyway
    // (unless it is an acronym or a mixed-case name, which no sentence start explains).
    const before = text.slice(0, match.index).trimEnd();
    const opensSentence = before === "" || /[:;.!?—–(["“‘•]$/u.test(before);
    if (opensSentence && /^\p{Lu}[\p{Ll}'’-]*$/u.test(word)) continue;
    for (const part of word.split("-")) if (/\p{Lu}/u.test(part) && part.length >= 2) names.push(part);
  }
  return names;
}

/**
 * Where a sentence joins one claim to another: "and", "but", "after", "including", ", which", "while",
 * "whereas", "because", "as well as", a semicolon or a dash ("plus" is left out: it is in names,
 * "Northwind Health Plus"). Each clause is checked on its own,
 * so words appended to a supported sentence are not carried by it.
 */
const CLAUSE_BREAK =
  /\s*(?:[,;—–]\s*|\s-\s)?\b(?:and|but|after|before|including|which|while|whereas|because|as well as|then|except|unless|provided that)\b\s*|\s*;\s*|\s+[—–]\s+/iu;

export function splitClauses(sentence: string): string[] {
  return sentence
    .split(CLAUSE_BREAK)
    .map((clause) => clause.trim())
    .filter((clause) => /[\p{L}\p{N}]/u.test(clause));
}

/** The checkable parts of a claim (a sentence with its markers already stripped). */
export function extractClaims(claim: string): SentenceClaims {
  const links = findLinks(claim);
  const dates = findDates(claim);
  const codes = findCodes(claim, [...links, ...dates]);
  const taken: Span[] = [...links, ...dates, ...codes];
  return {
    numbers: findNumbers(claim, taken).map(({ start: _start, end: _end, ...number }) => number),
    dates: dates.map(({ start: _start, end: _end, ...date }) => date),
    links: links.map((link) => link.link),
    codes: codes.map((code) => code.text),
    names: findNames(claim, taken),
    clauses: splitClauses(claim),
  };
}
