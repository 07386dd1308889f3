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
