/**
 * TAT-QA's official exact match and F1 (tatqa_metric.py and tatqa_utils.py of NExTplusplus/TAT-QA),
 * written again from its definition: every answer string is lower-cased, split on spaces, each word
 * stripped of punctuation unless it is a number, numbers rewritten as their value (with "%" as 0.01, a
 * parenthesis of digits as negative and a scale word multiplied in), articles dropped. The answer's items
 * are sorted and joined, numbers first scaled by the answer's scale ("12.5" with scale percent is 0.125);
 * exact match compares the normalised strings, F1 the bags of their words, and for arithmetic and count
 * answers F1 is exact match. Pure.
 */
import type { TatqaAnswerType, TatqaScale } from "./tatqa-dataset.js";

const EXCLUDED_FROM_NUMBERS = new Set([..."'\"\\$€£¥%(),[]"]);
const PUNCTUATION = new Set([..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"]);

function cleanNumber(text: string): string {
  return [...text].filter((character) => !EXCLUDED_FROM_NUMBERS.has(character)).join("");
}

/** Python's float() on a word: digits with an optional sign, point and exponent, or inf/nan. */
function pythonFloat(word: string): number | null {
  const trimmed = word.trim().replaceAll("_", "");
  if (/^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(trimmed)) return Number(trimmed);
  if (/^[+-]?(?:inf|infinity)$/i.test(trimmed)) return trimmed.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(trimmed)) return Number.NaN;
  return null;
}

function scaleToNumber(scale: string): number {
  const lower = scale.toLowerCase();
  if (lower.includes("hundred")) return 100;
  if (lower.includes("thousand")) return 1000;
  if (lower.includes("million")) return 1e6;
  if (lower.includes("billion")) return 1e9;
  if (lower.includes("percent")) return 0.01;
  return 1;
}

export function isOfficialNumber(text: string): boolean {
  const words = text.split(/\s+/).filter(Boolean).map(cleanNumber).join(" ").split(/\s+/).filter(Boolean);
  if (words.length === 0) return false;
  const number = pythonFloat(words[0] ?? "");
  if (number === null || Number.isNaN(number)) return false;
  return words.length < 2 || scaleToNumber(words[1] ?? "") !== 1;
}

/** A number as Python's str() writes it: a float keeps ".0", an int does not. */
type PythonNumber = { value: number; isFloat: boolean };

function pythonString(number: PythonNumber): string {
  if (!number.isFloat) return String(Math.trunc(number.value));
  return Number.isInteger(number.value) && Math.abs(number.value) < 1e16 ? `${number.value}.0` : String(number.value);
}

function firstNumber(text: string): PythonNumber | null {
  const match = /([+-]?\d+(\.\d+)?)|([+-]?\.\d+)/.exec(cleanNumber(text));
  if (match === null || match[1] === undefined) return null;
  const raw = match[1];
  return { value: Number(raw), isFloat: raw.includes(".") };
}

function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** tatqa_utils.to_number: the first number, times its scale word, sign and percent (a float as Python's would be). */
function officialPythonNumber(text: string): PythonNumber | null {
  const number = firstNumber(text);
  if (number === null) return null;
  const scaleWord = /([\d.]+\s?[a-zA-Z]+)/.exec(text)?.[0] ?? "";
  const scale = scaleWord === "" ? 1 : scaleToNumber(scaleWord);
  const negative = /\([\d.\s%]+\)/.test(text.trim()) ? -1 : 1;
  const percent = /[\d.\s]+%/.test(text.trim()) ? 0.01 : 1;
  // Python: an int times ints stays an int; a float, or a percent's 0.01, makes a float.
  const isFloat = number.isFloat || percent !== 1 || !Number.isInteger(scale);
  return { value: roundTo(number.value * scale * negative * percent, 4), isFloat };
}

export function officialNumber(text: string): number | null {
  return officialPythonNumber(text)?.value ?? null;
}

function normalizeNumberWord(word: string): string {
  if (!isOfficialNumber(word)) return word;
  const number = officialPythonNumber(word);
  return number === null ? word : pythonString(number);
}

export function normalizeOfficialAnswer(text: string): string {
  return text
    .split(" ")
    .map((token) => {
      const lower = token.toLowerCase();
      const unpunctuated = isOfficialNumber(lower)
        ? lower
        : [...lower].filter((character) => !PUNCTUATION.has(character)).join("");
      return normalizeNumberWord(unpunctuated)
        .replace(/\b(?:a|an|the)\b/g, " ")
        .split(/\s+/)
        .filter(Boolean)
        .join(" ");
    })
    .filter((part) => part.trim() !== "")
    .join(" ")
    .trim();
}

/** tatqa_metric.get_answer_str: the items sorted, numbers scaled and written with four decimals, joined. */
export function officialAnswerString(items: readonly string[], scale: TatqaScale | string): string {
  const sorted = [...items].sort();
  return sorted
    .map((item) => {
      if (!isOfficialNumber(item)) return scale ? `${item} ${scale}` : item;
      const number = officialNumber(item);
      if (number === null) return scale ? `${item} ${scale}` : item;
      if (item.includes("%")) return number.toFixed(4);
      return (roundTo(number, 2) * scaleToNumber(scale)).toFixed(4);
    })
    .join(" ");
}

function bagF1(predicted: Set<string>, gold: Set<string>): number {
  const common = [...gold].filter((word) => predicted.has(word)).length;
  const precision = predicted.size === 0 ? 1 : common / predicted.size;
  const recall = gold.size === 0 ? 1 : common / gold.size;
  return precision === 0 && recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

function emAndF1(predicted: string, gold: string): { em: number; f1: number } {
  const normalizedPredicted = normalizeOfficialAnswer(predicted);
  const normalizedGold = normalizeOfficialAnswer(gold);
  const em = normalizedPredicted === normalizedGold ? 1 : 0;
  const f1 = bagF1(
    new Set(normalizedPredicted.split(" ").filter(Boolean)),
    new Set(normalizedGold.split(" ").filter(Boolean)),
  );
  return { em, f1: Math.round(f1 * 100) / 100 };
}

/** The gold answer's items as the official script reads them. */
export function goldItems(answer: string[] | number, answerType: TatqaAnswerType): string[] {
  if (Array.isArray(answer)) return answer;
  return [answerType === "count" ? String(Math.trunc(answer)) : String(answer)];
}

/**
 * Exact match and F1 of a predicted answer (its items and scale) against the gold one, as the official
 * script scores it; an empty prediction scores 0.
 */
export function officialScore(
  predicted: { items: readonly string[]; scale: TatqaScale | string },
  gold: { answer: string[] | number; answerType: TatqaAnswerType; scale: TatqaScale },
): { em: number; f1: number } {
  if (predicted.items.length === 0) return { em: 0, f1: 0 };
  const goldString = officialAnswerString(goldItems(gold.answer, gold.answerType), gold.scale);
  const candidates = [officialAnswerString(predicted.items, predicted.scale)];
  // A lone unscaled number may be a ratio meant as a percentage: 0.2342 for 23.42 percent.
  const only = predicted.items[0] ?? "";
  if (predicted.items.length === 1 && !predicted.scale && !only.includes("%") && isOfficialNumber(only)) {
    const number = officialNumber(only);
    if (number !== null) candidates.push(number.toFixed(4));
  }
  let best = { em: 0, f1: 0 };
  for (const candidate of candidates) {
    const score = emAndF1(candidate, goldString);
    if (score.em > best.em || (score.em === best.em && score.f1 > best.f1)) best = score;
  }
  return gold.answerType === "arithmetic" || gold.answerType === "count" ? { em: best.em, f1: best.em } : best;
}
