/**
 * Reads the numbers an answer's text states, with the scale words written beside them, so an evaluation
 * can check a figure however the answer phrases it: "558,929 thousand", "$558.9 million" and "$0.56
 * billion" are all the same order of figure once multiplied out. Pure: text in, numbers out.
 */

export type Scale = "one" | "thousand" | "million" | "billion" | "trillion";

export const SCALE_FACTORS: Record<Scale, number> = {
  one: 1,
  thousand: 1e3,
  million: 1e6,
  billion: 1e9,
  trillion: 1e12,
};

export type StatedNumber = {
  /** The number as written, sign included ("(1,234)" is -1234), before its scale word. */
  value: number;
  scale: Scale;
  /** value × the scale's factor. */
  baseValue: number;
  percent: boolean;
  /** A bare 1900–2099 integer ("2017"): almost always a year, so it only ever matches itself. */
  looksLikeYear: boolean;
  text: string;
};

export type ExpectedNumber = {
  value: number;
  /** The scale the value is written in; default "one". */
  scale?: Scale;
  /** Relative tolerance; default 0.005 (0.5%), so "$559 million" matches 558.929 million. */
  tolerance?: number;
};

export const DEFAULT_TOLERANCE = 0.005;

/** Scale words after a space ("1.9 billion") or attached suffixes ("1.9bn", "$558.9M"). */
const SCALE_WORDS: Record<string, Scale> = {
  thousand: "thousand",
  thousands: "thousand",
  million: "million",
  millions: "million",
  mn: "million",
  billion: "billion",
  billions: "billion",
  bn: "billion",
  trillion: "trillion",
  trillions: "trillion",
};
/** Single letters are scales only when attached to the digits ("$1.9B"), never as a separate word. */
const ATTACHED_LETTERS: Record<string, Scale> = { k: "thousand", m: "million", b: "billion" };

/**
 * An optional opening parenthesis or minus, an optional currency sign, the digits (with thousands
 * separators or without), an optional percent sign or scale word, an optional closing parenthesis. The
 * look-arounds keep digits inside words and codes ("FY2017", "10-K", "Q2", "COVID-19") from being read as figures.
 */
const NUMBER =
  /(?<![\w.,]|[A-Za-z]-)(\()?([-−–])?\s?(?:US)?\$?\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?!\d|-[A-Za-z])(?:(\s?%|\s?per\s?cent\b)|([KkMmBb]|bn|mn)(?![A-Za-z])|\s(thousands?|millions?|billions?|trillions?|bn|mn)\b)?(\))?/g;

export function readNumbers(text: string): StatedNumber[] {
  const numbers: StatedNumber[] = [];
  for (const match of text.matchAll(NUMBER)) {
    const [whole, open, minus, integer = "", fraction = "", percent, attached, word, close] = match;
    const magnitude = Number(`${integer.replaceAll(",", "")}${fraction}`);
    const negative = (open !== undefined && close !== undefined) || minus !== undefined;
    const value = negative ? -magnitude : magnitude;
    const scale: Scale =
      (word && SCALE_WORDS[word.toLowerCase()]) ||
      (attached && (SCALE_WORDS[attached.toLowerCase()] ?? ATTACHED_LETTERS[attached.toLowerCase()])) ||
      "one";
    const bare = !integer.includes(",") && fraction === "" && percent === undefined && scale === "one";
    numbers.push({
      value,
      scale,
      baseValue: value * SCALE_FACTORS[scale],
      percent: percent !== undefined,
      looksLikeYear: bare && !whole.includes("$") && magnitude >= 1900 && magnitude <= 2099,
      text: whole.trim(),
    });
  }
  return numbers;
}

/**
 * Whether a stated number is the expected one. Magnitudes are compared, because a loss is as often
 * written "a net loss of $12 million" as "(12)". Years match only exactly, so a "2017" in "fiscal 2017"
 * is never taken for a figure of 2,016.
 */
export function numberMatches(stated: StatedNumber, expected: ExpectedNumber): boolean {
  const expectedBase = Math.abs(expected.value * SCALE_FACTORS[expected.scale ?? "one"]);
  const statedBase = Math.abs(stated.baseValue);
  if (stated.looksLikeYear) return statedBase === expectedBase;
  if (expectedBase === 0) return statedBase === 0;
  const tolerance = expected.tolerance ?? DEFAULT_TOLERANCE;
  // The small epsilon absorbs floating-point error in value × scale (558.9 × 1e6).
  return Math.abs(statedBase - expectedBase) <= tolerance * expectedBase * (1 + 1e-9);
}

/** Whether the text states the expected number anywhere. */
export function textStatesNumber(text: string, expected: ExpectedNumber): boolean {
  return readNumbers(text).some((stated) => numberMatches(stated, expected));
}
