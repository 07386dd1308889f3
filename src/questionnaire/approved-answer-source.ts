/**
 * The seam for approved answers (the answer library, src/answer-library/): when one is given, each
 * questionnaire row asks it first, and a match is used as the row's answer, labelled with its origin.
 * The questionnaire core only defines and consumes this interface.
 */

/** Where an approved answer came from: the completed questionnaire it was added from, who added it and when. */
export type ApprovedAnswerOrigin = {
  file: string;
  sheet?: string;
  row?: number;
  addedBy?: string;
  /** ISO 8601 time it was added. */
  addedAt: string;
};

export type ApprovedAnswerMatch = {
  answer: string;
  origin: ApprovedAnswerOrigin;
  /** How close the new question is to the approved one in meaning (0..1), above the library's threshold. */
  similarity: number;
};

export interface ApprovedAnswerSource {
  /** The approved answer to this question in this space, or undefined when none matches closely enough. */
  match(spaceId: string, question: string): Promise<ApprovedAnswerMatch | undefined>;
}

/** "approved answer reused (security-2025.xlsx, sheet Controls, row 12, added by U123 on 2026-01-05)". */
export function describeApprovedOrigin(origin: ApprovedAnswerOrigin): string {
  const parts = [origin.file];
  if (origin.sheet) parts.push(`sheet ${origin.sheet}`);
  if (origin.row !== undefined) parts.push(`row ${origin.row}`);
  const day = origin.addedAt.slice(0, 10);
  parts.push(origin.addedBy ? `added by ${origin.addedBy} on ${day}` : `added on ${day}`);
  return parts.join(", ");
}
