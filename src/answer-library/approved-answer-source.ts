/**
 * The port through which answering (chat answers, questionnaire filling) asks for an approved answer:
 * a question/answer pair a team stored for its space, reused when a new question means the same.
 * Implemented by ApprovedAnswerLibrary (approved-answer-library.ts).
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
  match(
    spaceId: string,
    question: string,
  ): Promise<
    | {
        answer: string;
        origin: { file: string; sheet?: string; row?: number; addedBy?: string; addedAt: string };
        similarity: number;
      }
    | undefined
  >;
}
