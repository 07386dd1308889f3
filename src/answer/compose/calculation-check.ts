/**
 * Checks a figure the answer works out from its sources ("Capex was 1,577 / 32,765 = 4.8% of revenue
 * [1]"), so a derived number can be shown beside the inputs it came from instead of being dropped as a
 * sentence no source says. A calculation is written as an expression, "=", and a result. It is checked
 * when every number in the expression is printed in a cited source or in the question (a formula's
 * constant: "365 * …"), or is a small divisor of an average (2, 3, 4) or 100, and the expression gives
 * the result to the precision it is written with ("4.8%" is 0.048 or 4.8, ± 0.05), and the sentence
 * says little else (MAX_OTHER_WORDS).
 * Amounts in parentheses are negative in statements; both signs of a source's amount count as
 * printed ("(1,577)" supports 1,577), since an answer names an outflow by its size.
 */
import { NUMBER_WORDS } from "../evidence/number-words.js";

/** An expression, its operands and the result the sentence states. */
export type Calculation = {
  expression: string;
  operands: number[];
  value: number;
  stated: number;
  percent: boolean;
  /** Words of the sentence outside the calculation ("As a share of revenue that is"). */
  otherWords: number;
};

/**
 * Most words a calculation's sentence may hold besides it: a short label. Only the arithmetic is
 * checked, so a longer sentence could carry a claim ("…, because of the new plant") nobody checked.
 */
const MAX_OTHER_WORDS = 12;

/** Numbers any calculation may use without a source: the divisor of an average of a few years, and 100 for percents. */
const FREE_OPERANDS = new Set([2, 3, 4, 100]);

/** A number as written in prose or a statement: 1,577 · 1577.25 · .5 (a "$" before it is dropped). */
const NUMBER = /\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+/y;

/** Operators as typeset, as the evaluator reads them. */
const OPERATOR_SPELLINGS: Record<string, string> = { "×": "*", "÷": "/", "−": "-" };

type Token = { kind: "number"; value: number } | { kind: "operator"; value: string } | { kind: "paren"; value: string };

/** The tokens of an expression, or null when it holds anything else. */
function tokenize(text: string): Token[] | null {
  const tokens: Token[] = [];
  let index = 0;
  while (index < text.length) {
    const character = text[index] as string;
    if (/\s|\$/.test(character)) {
      index += 1;
      continue;
    }
    NUMBER.lastIndex = index;
    const number = NUMBER.exec(text);
    if (number) {
      tokens.push({ kind: "number", value: Number(number[0].replaceAll(",", "")) });
      index += number[0].length;
      continue;
    }
    if ("+-−*×/÷".includes(character)) {
      tokens.push({ kind: "operator", value: OPERATOR_SPELLINGS[character] ?? character });
    } else if (character === "(" || character === ")") tokens.push({ kind: "paren", value: character });
    else return null;
    index += 1;
  }
  return tokens;
}

/** Evaluates tokens by the usual precedence; null when they are not one well-formed expression. */
function evaluate(tokens: readonly Token[]): number | null {
  let position = 0;
  const peek = () => tokens[position];
  const primary = (): number | null => {
    const token = peek();
    if (!token) return null;
    if (token.kind === "number") {
      position += 1;
      return token.value;
    }
    if (token.kind === "operator" && token.value === "-") {
      position += 1;
      const operand = primary();
      return operand === null ? null : -operand;
    }
    if (token.kind === "paren" && token.value === "(") {
      position += 1;
      const inner = sum();
      const close = peek();
      if (inner === null || close?.kind !== "paren" || close.value !== ")") return null;
      position += 1;
      return inner;
    }
    return null;
  };
  const product = (): number | null => {
    let left = primary();
    while (left !== null) {
      const token = peek();
      if (token?.kind !== "operator" || (token.value !== "*" && token.value !== "/")) break;
      position += 1;
      const right = primary();
      if (right === null || (token.value === "/" && right === 0)) return null;
      left = token.value === "*" ? left * right : left / right;
    }
    return left;
  };
  const sum = (): number | null => {
    let left = product();
    while (left !== null) {
      const token = peek();
      if (token?.kind !== "operator" || (token.value !== "+" && token.value !== "-")) break;
      position += 1;
      const right = product();
      if (right === null) return null;
      left = token.value === "+" ? left + right : left - right;
    }
    return left;
  };
  const value = sum();
  return value !== null && position === tokens.length ? value : null;
}

/** Characters an expression is written with (a letter ends it: "revenue 1,577 / 32,765" starts at 1,577). */
const EXPRESSION_TAIL = /[\d\s.,$()+\-−*×/÷]+$/;
/** What follows "=": the stated result, its sign, and a percent sign or word. */
const STATED_RESULT = /^\s*(?:=|≈)\s*(-|−)?\$?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(%|percent\b)?/i;

/** The calculation a sentence states ("… 1,577 / 32,765 = 4.8% …"), or null when it states none. */
export function findCalculation(sentence: string): Calculation | null {
  const equals = sentence.search(/[=≈]/);
  if (equals < 0) return null;
  const result = STATED_RESULT.exec(sentence.slice(equals));
  const tail = EXPRESSION_TAIL.exec(sentence.slice(0, equals));
  if (!result || !tail) return null;
  // The longest suffix of the text before "=" that is one expression with an operator in it.
  const candidate = tail[0];
  for (let start = 0; start < candidate.length; start += 1) {
    if (start > 0 && !/[\s(]/.test(candidate[start - 1] as string)) continue;
    const expression = candidate.slice(start).trim();
    const tokens = tokenize(expression);
    if (!tokens?.some((token) => token.kind === "operator")) continue;
    const value = evaluate(tokens);
    if (value === null) continue;
    const digits = (result[2] as string).replaceAll(",", "");
    const stated = Number(digits) * (result[1] ? -1 : 1);
    const rest = `${sentence.slice(0, equals - candidate.length + start)} ${sentence.slice(equals + result[0].length)}`;
    return {
      expression,
      operands: tokens.flatMap((token) => (token.kind === "number" ? [token.value] : [])),
      value,
      stated,
      percent: result[3] !== undefined,
      otherWords: rest
        .replace(/\[\d{1,3}\]/g, " ")
        .split(/\s+/)
        .filter((word) => /[\p{L}\p{N}]/u.test(word)).length,
    };
  }
  return null;
}

/** The numbers printed in a text, by size (an amount in parentheses is the same amount). */
export function printedNumbers(text: string): Set<number> {
  const numbers = new Set<number>();
  for (const match of text.matchAll(/\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?/g))
    numbers.add(Number(match[0].replaceAll(",", "")));
  return numbers;
}

/** Whether the stated result is the expression's value to the precision it is written with. */
function statesValue(calculation: Calculation): boolean {
  const decimals = (String(Math.abs(calculation.stated)).split(".")[1] ?? "").length;
  const tolerance = 0.5 * 10 ** -decimals + 1e-9;
  const candidates = calculation.percent ? [calculation.value, calculation.value * 100] : [calculation.value];
  return candidates.some((value) => Math.abs(value - calculation.stated) <= tolerance);
}

/** Whether a calculation's inputs are printed in `evidence` (the cited sources' text, the question) and its result is right. */
export function checkCalculation(calculation: Calculation, evidence: readonly string[]): boolean {
  if (calculation.otherWords > MAX_OTHER_WORDS || !statesValue(calculation)) return false;
  const printed = new Set(evidence.flatMap((text) => [...printedNumbers(text)]));
  return calculation.operands.every((operand) => printed.has(Math.abs(operand)) || FREE_OPERANDS.has(operand));
}

/*
 * Figures an answer states without writing the arithmetic out ("Revenue grew 3.5% [1]", "the three
 * years total 4,370 [1]"): such a number passes when the cited sources print it (to the precision it is
 * written with, at the scale it names: "$1.9 billion" is a table's 1,933 in millions) or when one
 * computation the sentence names by its words gives it from numbers the sources print: a difference
 * ("more", "rose", "fell", "difference"…), a sum ("total", "combined"), an average, a ratio or share
 * ("times", "ratio", "share", "of"), a percentage change. A computation must be named: on a table of a
 * hundred numbers, some pair's difference or ratio lands near almost any figure, so an unnamed one is
 * never looked for, and a year is never computed. Tolerance: half a unit of the last digit written (1.6
 * is 1.55–1.65), or 1% when the sentence says "about".
 */

/** The computations a sentence may rest on, named by its words. */
export type Derivation = "difference" | "sum" | "average" | "ratio" | "percent-change" | "percent-of";

/** A number a sentence states, as claim-extraction.ts reads it. */
export type StatedFigure = {
  value: number;
  scale: number;
  decimals: number;
  percent: boolean;
  approximate: boolean;
};

const DERIVATION_CUES: Array<[Derivation, RegExp]> = [
  [
    "difference",
    /\b(?:differen\w*|more|less|fewer|higher|lower|greater|smaller|larger|increas\w*|decreas\w*|r[oi]se|risen|rising|fell|fall(?:en|s|ing)?|gr[eo]w\w*|declin\w*|drop\w*|gain\w*|los[st]\w*|up by|down by|chang\w*|gap|exceed\w*|above|below|short(?:fall)?|remain\w*|left over)\b/iu,
  ],
  ["sum", /\b(?:total\w*|combined|sum|together|altogether|in all|aggregate\w*|overall|cumulative\w*|plus)\b/iu],
  ["average", /\b(?:average\w*|mean|on avg)\b/iu],
  [
    "ratio",
    /\b(?:ratio|times|multiple|share|proportion|fraction|per|each|margin|rate|out of|of (?:the )?(?:total|all))\b|\d\s?x\b/iu,
  ],
];

/** The computations a clause names; a percentage is a change or a share by the same words. */
export function derivationsNamed(clause: string): Set<Derivation> {
  const named = new Set<Derivation>();
  for (const [derivation, cue] of DERIVATION_CUES) if (cue.test(clause)) named.add(derivation);
  if (named.has("difference")) named.add("percent-change");
  if (named.has("ratio") || /(?:%|\bpercent(?:age)?)\s+of\b/iu.test(clause)) named.add("percent-of");
  return named;
}

/** Number words as printedAmounts reads them: "hundred" is a number of its own there. */
const AMOUNT_WORDS: Record<string, number> = { ...NUMBER_WORDS, hundred: 100 };
const SCALE_WORDS: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };

/**
 * The amounts a source prints, in the order printed: its numbers (by size), a number written as a
 * word ("two weeks"), and an amount with a scale word also at full size ("$4.2 million" is 4,200,000).
 */
export function printedAmounts(text: string): number[] {
  const amounts: number[] = [];
  const pattern =
    /(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s?(thousand|million|billion|trillion)\b)?|\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|dozen)\b/giu;
  for (const match of text.matchAll(pattern)) {
    if (match[3]) {
      amounts.push(AMOUNT_WORDS[match[3].toLowerCase()] as number);
      continue;
    }
    const value = Number((match[1] as string).replaceAll(",", ""));
    amounts.push(value);
    if (match[2]) amounts.push(value * (SCALE_WORDS[match[2].toLowerCase()] as number));
  }
  return amounts;
}

/** Most amounts of a source paired with each other: a long table's first ones (bounds the work, and chance). */
const MAX_PAIRED_AMOUNTS = 300;
/** Longest run of consecutive amounts (a table row or column) summed or averaged. */
const MAX_RUN = 12;

/** The values a stated figure may be, each to the precision it is written with (1% when "about"). */
export function figureReadings(
  figure: Pick<StatedFigure, "value" | "scale" | "decimals" | "approximate">,
): Array<{ value: number; tolerance: number }> {
  const half = 0.5 * 10 ** -figure.decimals;
  const tolerance = (value: number, unit: number) =>
    Math.max(half * unit, figure.approximate ? Math.abs(value) * 0.01 : 0) + 1e-9;
  const plain = { value: figure.value, tolerance: tolerance(figure.value, 1) };
  if (figure.scale === 1) return [plain];
  const full = figure.value * figure.scale;
  return [plain, { value: full, tolerance: tolerance(full, figure.scale) }];
}

/** A source's amounts at the sizes a scaled figure may read them at (a table "in millions"). */
function atScales(amounts: readonly number[], figure: StatedFigure): number[] {
  if (figure.scale === 1) return [...amounts];
  return amounts.flatMap((amount) => [amount, amount * 1e3, amount * 1e6, amount * 1e9]);
}

function matchesAny(candidate: number, targets: ReadonlyArray<{ value: number; tolerance: number }>): boolean {
  return targets.some((target) => Math.abs(Math.abs(candidate) - Math.abs(target.value)) <= target.tolerance);
}

/** Whether the sources print the figure (to its precision, at its scale). */
export function isPrinted(figure: StatedFigure, amounts: readonly number[]): boolean {
  const targets = figureReadings(figure);
  return atScales(amounts, figure).some((amount) => matchesAny(amount, targets));
}

/** Whether one named computation over the printed amounts gives the figure. */
export function isDerived(
  figure: StatedFigure,
  amounts: readonly number[],
  derivations: ReadonlySet<Derivation>,
): boolean {
  if (derivations.size === 0) return false;
  const targets = figureReadings(figure);
  const values = [...new Set(amounts.slice(0, MAX_PAIRED_AMOUNTS))];
  const scaled = (value: number) => (figure.scale === 1 ? [value] : [value, value * 1e3, value * 1e6, value * 1e9]);
  const hits = (value: number) => Number.isFinite(value) && scaled(value).some((each) => matchesAny(each, targets));
  const percentOnly = figure.percent;
  for (let i = 0; i < values.length; i += 1) {
    const a = values[i] as number;
    for (let j = 0; j < values.length; j += 1) {
      if (i === j) continue;
      const b = values[j] as number;
      if (derivations.has("difference") && i < j && hits(a - b)) return true;
      if (!percentOnly && derivations.has("sum") && i < j && hits(a + b)) return true;
      if (!percentOnly && derivations.has("average") && i < j && hits((a + b) / 2)) return true;
      if (b === 0) continue;
      if (!percentOnly && derivations.has("ratio") && hits(a / b)) return true;
      if (percentOnly && derivations.has("percent-of") && hits((100 * a) / b)) return true;
      if (percentOnly && derivations.has("percent-change") && hits((100 * (a - b)) / b)) return true;
    }
  }
  if (percentOnly || (!derivations.has("sum") && !derivations.has("average"))) return false;
  // A row or column: consecutive amounts in print order, summed or averaged.
  const ordered = amounts.slice(0, MAX_PAIRED_AMOUNTS);
  for (let start = 0; start < ordered.length; start += 1) {
    let total = 0;
    for (let length = 1; length <= MAX_RUN && start + length <= ordered.length; length += 1) {
      total += ordered[start + length - 1] as number;
      if (length < 3) continue;
      if (derivations.has("sum") && hits(total)) return true;
      if (derivations.has("average") && hits(total / length)) return true;
    }
  }
  return false;
}
