/**
 * Finds a figure a document states in a sentence rather than a table: "As of May 31, 2018, we had
 * approximately 73,100 employees worldwide", "we repurchased $2.8 billion of our common stock". The
 * sentence must hold every word of the measure (or a word its line item goes by), the year asked when
 * one is asked, and an amount beside the measure; the amount is read as printed, with the scale word
 * that follows it, so a comparison can be computed from it. The sentence itself is the answer's quote.
 */

import type { QuotedPassage } from "../citations/citations.js";
import type { NumberedSource } from "../generate/generator.js";
import type { Period, QuestionAnalysis } from "../question/question-analysis.js";
import { synonymsOf } from "./find-figure.js";
import { rankSentences, uniqueTerms } from "./sentence-scoring.js";
import type { TableCell, UnitScale } from "./table-cells.js";

export type ProseFigure = {
  source: NumberedSource;
  /** The sentence that states the figure, whole. */
  passage: QuotedPassage;
  /** The amount read from the sentence, as a cell with the measure as its label (for a comparison). */
  cell: TableCell;
  score: number;
};

/** Sentences longer than this are tables or lists flattened by the PDF reader, not statements of a figure. */
const MAX_SENTENCE_CHARACTERS = 400;
/** Results whose sentences are read: a stated figure that answers is among the first few. */
const SOURCES_READ = 12;

const AMOUNT =
  /(?<![\w.,])([$€£¥])?\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s?(%|percent\b)|\s+(thousand|million|billion)s?\b)?(?![\w,]*\d)/gi;
/** A month (and day) just before a year: the year is a date's. */
const DATE_BEFORE_YEAR = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?(?:\s+\d{1,2})?,?\s*$/i;
const MONTH_BEFORE = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s*$/i;
const SCALE_WORDS: Record<string, UnitScale> = { thousand: "thousand", million: "million", billion: "billion" };

type Amount = {
  printed: string;
  number: number;
  currency: string | null;
  percent: boolean;
  scale: UnitScale | null;
  at: number;
};

/** The amounts a sentence states: not years, not days of a month, not footnote or item numbers. */
export function amountsIn(sentence: string): Amount[] {
  const amounts: Amount[] = [];
  for (const match of sentence.matchAll(AMOUNT)) {
    const [whole, currency, digits = "", decimals = "", percentWord, scaleWord] = match;
    const at = match.index ?? 0;
    const integer = Number(digits.replace(/,/g, ""));
    const plain = currency === undefined && percentWord === undefined && scaleWord === undefined;
    if (plain && /^(?:19|20)\d{2}$/.test(digits) && decimals === "") continue;
    if (plain && MONTH_BEFORE.test(sentence.slice(Math.max(0, at - 12), at))) continue;
    // A bare one- or two-digit number is a count of things, a day or a note, rarely the figure asked for.
    if (plain && !digits.includes(",") && decimals === "" && integer < 100) continue;
    amounts.push({
      printed: whole.trim(),
      number: Number(`${digits.replace(/,/g, "")}${decimals}`),
      currency: currency ?? null,
      percent: percentWord !== undefined,
      scale: scaleWord === undefined ? null : (SCALE_WORDS[scaleWord.toLowerCase()] ?? null),
      at,
    });
  }
  return amounts;
}

const QUARTER_OF_YEAR =
  /\b(?:(?:first|second|third|fourth)[\s-]+quarter\s+(?:of\s+)?(?:fiscal\s+(?:year\s+)?)?|Q[1-4]\s*(?:fiscal\s+)?|[1-4]Q\s*)$/i;

/**
 * How a sentence names the period asked: 2 where it names the year as a period ("in 2022", "fiscal
 * 2022"), 1 where only in a date ("As of May 31, 2018", "announced in March 2022"), 0 where not at all.
 * A year asked for is not named by a quarter of it ("fourth quarter of fiscal 2022" is a quarter's figure);
 * a quarter asked for must be named.
 */
function periodNaming(sentence: string, period: Period | undefined): number {
  if (period === undefined) return 2;
  const years = [...sentence.matchAll(new RegExp(`\\b${period.year}\\b`, "g"))].map((match) =>
    sentence.slice(Math.max(0, (match.index ?? 0) - 40), match.index),
  );
  if (period.quarter !== undefined) {
    const word = ["first", "second", "third", "fourth"][period.quarter - 1];
    const namesQuarter = new RegExp(`\\b(?:${word}[\\s-]+quarter|Q${period.quarter})\\b`, "i").test(sentence);
    return years.length > 0 && namesQuarter ? 2 : 0;
  }
  const ofYear = years.filter((before) => !QUARTER_OF_YEAR.test(before));
  if (ofYear.length === 0) return 0;
  return ofYear.some((before) => !DATE_BEFORE_YEAR.test(before)) ? 2 : 1;
}

/** Where in the sentence the measure's words (or synonyms of them) stand; null when one of them is missing. */
function measurePositions(sentence: string, measureTerms: ReadonlySet<string>): number[] | null {
  const positions: number[] = [];
  const words = [...sentence.matchAll(/[\p{L}\p{N}'’-]+/gu)];
  for (const term of measureTerms) {
    const accepted = synonymsOf(term);
    const found = words.filter((word) => [...uniqueTerms(word[0])].some((stem) => accepted.includes(stem)));
    if (found.length === 0) return null;
    positions.push(...found.map((word) => word.index ?? 0));
  }
  return positions;
}

/**
 * Words that make the measure another line item when they stand right before it: "unearned revenue",
 * "deferred revenue", "cost of revenue" and "other income" are not revenue or income.
 */
const OTHER_ITEM_BEFORE = /\b(?:unearned|deferred|accrued|prepaid|other|cost\s+of|costs\s+of|tax(?:es)?\s+on)\s+$/i;

/** Whether every mention of the measure in the sentence is qualified as another line item the question did not ask about. */
function qualifiedAsOtherItem(
  sentence: string,
  measureTerms: ReadonlySet<string>,
  asked: ReadonlySet<string>,
): boolean {
  const words = [...sentence.matchAll(/[\p{L}\p{N}'’-]+/gu)];
  const mentions = words.filter((word) =>
    [...uniqueTerms(word[0])].some((stem) => [...measureTerms].some((term) => synonymsOf(term).includes(stem))),
  );
  if (mentions.length === 0) return false;
  return mentions.every((mention) => {
    const before = sentence.slice(Math.max(0, (mention.index ?? 0) - 20), mention.index);
    const qualifier = OTHER_ITEM_BEFORE.exec(before)?.[0].trim().split(/\s+/)[0] ?? null;
    return qualifier !== null && ![...uniqueTerms(qualifier)].some((term) => asked.has(term));
  });
}

const CHANGE_BEFORE =
  /\b(?:increas|decreas|grew|grow|rose|rise|fell|fall|declin|improv|up|down|chang)\w*\s+(?:by\s+)?(?:approximately\s+|about\s+|nearly\s+)?$/i;

/**
 * The sentence without a heading or bullet the sentence splitter joined to its front ("Employees\nAs of
 * May 31, 2018, …", "Regional Operations\n\n• Share buybacks of …"): a first line of a few words and no
 * full stop is a heading, not part of the quote.
 */
function withoutLeadingHeading(text: string, start: number): QuotedPassage {
  let offset = 0;
  for (;;) {
    const rest = text.slice(offset);
    const line = /^([^\n]*)\n+/.exec(rest);
    if (line === null || (line[1] ?? "").trim().split(/\s+/).length > 5 || /[.!?:;]\s*$/.test(line[1] ?? "")) break;
    offset += line[0].length;
  }
  const bullet = /^\s*[•●▪◦‣∙*–-]\s+/.exec(text.slice(offset));
  if (bullet !== null) offset += bullet[0].length;
  const quoted = text.slice(offset).trim();
  if (quoted.length === 0) return { text: text.trim(), start, end: start + text.length };
  const at = text.indexOf(quoted, offset);
  return { text: quoted, start: start + at, end: start + at + quoted.length };
}

/** How many different years a sentence names. */
function yearsNamed(sentence: string): number {
  return new Set(sentence.match(/\b(?:19|20)\d{2}\b/g) ?? []).size;
}

/** The stated figure that best answers a figure question among the results' sentences; null when none states it. */
export function findProseFigure(
  analysis: Pick<QuestionAnalysis, "measureTerms" | "measure" | "periods" | "entities">,
  sources: NumberedSource[],
  /** "How many employees…": a count is asked for, so an amount of money is not its answer. */
  asksForCount = false,
): ProseFigure | null {
  const measureTerms = new Set([...analysis.measureTerms].filter((term) => !["total", "net"].includes(term)));
  if (measureTerms.size === 0) return null;
  const period = analysis.periods[0];
  const asksForRate = /\b(?:rate|margin|percent(?:age)?|ratio|growth)\b/i.test(analysis.measure);
  // "Market share" is a percentage; "share repurchases" an amount: a share is a percentage where one is stated.
  const mayBeShare = /\bshare\b/i.test(analysis.measure);
  const entityTerms = uniqueTerms(analysis.entities.join(" "));
  let best: ProseFigure | null = null;
  sources.slice(0, SOURCES_READ).forEach((source, rank) => {
    if (source.result.kind === "table") return;
    // A figure of the company asked about: its document, or a passage naming it.
    const about = uniqueTerms(
      `${source.result.title} ${source.result.file.replace(/[_.-]+/g, " ")} ${source.result.text}`,
    );
    if (![...entityTerms].every((term) => about.has(term))) return;
    for (const sentence of rankSentences(source.result.text, measureTerms)) {
      // Cheap test first: the sentence holds every measure word or a synonym of it.
      const sentenceTerms = uniqueTerms(sentence.text);
      if (![...measureTerms].every((term) => synonymsOf(term).some((synonym) => sentenceTerms.has(synonym)))) continue;
      const naming = periodNaming(sentence.text, period);
      if (sentence.text.length > MAX_SENTENCE_CHARACTERS || naming === 0) continue;
      if (qualifiedAsOtherItem(sentence.text, measureTerms, analysis.measureTerms)) continue;
      const positions = measurePositions(sentence.text, measureTerms);
      if (positions === null) continue;
      // "increased by $71.3 million" is a change, not the figure.
      const all = amountsIn(sentence.text).filter(
        (amount) => !CHANGE_BEFORE.test(sentence.text.slice(Math.max(0, amount.at - 40), amount.at)),
      );
      const percentages = all.filter((amount) => amount.percent);
      const stated = asksForRate
        ? percentages
        : mayBeShare && percentages.length > 0
          ? percentages
          : all.filter((amount) => !amount.percent);
      // An amount of money answers a question that is not about a count: "$900.0 million", not "2.2 million shares".
      const money = stated.filter((amount) => amount.currency !== null);
      const amounts = asksForCount
        ? stated.filter((amount) => amount.currency === null)
        : money.length > 0
          ? money
          : stated;
      if (amounts.length === 0) continue;
      // "$10.0 billion and $14.3 billion in 2016 and 2017": which amount is which year's is the reader's guess.
      if (amounts.length >= 2 && yearsNamed(sentence.text) >= 2) continue;
      // The amount nearest the measure's words is the one the sentence states for it.
      const distance = (amount: Amount) => Math.min(...positions.map((position) => Math.abs(position - amount.at)));
      const amount = amounts.reduce((nearest, candidate) =>
        distance(candidate) < distance(nearest) ? candidate : nearest,
      );
      const namesEntity = [...entityTerms].some((term) => sentenceTerms.has(term));
      // An amount stated beside the year asked ("$2.8 billion in 2022") is that year's more surely than one
      // a clause away from it ("$164 million year-to-date, adding to … in 2022").
      const yearAt = period === undefined ? [] : [...sentence.text.matchAll(new RegExp(`\\b${period.year}\\b`, "g"))];
      const fromYear =
        yearAt.length === 0 ? 0 : Math.min(...yearAt.map((year) => Math.abs((year.index ?? 0) - amount.at)));
      const score =
        1 +
        (namesEntity ? 0.2 : 0) +
        (naming === 2 ? 0.3 : 0) -
        0.02 * rank -
        Math.min(distance(amount), 200) / 1000 -
        Math.min(fromYear, 200) / 1000;
      if (best !== null && score <= best.score) continue;
      best = {
        source,
        passage: withoutLeadingHeading(sentence.text, sentence.start),
        cell: {
          label: analysis.measure,
          parents: [],
          column: period === undefined ? "" : `${period.year}`,
          value: amount.printed,
          number: amount.number,
          period: period ?? null,
          scale: amount.scale,
          percent: amount.percent,
          currency: amount.currency,
          unitNote: null,
          rowStart: sentence.start,
          rowEnd: sentence.end,
        },
        score,
      };
    }
  });
  return best;
}
