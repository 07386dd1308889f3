/**
 * The contract between the core and every adapter (console, Slack, Teams, CLI): `answerQuestion`
 * yields these events. Adapters render them; they never call retrieval or the LLM themselves.
 */

import type { SpaceId } from "../domain/types.js";
import type { ApprovedAnswerMatch } from "./approved-answer-source.js";

export type ConversationTurn = {
  role: "user" | "assistant";
  text: string;
};

export type AnswerContext = {
  /** Every space the asker may search; the search filters by these inside the vector query. */
  spaceIds: SpaceId[];
  /** Earlier turns of the thread, oldest first; empty for a fresh question. */
  history: ConversationTurn[];
  requestId: string;
  signal?: AbortSignal;
};

export type Citation = {
  n: number;
  documentId: string;
  title: string;
  file: string;
  pageStart: number | null;
  pageEnd: number | null;
  quote: string;
  /**
   * The heading path of the quoted passage's section, for sources without pages (Markdown, HTML, Word,
   * text): "Leave › Annual leave" when shown. Absent when the source has pages or no headings.
   */
  section?: string[];
  /** Signed link to the source viewer, with `#page=N` for PDFs, `#section=…` for a section. */
  url: string;
  /** The answer's text already shows this quote: renderers list the source without printing it again. */
  quotedInAnswer?: boolean;
};

/** How a language model's draft fared against its sources (absent for extractive answers). */
export type AnswerVerificationSummary = {
  /** unavailable: the model failed; unchecked: the check itself failed; both fall back to extractive. */
  outcome: "verified" | "refusal" | "unsupported" | "unavailable" | "unchecked";
  /** Draft sentences citing an existing source, and how many of them the sources support. */
  citedSentences: number;
  supportedSentences: number;
  /** Draft claims that failed: cited but unsupported, or not cited at all. */
  unsupportedSentences: number;
  /** Time spent checking sentences (embedding them and their sources, the claim check). */
  latencyMs: number;
  /** Tokens of the prompt the model read (system rules, sources, checked facts, question). */
  promptTokens?: number;
  /** From asking the model to its first token, and to the first sentence shown after its check. */
  timeToFirstTokenMs?: number;
  timeToFirstSentenceMs?: number;
  /** From asking the model to its last sentence checked. */
  totalMs?: number;
};

/**
 * The value a direct answer states, for programs that read answers (`folio ask --json`, evaluations):
 * its items as printed or computed ("$1,496.5", "-12.6", "2019", or a list's items), and the scale they are
 * in ("" when none, or "percent").
 */
export type AnswerValue = {
  items: string[];
  scale: "" | "thousand" | "million" | "billion" | "percent";
};

export type Answer = {
  requestId: string;
  answer: string;
  noContext: boolean;
  citations: Citation[];
  timingsMs: Record<string, number>;
  verification?: AnswerVerificationSummary;
  /** Present when the answer opens with a figure, a calculation, a list or a yes/no worked out from the sources. */
  value?: AnswerValue;
  /**
   * Present when a reader's answer opens the reply (src/answer/readers/): which reader, and the likelihood
   * that it states what was asked (one scale for every reader; README.md there, "Scores").
   */
  reading?: { reader: string; score: number };
  /**
   * Present when the reply leads with an approved answer (src/answer-library/lead-with-approved-answer.ts):
   * `answer` then starts with it, labelled, and its origin; the documents' answer and citations follow.
   */
  approvedAnswer?: ApprovedAnswerMatch & { spaceId: SpaceId };
};

/**
 * "queued": the language model is busy and the question waits in line. "writing": the answer is being
 * written; with a language model, each of its sentences follows as a delta once it passes the check.
 */
export type AnswerStatus = "rewriting" | "searching" | "reading" | "writing" | "queued";

export type AnswerEvent =
  | { type: "status"; status: AnswerStatus; message: string }
  | { type: "delta"; text: string }
  | { type: "citations"; citations: Citation[] }
  | { type: "done"; answer: Answer }
  | { type: "error"; code: string; message: string; requestId: string };
