/**
 * What one questionnaire row's answer is, as stored with the job and written into the filled copy,
 * and how it is made from the answer pipeline's Answer: the text with its [n] markers, the status a
 * reviewer sorts by — "answered" only when the answer passes the support test of answer-support.ts
 * (or a choice one cited passage states, or an approved answer), "needs review" with the best source
 * otherwise, "not found in the documents" when nothing relevant was found — the sources as
 * "Title, p. N" with their signed page links, and the quote.
 */
import type { Answer } from "../../answer/answer-events.js";
import { type ApprovedAnswerMatch, describeApprovedOrigin } from "../../answer/approved-answer-source.js";
import { labelDocument } from "../../domain/document-label.js";
import { describeSourcePlace } from "../../domain/source-place.js";
import type { QuestionnaireQuestion } from "../questionnaire.js";
import { judgeSupport } from "./answer-support.js";
import { chooseAnswerChoice } from "./choose-answer-choice.js";

/** The columns a filled copy adds after a question table's own, in order. */
export const ADDED_COLUMNS = ["Answer", "Status", "Sources", "Quote"] as const;

export type RowStatus = "answered" | "not_found" | "needs_review" | "error";

export const STATUS_LABELS: Record<RowStatus, string> = {
  answered: "answered",
  not_found: "not found in the documents",
  needs_review: "needs review",
  error: "error",
};

export type RowSource = {
  n: number;
  documentId: string;
  title: string;
  file: string;
  pageStart: number | null;
  pageEnd: number | null;
  /** The section's heading path, for a source without pages (absent in rows answered before sections). */
  section?: string[];
  url: string;
};

export type RowAnswer = {
  status: RowStatus;
  /** The answer with its [n] markers (empty when not found or failed). */
  answer: string;
  /** The choice picked for a row that offers choices; null when none is supported (or none offered). */
  choice: string | null;
  sources: RowSource[];
  quote: string;
  /** Why a person should look at it, for "needs review" (and the error message for "error"). */
  note: string | null;
  /** Set when an approved answer was reused. */
  approved: { origin: ApprovedAnswerMatch["origin"]; similarity: number } | null;
  errorCode: string | null;
};

/** "Benefits Guide, p. 7", "Benefits Guide, pp. 7–8", "Handbook, Leave › Annual leave"; the name alone when neither. */
export function describeSource(source: RowSource): string {
  const name = labelDocument(source.title, source.file);
  const place = describeSourcePlace(source);
  return place === "" ? name : `${name}, ${place}`;
}

/** The row's answer from the pipeline's Answer (and, when one matched, the approved answer). */
export function rowAnswerFrom(
  question: QuestionnaireQuestion,
  answer: Answer,
  approved: ApprovedAnswerMatch | undefined,
): RowAnswer {
  const sources: RowSource[] = answer.noContext
    ? []
    : answer.citations.map((citation) => ({
        n: citation.n,
        documentId: citation.documentId,
        title: citation.title,
        file: citation.file,
        pageStart: citation.pageStart,
        pageEnd: citation.pageEnd,
        ...(citation.section ? { section: citation.section } : {}),
        url: citation.url,
      }));
  const quote = answer.noContext ? "" : (answer.citations[0]?.quote ?? "");
  if (approved) {
    return {
      status: "answered",
      answer: approved.answer,
      choice:
        question.choices.length > 0
          ? chooseAnswerChoice(question.text, question.choices, [approved.answer]).choice
          : null,
      sources,
      quote,
      note: `approved answer reused (${describeApprovedOrigin(approved.origin)})`,
      approved: { origin: approved.origin, similarity: approved.similarity },
      errorCode: null,
    };
  }
  if (answer.noContext) {
    return {
      status: "not_found",
      answer: "",
      choice: null,
      sources: [],
      quote: "",
      note: null,
      approved: null,
      errorCode: null,
    };
  }
  // "answered" only when the answer passes the support test (answer-support.ts); else a person looks.
  const support = judgeSupport(question.text, answer);
  if (question.choices.length > 0) {
    const decision = chooseAnswerChoice(
      question.text,
      question.choices,
      answer.citations.map((citation) => citation.quote),
    );
    const unverified = answer.verification !== undefined && answer.verification.outcome !== "verified";
    return {
      status: decision.choice === null || unverified ? "needs_review" : "answered",
      answer: answer.answer,
      choice: decision.choice,
      sources,
      quote,
      note:
        decision.choice === null
          ? `no choice picked: ${decision.reason}`
          : unverified
            ? "the language model's draft could not be verified"
            : null,
      approved: null,
      errorCode: null,
    };
  }
  return {
    status: support.supported ? "answered" : "needs_review",
    answer: answer.answer,
    choice: null,
    sources,
    // The passage that states it is the quote a reviewer checks first.
    quote: support.citation === undefined ? quote : (answer.citations[support.citation]?.quote ?? quote),
    note: support.supported ? null : support.reason,
    approved: null,
    errorCode: null,
  };
}

export function failedRowAnswer(code: string, message: string): RowAnswer {
  return {
    status: "error",
    answer: "",
    choice: null,
    sources: [],
    quote: "",
    note: message,
    approved: null,
    errorCode: code,
  };
}

/** The Status cell: the status in words, and what a reviewer needs to know about it. */
export function statusCellText(row: RowAnswer): string {
  const label = STATUS_LABELS[row.status];
  return row.note ? `${label} — ${row.note}` : label;
}

/** The Answer cell: the picked choice first (when the row offers choices), then the cited answer. */
export function answerCellText(row: RowAnswer): string {
  const text = row.choice ? `${row.choice}\n\n${row.answer}` : row.answer;
  // Excel holds at most 32,767 characters in a cell.
  return text.length > 32_000 ? `${text.slice(0, 32_000)}…` : text;
}
