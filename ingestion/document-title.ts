/**
 * A document's title as people know it. An SEC filing is named from its own cover page — registrant,
 * form and period ("NIKE, Inc. — Form 10-K, fiscal year ended May 31, 2018") — whatever its metadata
 * says. PDF metadata often holds something else — an SEC accession number ("0000320187-18-000142"), an
 * exporter's file name or template ("Document1", "C:\work\draft.docx"), a generated stamp ("10Q Doc &
 * Exhibits-2022-08-03-15-21"), an exhibit label ("Exhibit 99.1") or the name of the regulator or form the
 * document was filed on ("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "FORM 10-K") — so metadata
 * counts only when it reads as a title; then the first page's title lines; then the file name.
 */

export type TitleSources = {
  /** The PDF's Title field, already cleaned of exporter prefixes; "" when none. */
  metadataTitle: string;
  /** The text of the first pages, in order (a cover page may be blank or a table of contents). */
  pageTexts: readonly string[];
  fileName: string;
};

const MAX_TITLE_LENGTH = 200;
/** The title lines of a first page are its first few; a title rarely runs past three lines. */
const MAX_TITLE_LINES = 3;

const ACCESSION_NUMBER = /^\d{10}-\d{2}-\d{6}$/;
/** An identifier: one "word" of letters, digits and separators with at least four digits in it. */
const IDENTIFIER = /^(?=(?:[^\d]*\d){4})[\w.-]+$/;
const TEMPLATE_NAMES =
  /^(untitled(\s+document)?|document\s*\d*|new document|blank( document)?|book\s*\d+|presentation\s*\d*|powerpoint presentation|slide\s*\d+|title|template|draft|pdf|scan\s*\d*|word document)$/i;
/** A path (a backslash, a leading slash or drive, slashes without spaces) or a name with a document extension. */
const FILE_PATH = /\\|^\/|^[a-z]:|^\S*\/\S*$|\.(pdf|docx?|xlsx?|pptx?|rtf|txt|html?|indd|qxp|pages|odt)$/i;
/** A machine's date-time stamp (2022-08-03-15-21, 20220803T1521). */
const GENERATED_STAMP = /\d{4}-\d{2}-\d{2}[-_T ]\d{2}[-_:]?\d{2}|\b\d{8}T\d{4}/;
const EXHIBIT_LABEL = /\bexhibit\s+\d+(\.\d+)?\b/i;
/**
 * The printed furniture of a regulator's or a form's cover, which names no document: the agency ("UNITED
 * STATES SECURITIES AND EXCHANGE COMMISSION"), its address, the form alone ("FORM 10-K", "Annual Report
 * Pursuant to Section 13…"), a filing system's name.
 */
const COVER_FURNITURE = [
  /^(the\s+)?united\s+states(\s+of\s+america)?$/i,
  /^(united\s+states\s+)?securities\s+and\s+exchange\s+commission$/i,
  /^washington,?\s+d\.?\s?c\.?(\s+\d{5})?$/i,
  /^(sec\s+)?form\s+[\w-]+$/i,
  /^(annual|quarterly|current)\s+report(\s+(pursuant|on\s+form)\b.*)?$/i,
  /^(sec|edgar|edgar\s+filing|edgar\s+online)$/i,
];

export function isCoverFurniture(line: string): boolean {
  const flat = line.replace(/\s+/g, " ").trim();
  return COVER_FURNITURE.some((pattern) => pattern.test(flat));
}

/** Whether a metadata title reads as a title (not an id, a file path, a template or a generated label). */
export function isMeaningfulTitle(title: string, fileName: string): boolean {
  const trimmed = title.trim();
  if (trimmed.length < 3 || !/\p{L}/u.test(trimmed)) return false;
  if (ACCESSION_NUMBER.test(trimmed) || IDENTIFIER.test(trimmed)) return false;
  if (TEMPLATE_NAMES.test(trimmed) || FILE_PATH.test(trimmed) || GENERATED_STAMP.test(trimmed)) return false;
  if (EXHIBIT_LABEL.test(trimmed) || isCoverFurniture(trimmed)) return false;
  // The file name again adds nothing: the file name is shown beside the title anyway.
  return baseName(trimmed).toLowerCase() !== baseName(fileName).toLowerCase();
}

export function chooseDocumentTitle(sources: TitleSources): string {
  // A filing's cover may follow a blank page or a one-line wrapper page ("FORM 10-K"): any of the first pages.
  const filing = sources.pageTexts.map(secFilingTitle).find((title) => title !== null);
  if (filing) return limit(filing);
  if (isMeaningfulTitle(sources.metadataTitle, sources.fileName)) return limit(sources.metadataTitle);
  const firstPage = sources.pageTexts.find((text) => text.trim().length > 0);
  const fromPage = firstPage === undefined ? null : titleLines(firstPage);
  return limit(fromPage ?? sources.fileName);
}

/** "NIKE, Inc. — Form 10-K, fiscal year ended May 31, 2018", from a filing's cover page. */
export function secFilingTitle(pageText: string): string | null {
  const lines = nonEmptyLines(pageText);
  const form = lines.map((line) => /^FORM\s+(10-K|10-Q|8-K|20-F|40-F|6-K|S-1|S-4)\b/i.exec(line)?.[1]).find(Boolean);
  const company = registrantOf(lines);
  if (form === undefined || company === undefined) return null;
  const period = filingPeriod(lines);
  return `${tidyCompany(company)} — Form ${form.toUpperCase()}${period ? `, ${period}` : ""}`;
}

/**
 * The registrant's name: the line above "(Exact name of registrant as specified in its charter)", or, on a
 * cover without that label (3M's), the line after the commission file number when it reads as a name.
 */
function registrantOf(lines: readonly string[]): string | undefined {
  const labelAt = lines.findIndex((line) => /^\(Exact name of registrant/i.test(line));
  if (labelAt > 0) return lines[labelAt - 1];
  const fileNumberAt = lines.findIndex((line) => /^commission file (number|no\.?)\b/i.test(line));
  const next = fileNumberAt >= 0 ? lines[fileNumberAt + 1] : undefined;
  const readsAsName = next !== undefined && next.length <= 80 && /\p{L}{2}/u.test(next) && !/[:(]/.test(next);
  return readsAsName ? next : undefined;
}

const PERIODS: ReadonlyArray<{ pattern: RegExp; label: string }> = [
  { pattern: /for the fiscal year ended\s*(.*)$/i, label: "fiscal year ended" },
  { pattern: /for the quarterly period ended\s*(.*)$/i, label: "quarter ended" },
  { pattern: /date of report[^:]*:\s*(.*)$/i, label: "dated" },
];

const DATE =
  /\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2},?\s+\d{4}\b|\b\d{1,2}\/\d{1,2}\/\d{4}\b/i;

/**
 * The period a filing covers, as its cover page states it. The date may be on the next line, and a
 * two-column cover puts other words beside it ("June 30, 2022 number 1-5805"), so the date itself is
 * looked for; without one the period is left out.
 */
function filingPeriod(lines: readonly string[]): string | null {
  for (const [index, line] of lines.entries()) {
    for (const { pattern, label } of PERIODS) {
      const match = pattern.exec(line);
      if (!match) continue;
      const date = [match[1] ?? "", lines[index + 1] ?? ""].map((text) => DATE.exec(text)?.[0]).find(Boolean);
      return date === undefined ? null : `${label} ${tidyDate(date)}`;
    }
  }
  return null;
}

/** "MAY 31, 2019" → "May 31, 2019": a cover printed in capitals still names its month as a date. */
function tidyDate(date: string): string {
  return date.replace(/^\p{L}+/u, (month) => `${month.charAt(0).toUpperCase()}${month.slice(1).toLowerCase()}`);
}

/** A capital set apart from the rest of its word, as small capitals come out of some PDFs: "R ESORTS". */
const SPLIT_CAPITAL = /\b(\p{Lu}) (\p{Lu}{2,})\b/gu;

function tidyCompany(line: string): string {
  // pdf text often splits "Inc." from its period ("NIKE, Inc .").
  let company = line.replace(/\s+([.,])/g, "$1").trim();
  // "MGM R ESORTS I NTERNATIONAL": joined only when it happens twice or more, so one real initial stays apart.
  if ((company.match(SPLIT_CAPITAL) ?? []).length >= 2) company = company.replace(SPLIT_CAPITAL, "$1$2");
  return company;
}

/**
 * The first page's title lines: its first line that is not a running label ("Table of Contents",
 * "Exhibit 99.1", a page number), joined with the lines that continue it — all-capital lines after an
 * all-capital line, or any line after one that ends in a linking word or a comma.
 */
export function titleLines(pageText: string): string | null {
  const lines = nonEmptyLines(pageText);
  const start = lines.findIndex((line) => !isRunningLabel(line) && !isWebAddress(line));
  const first = lines[start];
  if (first === undefined) return null;
  const title = [first];
  for (const line of lines.slice(start + 1)) {
    // A web address after the first line ends the title: what follows it is no continuation.
    if (isWebAddress(line)) break;
    if (isRunningLabel(line)) continue;
    if (title.length >= MAX_TITLE_LINES || !/\p{L}/u.test(line)) break;
    const previous = title[title.length - 1] ?? "";
    const continuesCapitals = isAllCapitals(previous) && isAllCapitals(line);
    const continuesPhrase = /(\b(and|of|the|for|to|in|on|at|by|with|from|a|an|&)|[,:–-])$/i.test(previous);
    if (!continuesCapitals && !continuesPhrase) break;
    title.push(line);
  }
  return title.join(" ");
}

function isRunningLabel(line: string): boolean {
  return (
    /^(table of contents|contents|front cover|cover)$/i.test(line) ||
    /^exhibit\s+\d+(\.\d+)?$/i.test(line) ||
    /^(page\s+)?\d+(\s+of\s+\d+)?$/i.test(line) ||
    isCoverFurniture(line) ||
    !/\p{L}/u.test(line)
  );
}

/** A line that starts with a web address ("ibm.com/redbooks Redpaper"): a publisher's mark or a link, not a title. */
function isWebAddress(line: string): boolean {
  return (
    /^(https?:\/\/|www\.)?[\w-]+(\.[\w-]+)*\.(com|org|gov|net|edu|int)(\/\S*)?(\s|$)/i.test(line) ||
    /^https?:\/\//i.test(line)
  );
}

function isAllCapitals(line: string): boolean {
  const letters = line.replace(/[^\p{L}]/gu, "");
  return letters.length >= 3 && letters === letters.toUpperCase();
}

function nonEmptyLines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line.length > 0);
}

function baseName(fileName: string): string {
  return fileName.replace(/^.*[\\/]/, "").replace(/\.[^.]+$/, "");
}

function limit(title: string): string {
  return title.replace(/\s+/g, " ").trim().slice(0, MAX_TITLE_LENGTH);
}
