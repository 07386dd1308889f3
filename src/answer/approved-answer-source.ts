/**
 * The port through which answering (chat answers, questionnaire filling) asks for an approved answer:
 * a question/answer pair a team stored for its space, reused when a new question means the same.
 * Implemented by ApprovedAnswerLibrary (src/answer-library/approved-answer-library.ts); questionnaire rows consult it too.
 */

/** Where an approved answer came from: the completed questionnaire it was read from, and who added it when. */
export type ApprovedAnswerOrigin = {
  file: string;
  sheet?: string;
  /** The row number a person sees in the spreadsheet (1-based, header included); the table row in a DOCX. */
  row?: number;
  addedBy?: string;
  /** ISO 8601. */
  addedAt: string;
};

export type ApprovedAnswerMatch = {
  answer: string;
  origin: ApprovedAnswerOrigin;
  /** The similarity that passed the threshold: cosine of the two questions' embeddings, or the lexical score. */
  similarity: number;
};

export interface ApprovedAnswerSource {
  /** The approved answer whose question means the same as `question` in this space, if any. */
  match(spaceId: string, question: string): Promise<ApprovedAnswerMatch | undefined>;
}

/** "security-2025.xlsx, sheet Controls, row 12, added by U123 on 2026-01-05": where an approved answer came from. */
export function describeApprovedOrigin(origin: ApprovedAnswerOrigin): string {
  const parts = [origin.file];
  if (origin.sheet) parts.push(`sheet ${origin.sheet}`);
  if (origin.row !== undefined) parts.push(`row ${origin.row}`);
  const day = origin.addedAt.slice(0, 10);
  parts.push(origin.addedBy ? `added by ${origin.addedBy} on ${day}` : `added on ${day}`);
  return parts.join(", ");
}
