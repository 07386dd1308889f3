/**
 * What a chat reply says about approved answers just added from a file, besides how many: which columns
 * the questions and answers came from, the rows skipped and the answers an earlier copy gave that were
 * replaced. Each adapter sets them in its own markup (`quote` escapes a column name for it).
 */
import type { AddQuestionnaireResult } from "./approved-answer-library.js";

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

export function addedAnswersNotes(
  result: AddQuestionnaireResult,
  quote: (text: string) => string = (text) => text,
): string[] {
  return [
    `questions from “${quote(result.questionColumn)}”, answers from “${quote(result.answerColumn)}”`,
    result.skippedRows > 0
      ? `${plural(result.skippedRows, "row")} skipped: a question without an answer or the reverse`
      : null,
    result.replaced > 0 ? `${result.replaced} from an earlier copy of this file replaced` : null,
  ].filter((note): note is string => note !== null);
}
