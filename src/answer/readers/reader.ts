/**
 * The one interface every kind of answer is read through. A reader takes the question (read for what it
 * asks) and the search's evidence, and returns its answer with that answer's score — the likelihood that
 * it states what was asked, on one scale for every reader — or that the documents do not cover a name or
 * a period the question asks about. The chooser (choose-answer.ts) runs the readers in order and keeps the
 * best. A reader imports evidence tools (../evidence/), never another reader.
 */
import type { PageText, SearchResult } from "../../domain/types.js";
import { DirectAnswer } from "../compose/direct-answer.js";
import type { DocumentFactsIndex } from "../evidence/evidence-coverage.js";
import type { ProseEvidence } from "../evidence/prose-evidence.js";
import type { LabelMeaning } from "../evidence/tables/label-meaning.js";
import type { NumberedSource } from "../generate/generator.js";
import type { QuestionAnalysis } from "../question/question-analysis.js";

export type ReaderInput = {
  /** The question's information need (informationNeed of the query: a follow-up carries the thread's question). */
  need: string;
  /** The asker's own question (a follow-up without the thread), for what it asks and the case it states. */
  question: string;
  analysis: QuestionAnalysis;
  /** The question's search results, best first. */
  results: SearchResult[];
  /** The answer's numbered sources; an answer found elsewhere is appended. */
  sources: NumberedSource[];
  facts: DocumentFactsIndex;
  /**
   * Searches the asker's spaces: by keyword where the query is the words a row or sentence prints (a line
   * item and its period, a term), in the configured mode where it is a question (a side of a comparison).
   */
  search: (query: string, by: "keywords" | "question") => Promise<SearchResult[]>;
  /** A document's page texts, to read the unit a statement states above its table. */
  pageTexts: (documentId: string) => Promise<PageText[]>;
  /** Row labels matched by meaning (label-meaning.ts); absent without an embedding model. */
  labelMeaning?: LabelMeaning;
  /** The prose of the first results as scored candidates, and the scale any passage a reader finds is put on. */
  prose: ProseEvidence;
};

export type Reading = {
  reader: string;
  /**
   * What the answer stands on: figures read from tables (a cell, a calculation) stand on their own; text
   * quoted from prose stands only where the documents hold an answer by meaning (prose-evidence.ts).
   */
  grounds: "figures" | "text";
  /** How likely the answer states what was asked, 0–1, comparable across readers (see README.md). */
  score: number;
  /** The lines that open the reply; null with `uncovered`. */
  direct: DirectAnswer | null;
  /** Set when the documents do not cover a name or a period the question asks about: the reply says so. */
  uncovered: string | null;
  /** Names no found document gives, for which an answer may still go ahead under a caveat. */
  missingNames: string[];
};

export type Reader = {
  name: string;
  /** The highest score this reader gives: the chooser skips it when a better answer is already in hand. */
  ceiling: number;
  read(input: ReaderInput): Promise<Reading | null>;
};

/** A direct answer of the reader's own: sources it appends stay its own until the chooser keeps its answer. */
export function newDirectAnswer(input: Pick<ReaderInput, "sources">): DirectAnswer {
  return new DirectAnswer([...input.sources]);
}
