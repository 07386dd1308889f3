/**
 * The primary financial statements of an annual or quarterly report, recognized by the names reports and
 * readers give them. Each statement goes by several names (US GAAP and IFRS wording, company habit): a
 * question about "the balance sheet" is answered on a page titled "Consolidated Statements of Financial
 * Position", "the income statement" on "Consolidated Statements of Operations". Ingestion uses this to
 * keep a statement's title as the heading of everything on its page (pdf-headings.ts); retrieval uses it
 * to prefer the statement a question names (statement-targeting.ts).
 *
 * Matching reads letters only, lower-cased: PDFs often set titles letter-spaced ("Statement of Cash Flow s",
 * "S T A T E M E N T S"), which a word-based match would miss.
 */

import { endsOnLinkingWord } from "./wrapped-line.js";

export type FinancialStatement = "balance-sheet" | "income-statement" | "cash-flow-statement" | "equity-statement";

/** The names of each statement, written as letters only ("statementsofcashflows"). */
const STATEMENT_NAMES: ReadonlyArray<{ statement: FinancialStatement; pattern: RegExp }> = [
  {
    statement: "balance-sheet",
    // "Off-balance sheet arrangements" are no balance sheet.
    pattern: /(?<!off)balancesheets?|statements?of(?:consolidated)?(?:financialposition|financialcondition|condition)/,
  },
  {
    // "Statements of comprehensive income" is a statement of its own and does not match here;
    // "Statements of operations and comprehensive income" is the income statement and does.
    statement: "income-statement",
    pattern:
      /incomestatements?|(?:profit(?:and|or|&)loss|p&l)(?:statements?|accounts?)?|statements?of(?:consolidated)?(?:income|operations|earnings)/,
  },
  {
    statement: "cash-flow-statement",
    pattern: /cashflows?statements?|statements?of(?:consolidated)?cashflows?/,
  },
  {
    statement: "equity-statement",
    pattern:
      /statements?of(?:consolidated)?(?:changesin)?(?:(?:stockholders|shareholders|shareowners)(?:s)?equity|equity)/,
  },
];

/**
 * The text's letters (and "&") lower-cased, with where each sits in the text:
 * "Statement of Cash Flow s" → "statementofcashflows".
 */
function lettersOf(text: string): { letters: string; positions: number[] } {
  let letters = "";
  const positions: number[] = [];
  for (const match of text.matchAll(/[\p{L}&]/gu)) {
    const lower = match[0].toLowerCase();
    letters += lower;
    for (let index = 0; index < lower.length; index += 1) positions.push(match.index);
  }
  return { letters, positions };
}

/** A statement named in a text: which, and where its name starts and ends (exclusive) in the text. */
export type StatementMention = { statement: FinancialStatement; start: number; end: number };

/** Every naming of a statement in a text, in text order. */
export function statementMentions(text: string): StatementMention[] {
  const { letters, positions } = lettersOf(text);
  const mentions: StatementMention[] = [];
  for (const { statement, pattern } of STATEMENT_NAMES) {
    for (const match of letters.matchAll(new RegExp(pattern.source, "g"))) {
      const last = positions[match.index + match[0].length - 1] ?? 0;
      mentions.push({ statement, start: positions[match.index] ?? 0, end: last + 1 });
    }
  }
  return mentions.sort((left, right) => left.start - right.start);
}

/** The statements a text names, in the order first named, each once. */
export function statementsNamedIn(text: string): FinancialStatement[] {
  return [...new Set(statementMentions(text).map((mention) => mention.statement))];
}

/** A page number ending an index line ("… Balance Sheets 68", "… F-4"); "At December 31" is a date. */
const INDEX_PAGE_NUMBER = /(?:^|\s)(?:[A-Z]-)?\d{1,3}$/;
const DATE_AT_END =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d{1,2}$/i;

/** Words that make a line one about a statement (a sentence, a note, an extract) rather than its title. */
const ABOUT_A_STATEMENT =
  /\b(?:see|refer|included|presented|accompanying|recognized|that|which|are|is|was|were|not|selected|supplemental|key|data|information|analysis|location|components|arrangements|amounts|items?|reconciliation)\b/i;

/** Most words a statement's title line may have: a longer line is a sentence that mentions the statement. */
const MAX_TITLE_WORDS = 14;

/**
 * The statement a line is the title of, or null: a short line naming exactly one statement, without
 * sentence punctuation ("Consolidated Statements of Income   Corning Incorporated and Subsidiary
 * Companies", "CONSOLIDATED BALANCE SHEETS"). Not titles: a sentence ("See the consolidated balance
 * sheets."), an index line ending in its page number ("Consolidated Balance Sheets 68", "… F-3"), and a
 * line about a statement rather than of it ("Selected income statement data", "Supplemental Balance Sheet
 * Information", "Amounts not offset in the Consolidated Balance Sheet that are subject to …").
 */
export function statementTitledBy(line: string): FinancialStatement | null {
  const text = line.replace(/\s+/g, " ").trim();
  if (
    text.length === 0 ||
    /[.;:]$/.test(text) ||
    endsOnLinkingWord(text) ||
    (INDEX_PAGE_NUMBER.test(text) && !DATE_AT_END.test(text)) ||
    ABOUT_A_STATEMENT.test(text.replace(/\([^()]*\)/g, " "))
  )
    return null;
  // Letter-spaced titles count their letters, not their "words".
  const words = text.split(" ").filter((word) => word.length > 1).length;
  if (words > MAX_TITLE_WORDS) return null;
  const mentions = statementMentions(text);
  const [mention] = mentions;
  if (mention === undefined || mentions.some((other) => other.statement !== mention.statement)) return null;
  // Around a title stand names and periods ("NIKE, Inc. …", "… Years ended December 31"); a line of
  // prose that runs through a statement's name ("… partially offset by balance sheet growth", "Impact
  // of derivatives on the consolidated balance sheets") has lower-case words of its own around it.
  const before = text.slice(0, mention.start);
  // Parentheses ("(In thousands, except share data)", "(unaudited)", one cut off at the line's end) are no prose.
  const after = text.slice((mentions.at(-1) as StatementMention).end).replace(/\([^()]*\)?/g, " ");
  return wordsFit(before, TITLE_WORDS_BEFORE) && wordsFit(after, TITLE_WORDS_AFTER) ? mention.statement : null;
}

/** Lower-case words that may stand before a statement's name in its title, and after it. */
const TITLE_WORDS_BEFORE = new Set(["and", "of", "&", "consolidated", "condensed", "combined", "interim", "unaudited"]);
const TITLE_WORDS_AFTER = new Set([
  "and",
  "of",
  "ended",
  "ending",
  "at",
  "as",
  "for",
  "the",
  "year",
  "years",
  "months",
  "weeks",
  "to",
]);

/** Whether every word of a title's surroundings is capitalized, a number, a sign, or one of `allowed`. */
function wordsFit(text: string, allowed: ReadonlySet<string>): boolean {
  return text
    .split(/[\s,–—-]+/)
    .filter((word) => /\p{L}/u.test(word))
    .every((word) => !/^\p{Ll}/u.test(word) || allowed.has(word));
}

/** The statement whose title a passage is indexed under (at any level of its heading path), or null. */
export function statementOfPassage(provenance: { headingPath?: readonly string[] }): FinancialStatement | null {
  for (const heading of provenance.headingPath ?? []) {
    const statement = statementTitledBy(heading);
    if (statement !== null) return statement;
  }
  return null;
}
