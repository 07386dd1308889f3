/**
 * Whether the evidence covers what a question names: each company, product or plan it names must be
 * named in a document the search found (its text, title or file name), and a figure asked for a year
 * must come from a table column or a sentence of that year. When it is not, the answer says what is
 * missing and what the documents do cover ("The documents have figures for 2016–2018, not 2020.")
 * instead of quoting another company's or another year's numbers.
 */

import { splitSentences } from "../../../ingestion/split-sentences.js";
import type { SearchResult } from "../../domain/types.js";
import { januaryYearShift } from "../question/fiscal-year-naming.js";
import { countNamings, namesIn, normalizeForNames } from "../question/name-matching.js";
import type { Period, QuestionAnalysis } from "../question/question-analysis.js";
import { uniqueTerms } from "./sentence-scoring.js";
import { type TableCell, tableCells, type UnitScale, yearColumnEnds } from "./table-cells.js";
import { noteScale } from "./tables/table-grid.js";

/** What a document's passages show about it: its text (normalized for names) and the years its tables report. */
type DocumentFacts = {
  text: string;
  words: string[];
  reportedYears: Set<number>;
  januaryYearShift: number | null;
  unitScale: UnitScale | null;
};

/** Reads a document's passages once and answers what it names and which years its tables report; a bounded cache. */
export type DocumentFactsIndex = {
  /** "named": the document names it somewhere; "subject": in its title or file name, or again and again in its text. */
  mentions(
    document: { documentId: string; title: string; file: string },
    name: string,
  ): Promise<"subject" | "named" | "absent">;
  reportedYears(documentId: string): Promise<Set<number>>;
  /** How the document names fiscal years ending in January or February (see fiscal-year-naming.ts). */
  januaryYearShift(documentId: string): Promise<number | null>;
  /** The one unit note the document states ("(in thousands)"), for its tables that state none; null for none or several. */
  unitScale(documentId: string): Promise<UnitScale | null>;
};

/**
 * A document names its own company, product or plan again and again; another company only in passing
 * (a customer, a competitor). A figure is only taken from a document about what the question names.
 */
const SUBJECT_NAMINGS = 5;

export function createDocumentFactsIndex(
  loadPassages: (documentId: string) => Promise<Array<Pick<SearchResult, "text" | "kind" | "provenance">>>,
  capacity = 32,
): DocumentFactsIndex {
  const facts = new Map<string, Promise<DocumentFacts>>();
  const factsOf = (documentId: string): Promise<DocumentFacts> => {
    const cached = facts.get(documentId);
    if (cached !== undefined) {
      // Most recently used last, so the oldest entry is the first the map iterates.
      facts.delete(documentId);
      facts.set(documentId, cached);
      return cached;
    }
    const loading = loadPassages(documentId).then((passages) => {
      const printed = passages.map((passage) => passage.text).join("\n");
      const text = normalizeForNames(printed);
      const shift = januaryYearShift(printed);
      return {
        text,
        words: text.trim().split(" "),
        reportedYears: new Set(yearsInColumns(passages, shift)),
        januaryYearShift: shift,
        unitScale: noteScale(printed),
      };
    });
    loading.catch(() => facts.delete(documentId));
    facts.set(documentId, loading);
    while (facts.size > capacity) facts.delete(facts.keys().next().value as string);
    return loading;
  };
  return {
    async mentions(document, name) {
      const label = normalizeForNames(`${document.title} ${document.file.replace(/[_-]+/g, " ")}`);
      if (namesIn(label, label.trim().split(" "), name) || startsLabelWord(label, name)) return "subject";
      const { text, words } = await factsOf(document.documentId);
      // A document is about a name its text writes out, again and again; a slip forgiven only names it.
      if (countNamings(text, words, name, SUBJECT_NAMINGS, false) >= SUBJECT_NAMINGS) return "subject";
      return countNamings(text, words, name, 1) > 0 ? "named" : "absent";
    },
    async reportedYears(documentId) {
      return (await factsOf(documentId)).reportedYears;
    },
    async januaryYearShift(documentId) {
      return (await factsOf(documentId)).januaryYearShift;
    },
    async unitScale(documentId) {
      return (await factsOf(documentId)).unitScale;
    },
  };
}

export type NameCoverage = {
  /** Names the question gives that no found document names. */
  missing: string[];
  /**
   * Missing names of two or more words whose first word the documents do use ("Northwind Premium" where
   * they have Northwind Standard): a variant of what the documents cover, which they do not hold.
   */
  variants: string[];
  /** Found passages (chunk ids) that name every name the question gives. */
  namingPassages: Set<string>;
  /**
   * Names the found documents give only in passing: no document is about it, and no found table names it
   * nor any passage beside half the measure's words ("Apple" in a sentence of Nike's report). A figure for it
   * would be another company's.
   */
  inPassingOnly: string[];
  /** Per document id: whether it is about a name the question gives (see SUBJECT_NAMINGS); true for all when it gives none. */
  aboutAsked: Map<string, boolean>;
};

/** Which of the question's names the found documents name, and which documents name them all. */
export async function coverNames(
  entities: string[],
  results: SearchResult[],
  index: DocumentFactsIndex,
  /** The measure asked for: a passage that names the name beside half its words or more may report its figure. */
  measureTerms: ReadonlySet<string> = new Set(),
): Promise<NameCoverage> {
  const documents = new Map<string, SearchResult>();
  for (const result of results) if (!documents.has(result.documentId)) documents.set(result.documentId, result);
  const missing: string[] = [];
  // A document is about what the question asks when it is about one of the names it gives: two names
  // in one figure question are mostly one company's ("Block (formerly known as Square)").
  const aboutAsked = new Map<string, boolean>([...documents.keys()].map((id) => [id, entities.length === 0]));
  const passages = results.map((result) => {
    const text = normalizeForNames(result.text);
    return { chunkId: result.chunkId, documentId: result.documentId, text, words: text.trim().split(" ") };
  });
  const variants: string[] = [];
  const inPassingOnly: string[] = [];
  const namingPassages = new Set(results.map((result) => result.chunkId));
  for (const entity of entities) {
    let named = false;
    let subject = false;
    let reported = false;
    for (const [position, passage] of passages.entries()) {
      if (!namesIn(passage.text, passage.words, entity)) namingPassages.delete(passage.chunkId);
      else if (results[position]?.kind === "table" || holdsMeasure(results[position]?.text ?? "", measureTerms))
        reported = true;
    }
    for (const [documentId, result] of documents) {
      const inPassage = passages.some(
        (passage) => passage.documentId === documentId && namesIn(passage.text, passage.words, entity),
      );
      const mention = await index.mentions({ documentId, title: result.title, file: result.file }, entity);
      if (inPassage || mention !== "absent") named = true;
      if (mention === "subject") {
        aboutAsked.set(documentId, true);
        subject = true;
      }
    }
    if (!named) {
      missing.push(entity);
      if (await isVariant(entity, documents, index)) variants.push(entity);
    } else if (!subject && !reported) inPassingOnly.push(entity);
  }
  return { missing, variants, namingPassages, inPassingOnly, aboutAsked };
}

function holdsMeasure(text: string, measureTerms: ReadonlySet<string>): boolean {
  if (measureTerms.size === 0) return false;
  const terms = uniqueTerms(text);
  return [...measureTerms].filter((term) => terms.has(term)).length * 2 >= measureTerms.size;
}

/** Whether a missing name of two or more words starts with a word the found documents use as a name. */
async function isVariant(
  entity: string,
  documents: Map<string, SearchResult>,
  index: DocumentFactsIndex,
): Promise<boolean> {
  const words = normalizeForNames(entity).trim().split(" ");
  const first = words[0];
  if (words.length < 2 || first === undefined || first.length < 3) return false;
  for (const [documentId, result] of documents)
    if ((await index.mentions({ documentId, title: result.title, file: result.file }, first)) !== "absent") return true;
  return false;
}

/** "JPM" starts "JPMORGAN_2021Q1_10Q.pdf", "Foot Locker" starts "FOOTLOCKER_2022_8K.pdf": the name run together starts a label word. */
function startsLabelWord(label: string, name: string): boolean {
  const compact = normalizeForNames(name).replace(/ /g, "");
  if (compact.length < 3) return false;
  const words = label.trim().split(" ");
  return words.some((_, index) => words.slice(index).join("").startsWith(compact));
}

export type PeriodCoverage = { missing: Period[]; coveredYears: number[] };

/**
 * The asked years that the documents do not report: in no period column of their tables and in no
 * found sentence that also holds a word of the measure. Years are only judged missing when the
 * documents' tables report some years (a document without dated tables is never refused on a year).
 */
export async function coverPeriods(
  analysis: Pick<QuestionAnalysis, "periods" | "measureTerms">,
  results: SearchResult[],
  index: DocumentFactsIndex,
): Promise<PeriodCoverage> {
  if (analysis.periods.length === 0) return { missing: [], coveredYears: [] };
  const years = new Set<number>();
  for (const documentId of new Set(results.map((result) => result.documentId)))
    for (const year of await index.reportedYears(documentId)) years.add(year);
  const coveredYears = [...years].sort((left, right) => left - right);
  if (coveredYears.length === 0) return { missing: [], coveredYears };
  const missing = analysis.periods.filter(
    (period) =>
      !years.has(period.year) &&
      !results.some((result) => sentenceReports(result.text, period.year, analysis.measureTerms)),
  );
  return { missing, coveredYears };
}

/**
 * The years a document's tables report results for, ascending: the years in their period columns up
 * to the one most tables end on (the year the document reports on). Later years in a few tables are
 * schedules of what falls due ("2022 … 2026" of lease payments), not results.
 */
function yearsInColumns(
  passages: Array<Pick<SearchResult, "text" | "kind" | "provenance">>,
  januaryShift: number | null,
): number[] {
  const years = new Set<number>();
  const latestCounts = new Map<number, number>();
  for (const passage of passages) {
    let latest = 0;
    for (const cell of tableCells(passage, { januaryYearShift: januaryShift }))
      for (const year of yearsOfColumn(cell)) {
        years.add(year);
        latest = Math.max(latest, year);
      }
    if (latest > 0) latestCounts.set(latest, (latestCounts.get(latest) ?? 0) + 1);
  }
  const reportingYear = [...latestCounts].sort((left, right) => right[1] - left[1] || right[0] - left[0])[0]?.[0];
  return [...years].filter((year) => reportingYear === undefined || year <= reportingYear).sort((a, b) => a - b);
}

/**
 * The years a column reports: its period's year; for a January or February period end whose fiscal year
 * the document does not name, both years it may belong to ("January 28, 2023" ends fiscal 2022 for most
 * retailers); for part of a year, the year it ends in. So coverage is never refused on such a column.
 */
function yearsOfColumn(cell: Pick<TableCell, "column" | "period">): number[] {
  if (cell.period !== null) return [cell.period.year];
  const ending = /\b(?:jan(?:uary)?|feb(?:ruary)?)\.?\s+\d{1,2},?\s+((?:19|20)\d{2})\b/i.exec(cell.column);
  if (ending) return [Number(ending[1]) - 1, Number(ending[1])];
  const year = yearColumnEnds(cell.column);
  return year === null ? [] : [year];
}

/** Whether a sentence of `text` gives a figure for `year`: it names the year, every word of the measure, and another number. */
function sentenceReports(text: string, year: number, measureTerms: Set<string>): boolean {
  return splitSentences(text).some(({ start, end }) => {
    const sentence = text.slice(start, end);
    if (!new RegExp(`\\b${year}\\b`).test(sentence)) return false;
    const terms = uniqueTerms(sentence);
    if (![...measureTerms].every((term) => terms.has(term))) return false;
    return /\d/.test(sentence.replace(new RegExp(`\\b${year}\\b`, "g"), ""));
  });
}

/** "2016–2018", "2016, 2018 and 2020": the years as a reader scans them. */
export function describeYears(years: number[]): string {
  const sorted = [...new Set(years)].sort((left, right) => left - right);
  if (sorted.length === 0) return "";
  const first = sorted[0] as number;
  const last = sorted.at(-1) as number;
  if (sorted.length === last - first + 1) return first === last ? String(first) : `${first}–${last}`;
  return sorted.length === 2 ? `${first} and ${last}` : `${sorted.slice(0, -1).join(", ")} and ${last}`;
}
