/**
 * Document targeting: when a question names what a document is about — a company, a product, a plan,
 * a year — and that name is in the document's title or file name, that document's passages should win.
 * A statement page of "3M_2018_10K.pdf" never says "3M" or "FY2018"; the question "What is the FY2018
 * capital expenditure for 3M?" does, and so does the file.
 *
 * The rule is general, over titles only (no list of names). Each name in the question (see namingWords)
 * found in a document's subject (title + file name) weighs ln(N / df): N long documents in the searched
 * spaces, df of them with the name in their subject, so a name every title has weighs nothing. The
 * documents scoring at least `relativeScore` of the best are targeted, provided they are at most
 * `maxTargetedShare` of the documents. A name on most passages of the documents it does not title
 * targets nothing: it is what the whole library is about. Matching forgives how file names write names:
 * a year inside a token ("FY2018", "2021Q1") is the year; adjacent question words may be one title word
 * ("MGM Resorts" ~ "MGMRESORTS"); a capitalized name may abbreviate a title word ("JPM" ~ "JPMORGAN").
 */
import { readableFileName } from "../domain/index-text.js";
import { analyzeText } from "./text-analyzer.js";

export type TargetableDocument = {
  id: string;
  title: string;
  fileName: string;
  /** Pages (PDF), null for formats without pages: weighs how much of the library a document is. */
  pageCount?: number | null;
  /** The uploaded file's size: tells a long document without pages from a note. */
  byteSize?: number;
};

/**
 * Only long documents are targeted: a passage of a one-page note carries its title already (the title is
 * indexed with every passage), so preferring the note adds nothing but bias. Measured on SciFact, where
 * each abstract is one passage and its title is content: with abstracts targetable, hybrid nDCG@10 fell
 * from 0.728 to 0.651.
 */
export function isLongDocument(document: TargetableDocument): boolean {
  if (document.pageCount !== null && document.pageCount !== undefined) return document.pageCount >= MIN_PAGES;
  return (document.byteSize ?? 0) >= MIN_BYTES_WITHOUT_PAGES;
}

const MIN_PAGES = 2;
/** About four passages of plain text; formats without pages (DOCX, XLSX, CSV, text) are judged by size. */
const MIN_BYTES_WITHOUT_PAGES = 8 * 1024;

export type TargetingSettings = {
  /** Documents scoring at least this share of the best score are targeted. */
  relativeScore: number;
  /** Targeting stands down when more than this share of the spaces' documents would be targeted. */
  maxTargetedShare: number;
  /**
   * A name found in at least this share of the passages of the documents whose titles do NOT carry it is
   * what the whole collection is about ("Northwind Health" in a library of Northwind Health's plans), not
   * what sets one document apart.
   */
  commonNamePassageShare: number;
};

/**
 * Calibration (pdftotext pages): in the Northwind library "health" is on 77% of all pages, most of them
 * in documents not titled with it; in 25 SEC filings no company or year is on more than 35% of all pages
 * ("2022": 34%, "mgm": 14%, "3m": 8%), and plan names that do set a Northwind document apart are on
 * 36-40% ("standard", "plus"), mostly in the documents they title.
 */
export const DEFAULT_TARGETING_SETTINGS: TargetingSettings = {
  relativeScore: 0.75,
  maxTargetedShare: 0.5,
  commonNamePassageShare: 0.5,
};

/** Shortest capitalized name that may stand for a longer title word ("JPM" for "JPMORGAN"). */
const MIN_ABBREVIATION_LENGTH = 3;
const YEAR_INSIDE_TOKEN = /(?:^|[^0-9])((?:19|20)\d{2})(?![0-9])/g;
const RAW_WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

function yearsIn(token: string): string[] {
  return [...token.matchAll(YEAR_INSIDE_TOKEN)].map((match) => match[1] ?? "").filter(Boolean);
}

/** Analyzed terms of a title or file name, with the years hidden inside tokens. */
function subjectTerms(text: string): Set<string> {
  const terms = new Set(analyzeText(text));
  for (const term of [...terms]) for (const year of yearsIn(term)) terms.add(year);
  return terms;
}

const subjectCache = new Map<string, Set<string>>();
const SUBJECT_CACHE_LIMIT = 50_000;

function subjectOf(document: TargetableDocument): Set<string> {
  const key = `${document.id}\u0000${document.title}\u0000${document.fileName}`;
  let terms = subjectCache.get(key);
  if (!terms) {
    terms = subjectTerms(`${document.title}\n${readableFileName(document.fileName)}`);
    if (subjectCache.size >= SUBJECT_CACHE_LIMIT) subjectCache.clear();
    subjectCache.set(key, terms);
  }
  return terms;
}

type QuestionTerms = {
  /** Analyzed terms of the names, years inside tokens, and adjacent name words joined ("mgmresort"). */
  exact: Set<string>;
  /** Capitalized names that may abbreviate a longer title word. */
  names: string[];
};

/**
 * Runs of words that name something: a capital past a sentence's first letter ("MGM", "Corning",
 * "iPhone"), digits with letters ("3M", "FY2018") or a year ("2021"). Only names target documents:
 * "What is the company's policy?" must not prefer every document with "Company" in its title.
 */
function namingWords(question: string): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  for (const sentence of question.split(/(?<=[.?!:;])\s+/)) {
    const words = [...sentence.matchAll(RAW_WORD)].map((match) => match[0].replace(/['’]s$/iu, ""));
    words.forEach((word, index) => {
      // Digits name something with letters ("3M", "FY2018", "Q1") or as a year; "5" or "10" name nothing.
      const naming =
        (/\p{N}/u.test(word) && (/\p{L}/u.test(word) || /^(?:19|20)\d{2}$/.test(word))) ||
        /\p{Lu}/u.test(index === 0 ? word.slice(1) : word);
      if (naming) run.push(word);
      else if (run.length > 0) {
        runs.push(run);
        run = [];
      }
    });
    if (run.length > 0) runs.push(run);
    run = [];
  }
  return runs;
}

/** The analyzed terms that may name a document in the question: what to look up passage shares for. */
export function namingTerms(question: string): string[] {
  const { exact, names } = questionTerms(question);
  return [...new Set([...exact, ...names])];
}

function questionTerms(question: string): QuestionTerms {
  const exact = new Set<string>();
  const names: string[] = [];
  for (const run of namingWords(question)) {
    for (const term of subjectTerms(run.join(" "))) exact.add(term);
    for (let index = 0; index + 1 < run.length; index += 1) {
      for (const joined of [run.slice(index, index + 2).join(""), run.slice(index, index + 3).join("")]) {
        for (const term of analyzeText(joined)) exact.add(term);
      }
    }
    for (const word of run)
      if (/\p{L}/u.test(word) && word.length >= MIN_ABBREVIATION_LENGTH) names.push(word.toLowerCase());
  }
  return { exact, names };
}

/** The question terms found in one document's subject (a matched abbreviation counts as its name). */
function matchedTerms(question: QuestionTerms, subject: Set<string>): string[] {
  const matched = [...question.exact].filter((term) => subject.has(term));
  for (const name of question.names) {
    if (matched.includes(name)) continue;
    for (const term of subject) {
      if (term.length > name.length && term.startsWith(name)) {
        matched.push(name);
        break;
      }
    }
  }
  return matched;
}

/**
 * The ids of the documents the question names, or null when it names none (or too many to prefer).
 * Pure: callers pass the documents of the spaces being searched.
 */
export function targetDocuments(
  question: string,
  allDocuments: TargetableDocument[],
  settings: TargetingSettings = DEFAULT_TARGETING_SETTINGS,
  /** Share of the spaces' passages that contain each naming term (see namingTerms); absent terms count 0. */
  passageShare: ReadonlyMap<string, number> = new Map(),
): string[] | null {
  const candidates = allDocuments.filter(isLongDocument);
  if (candidates.length < 2) return null;
  return targetAmong(question, candidates, settings, passageShare, librarySizeOf(allDocuments));
}

/** Documents are assumed to hold passages in proportion to their pages (one page for formats without). */
function sizeOf(document: TargetableDocument): number {
  return Math.max(1, document.pageCount ?? 1);
}

function librarySizeOf(documents: TargetableDocument[]): number {
  return documents.reduce((sum, document) => sum + sizeOf(document), 0);
}

function targetAmong(
  question: string,
  documents: TargetableDocument[],
  settings: TargetingSettings,
  passageShare: ReadonlyMap<string, number>,
  librarySize: number,
): string[] | null {
  const terms = questionTerms(question);
  const matches = documents.map((document) => matchedTerms(terms, subjectOf(document)));
  const titledBy = new Map<string, TargetableDocument[]>();
  matches.forEach((matched, index) => {
    const document = documents[index] as TargetableDocument;
    for (const term of matched) {
      const titled = titledBy.get(term);
      if (titled) titled.push(document);
      else titledBy.set(term, [document]);
    }
  });
  /**
   * The term's share of the passages outside the documents it titles. Those documents' passages all
   * carry it (their title is indexed with each).
   */
  const isCommon = (term: string) => {
    const titledShare = (titledBy.get(term) ?? []).reduce((sum, document) => sum + sizeOf(document), 0) / librarySize;
    if (titledShare >= 1) return false;
    const outside = ((passageShare.get(term) ?? 0) - titledShare) / (1 - titledShare);
    return outside >= settings.commonNamePassageShare;
  };
  const weight = (term: string) =>
    isCommon(term) ? 0 : Math.log(documents.length / (titledBy.get(term)?.length ?? documents.length));
  const scores = matches.map((matched) => matched.reduce((sum, term) => sum + weight(term), 0));
  const best = Math.max(...scores);
  if (!(best > 0)) return null;
  const targeted = documents.filter((_, index) => (scores[index] ?? 0) >= best * settings.relativeScore);
  if (targeted.length > documents.length * settings.maxTargetedShare) return null;
  return targeted.map((document) => document.id);
}
