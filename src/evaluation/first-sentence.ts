/**
 * Whether an answer's first sentence holds the gold answer — what a reader sees before anything else.
 * Sentences end at ". ", "? ", "! " or a line break (after any citation markers), inside quotes too,
 * but not after an abbreviation ("Inc.", "U.S.") or inside a number; a list introduced by a colon runs
 * on through its bullet lines. A gold text span must appear whole (case, quotes and spacing aside); a
 * gold number must be stated with its scale ("12.5" with scale percent is "12.5%", "1,496.5" with scale
 * million is "1,496.5 million" or "$1.5 billion"), a calculation within 1 %, and a negative gold as a
 * negative number or a number a decrease word stands before ("a decrease of $12.6 million"). A year asked
 * for ("In which year…") must be the first year the sentence names. Pure.
 */
import { readNumbers, type StatedNumber } from "./answer-numbers.js";
import type { TatqaAnswerType, TatqaScale } from "./tatqa-dataset.js";

/** Words a sentence may end a few letters after without ending there. */
const ABBREVIATION =
  /(?:\b(?:inc|corp|co|ltd|no|nos|vs|etc|approx|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|mr|mrs|ms|dr|st|u\.s|e\.g|i\.e)|\b\p{Lu})\.$/iu;

/** The first `count` sentences of a text, joined. */
export function firstSentences(text: string, count = 1): string {
  const sentences: string[] = [];
  let start = 0;
  let index = 0;
  const trimmed = text.trim();
  while (index < trimmed.length && sentences.length < count) {
    const character = trimmed[index] ?? "";
    if (character === "\n") {
      // "…were as follows: [1]\n• A\n• B": a list introduced by a colon is part of its sentence.
      const before = trimmed.slice(start, index).replace(/\s*(?:\[\d{1,3}\])+\s*$/, "");
      const next = trimmed.slice(index + 1);
      if (before.endsWith(":") || (/^[•\-*]\s/.test(next) && /^\s*[•\-*]\s/m.test(trimmed.slice(start, index)))) {
        index += 1;
        continue;
      }
      sentences.push(trimmed.slice(start, index));
      start = index + 1;
      index += 1;
      continue;
    }
    if (/[.?!]/.test(character)) {
      let end = index + 1;
      // Closing quotes and citation markers belong to the sentence they follow.
      for (;;) {
        const rest = trimmed.slice(end);
        const marker = /^(?:["”’)]|\s?\[\d{1,3}\])/.exec(rest);
        if (marker === null) break;
        end += marker[0].length;
      }
      const following = trimmed[end];
      const isEnd =
        (following === undefined || /\s/.test(following)) &&
        !(character === "." && ABBREVIATION.test(trimmed.slice(Math.max(start, index - 6), index + 1)));
      if (isEnd) {
        sentences.push(trimmed.slice(start, end));
        start = end;
        index = end;
        continue;
      }
    }
    index += 1;
  }
  if (sentences.length < count && start < trimmed.length) sentences.push(trimmed.slice(start));
  return sentences
    .map((sentence) => sentence.trim())
    .filter(Boolean)
    .join(" ");
}

/** Lower case, one kind of quote and dash, single spaces, no trailing punctuation. */
export function normalizeSpan(text: string): string {
  return text
    .toLowerCase()
    .replace(/[‘’´`]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[‐‑‒–—−]/g, "-")
    .replace(/\s+/g, " ")
    .replace(/^[\s"'.,;:]+|[\s"'.,;:]+$/g, "")
    .trim();
}

const SCALE_OF_TATQA: Record<Exclude<TatqaScale, "" | "percent">, number> = {
  thousand: 1e3,
  million: 1e6,
  billion: 1e9,
};

/** A decrease stated in words before a number: "a decrease of", "fell by", "down". */
const DECREASE_WORDS =
  /\b(?:decrease[sd]?|decreasing|declined?|declines|declining|fell|fall(?:en|s|ing)?|drop(?:ped|s)?|lower|down|reduc(?:ed|tion|tions)|less|loss|shrank|negative)\b[^.;]{0,60}$/i;

type ExpectedValue = { value: number; scale: TatqaScale; tolerance: number };

/** Whether a stated number is the gold value: its magnitude (with its scale) and its sign. */
function statesValue(stated: StatedNumber, expected: ExpectedValue, sentence: string): boolean {
  const magnitude = Math.abs(expected.value);
  const close = (actual: number, wanted: number) =>
    wanted === 0 ? Math.abs(actual) < 0.005 : Math.abs(Math.abs(actual) - wanted) <= expected.tolerance * wanted + 1e-9;
  let matches: boolean;
  if (expected.scale === "percent") matches = stated.percent && close(stated.value, magnitude);
  else if (expected.scale === "") matches = !stated.percent && close(stated.value, magnitude);
  else {
    const wanted = magnitude * SCALE_OF_TATQA[expected.scale];
    // A figure written without a scale word is read in the gold's own scale ("1,496.5" of a table in millions).
    matches =
      !stated.percent &&
      (close(stated.baseValue, wanted) || (stated.scale === "one" && close(stated.value, magnitude)));
  }
  if (!matches || magnitude === 0) return matches;
  const at = sentence.indexOf(stated.text);
  const statedNegative = stated.value < 0 || (at >= 0 && DECREASE_WORDS.test(sentence.slice(0, at)));
  return expected.value < 0 ? statedNegative : stated.value >= 0;
}

/** A gold text item: its words whole in the sentence, or its number when the item is one. */
function holdsItem(sentence: string, item: string, scale: TatqaScale, numbers: StatedNumber[]): boolean {
  if (normalizeSpan(sentence).includes(normalizeSpan(item))) return true;
  const goldNumbers = readNumbers(item);
  const onlyNumber =
    goldNumbers.length === 1 && item.replace(goldNumbers[0]?.text ?? "", "").replace(/[\s$€£¥%]/g, "") === "";
  const gold = goldNumbers[0];
  if (!onlyNumber || gold === undefined) return false;
  const itemScale: TatqaScale = gold.percent ? "percent" : scale === "percent" ? "" : scale;
  return numbers.some((stated) =>
    statesValue(stated, { value: gold.value, scale: itemScale, tolerance: 0.0005 }, sentence),
  );
}

const COUNT_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

export type FirstSentenceCheck = { holds: boolean; sentence: string };

/** Whether the first sentence (two for a gold span that is itself two sentences, and so on) holds the gold answer. */
export function firstSentenceHolds(
  answerText: string,
  gold: { question: string; answer: string[] | number; answerType: TatqaAnswerType; scale: TatqaScale },
): FirstSentenceCheck {
  const items = Array.isArray(gold.answer) ? gold.answer : [];
  const sentencesInGold = Math.max(1, ...items.map((item) => firstSentencesCount(item)));
  const sentence = firstSentences(answerText, sentencesInGold);
  const numbers = readNumbers(sentence);
  if (typeof gold.answer === "number") {
    if (gold.answerType === "count") {
      const count = Math.trunc(gold.answer);
      const word = COUNT_WORDS[count];
      const holds =
        numbers.some((stated) => !stated.percent && stated.value === count) ||
        (word !== undefined && new RegExp(`\\b${word}\\b`, "i").test(sentence));
      return { holds, sentence };
    }
    const expected = { value: gold.answer, scale: gold.scale, tolerance: 0.01 };
    return { holds: numbers.some((stated) => statesValue(stated, expected, sentence)), sentence };
  }
  // "In which year…": the year answered is the first the sentence names, not any year it mentions.
  if (
    /\bwhich\s+(?:year|period)\b/i.test(gold.question) &&
    items.length === 1 &&
    /^(?:19|20)\d{2}$/.test(items[0] ?? "")
  ) {
    const firstYear = /\b(?:19|20)\d{2}\b/.exec(sentence)?.[0];
    return { holds: firstYear === items[0], sentence };
  }
  const nonEmpty = items.filter((item) => item.trim() !== "");
  const holds = nonEmpty.length > 0 && nonEmpty.every((item) => holdsItem(sentence, item, gold.scale, numbers));
  return { holds, sentence };
}

/** How many sentences a gold span spans ("Costs of … products. The most significant …" is two). */
function firstSentencesCount(item: string): number {
  return Math.max(1, (item.match(/[.?!]\s+\p{Lu}/gu) ?? []).length + 1);
}
