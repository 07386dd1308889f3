/**
 * Numbers written in words ("thirty days", "four point two million", "two hundred and forty hours"),
 * read as the claim check reads digits: a value, the scale word that ends it (so "four point two
 * million" is 4.2 at a scale of a million, like "4.2 million"), and the decimals it is written to. A
 * model that writes figures in words must not slip them past a check that only reads digits.
 *
 * "one" and "zero" are words of ordinary prose ("one of the plans", "zero tolerance"): they are read as
 * numbers only before a scale word, "point", or a unit the caller names (`isUnitAhead`).
 */
// "hundred" and larger are scale words here, not in NUMBER_WORDS.
import { NUMBER_WORDS } from "../evidence/number-words.js";

const TENS = new Set([20, 30, 40, 50, 60, 70, 80, 90]);
const SCALE_WORDS: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };
/** Words too common in prose to be read as numbers on their own. */
const AMBIGUOUS = new Set(["one", "zero"]);

export type SpelledNumber = {
  text: string;
  start: number;
  end: number;
  value: number;
  /** 1, or the scale word that ends the number. */
  scale: number;
  decimals: number;
};

type Word = { text: string; lower: string; start: number; end: number };

const WORD = /[\p{L}]+/gu;

function wordsOf(text: string): Word[] {
  return [...text.matchAll(WORD)].map((match) => ({
    text: match[0],
    lower: match[0].toLowerCase(),
    start: match.index,
    end: match.index + match[0].length,
  }));
}

/** Whether only a hyphen or spaces lie between two words (so "twenty-five" and "two hundred" join). */
function adjacent(text: string, left: Word, right: Word): boolean {
  return /^[\s-]*$/u.test(text.slice(left.end, right.start)) && right.start - left.end <= 3;
}

const isNumberWord = (lower: string) => lower in NUMBER_WORDS || lower === "hundred" || lower in SCALE_WORDS;

/** The run of number words from `index` (with "and" inside after "hundred", and "point" before digits). */
function numberRun(text: string, words: Word[], index: number): Word[] {
  const run: Word[] = [];
  let position = index;
  while (position < words.length) {
    const word = words[position] as Word;
    const previous = run.at(-1);
    if (previous && !adjacent(text, previous, word)) break;
    if (isNumberWord(word.lower)) {
      run.push(word);
      position += 1;
      continue;
    }
    const next = words[position + 1];
    const joins =
      previous !== undefined &&
      next !== undefined &&
      adjacent(text, word, next) &&
      ((word.lower === "and" && previous.lower === "hundred" && next.lower in NUMBER_WORDS) ||
        (word.lower === "point" && (NUMBER_WORDS[next.lower] ?? 10) < 10));
    if (!joins) break;
    run.push(word);
    position += 1;
  }
  return run;
}

/** The value of a run: its integer part, decimals after "point", and a trailing scale word. */
function readRun(run: readonly Word[]): Omit<SpelledNumber, "text" | "start" | "end"> | null {
  let total = 0;
  let current = 0;
  let decimals = 0;
  let fraction = "";
  let inFraction = false;
  let scale = 1;
  let lastSmall: number | null = null;
  for (const [index, word] of run.entries()) {
    const { lower } = word;
    if (lower === "and") continue;
    if (lower === "point") {
      inFraction = true;
      continue;
    }
    if (inFraction) {
      const digit = NUMBER_WORDS[lower];
      if (digit !== undefined && digit < 10) {
        fraction += String(digit);
        decimals += 1;
        continue;
      }
    }
    const small = NUMBER_WORDS[lower];
    if (small !== undefined) {
      // "twenty five" and "twenty-five" add; "five twenty" or "two three" is no number.
      if (lastSmall !== null && !(TENS.has(lastSmall) && small < 10)) return null;
      current += small;
      lastSmall = small;
      continue;
    }
    lastSmall = null;
    if (lower === "hundred") {
      current = (current === 0 ? 1 : current) * 100;
      continue;
    }
    const multiplier = SCALE_WORDS[lower];
    if (multiplier === undefined) return null;
    const base = current + (fraction ? Number(`0.${fraction}`) : 0);
    if (index === run.length - 1 && total === 0) {
      // A scale word that ends the number is its scale, as "4.2 million" is read.
      scale = multiplier;
      current = base;
      fraction = "";
    } else {
      total += base * multiplier;
      current = 0;
      fraction = "";
      inFraction = false;
    }
  }
  const value = total + current + (fraction ? Number(`0.${fraction}`) : 0);
  return { value, scale, decimals };
}

/**
 * The numbers a text writes in words, in order. `isUnitAhead(rest)` tells whether the text right after
 * a number starts with a unit, which lets "one" and "zero" count ("one week").
 */
export function findSpelledNumbers(text: string, isUnitAhead: (rest: string) => boolean): SpelledNumber[] {
  const words = wordsOf(text);
  const found: SpelledNumber[] = [];
  let index = 0;
  while (index < words.length) {
    const word = words[index] as Word;
    if (!(word.lower in NUMBER_WORDS) && word.lower !== "hundred") {
      index += 1;
      continue;
    }
    let run = numberRun(text, words, index);
    // A trailing "and" or "point" belongs to the prose, not the number.
    while (run.length > 0 && ["and", "point"].includes((run.at(-1) as Word).lower)) run = run.slice(0, -1);
    const value = run.length > 0 ? readRun(run) : null;
    const last = run.at(-1);
    if (value === null || last === undefined) {
      index += 1;
      continue;
    }
    const start = word.start;
    const end = last.end;
    const lone = run.length === 1 && AMBIGUOUS.has(word.lower);
    if (!lone || isUnitAhead(text.slice(end))) {
      found.push({ text: text.slice(start, end), start, end, ...value });
    }
    index += run.length;
  }
  return found;
}
