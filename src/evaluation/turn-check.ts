/**
 * Whether one answer meets its turn's expectation: the refusal, the strings and the numbers in the
 * answer's text (what the user reads), and the cited pages. Pure; every failed check is named, so a
 * failure report says why, not only that.
 */
import type { Answer } from "../answer/answer-events.js";
import { type ExpectedNumber, textStatesNumber } from "./answer-numbers.js";
import type { TurnExpectation } from "./conversation-dataset.js";

export type TurnCheck = { correct: boolean; reasons: string[] };

/** Lower case and single spaces, so a line break or a double space inside a phrase does not hide it. */
function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

function describeNumber(expected: ExpectedNumber): string {
  const scale = expected.scale && expected.scale !== "one" ? ` ${expected.scale}` : "";
  return `${expected.value}${scale}`;
}

/** "file.pdf#N" against a citation's file name and page range. */
function citationCovers(page: string, citation: Answer["citations"][number]): boolean {
  const separator = page.lastIndexOf("#");
  const file = page.slice(0, separator);
  const pageNumber = Number(page.slice(separator + 1));
  if (citation.file !== file || citation.pageStart === null) return false;
  return pageNumber >= citation.pageStart && pageNumber <= (citation.pageEnd ?? citation.pageStart);
}

export function checkTurn(
  answer: Pick<Answer, "answer" | "noContext" | "citations">,
  expect: TurnExpectation,
): TurnCheck {
  const reasons: string[] = [];
  const wantRefusal = expect.refusal ?? false;
  if (wantRefusal && !answer.noContext) reasons.push("expected a refusal, got an answer");
  if (!wantRefusal && answer.noContext) reasons.push("refused an answerable question");
  const text = normalise(answer.answer);
  for (const phrase of expect.contains ?? []) {
    if (!text.includes(normalise(phrase))) reasons.push(`missing "${phrase}"`);
  }
  for (const group of expect.anyOf ?? []) {
    if (!group.some((phrase) => text.includes(normalise(phrase))))
      reasons.push(`missing any of "${group.join('" | "')}"`);
  }
  for (const expected of expect.numbers ?? []) {
    if (!textStatesNumber(answer.answer, expected)) reasons.push(`missing number ${describeNumber(expected)}`);
  }
  const pages = expect.pages ?? [];
  if (pages.length > 0 && !answer.citations.some((citation) => pages.some((page) => citationCovers(page, citation)))) {
    reasons.push(`no citation of ${pages.join(" or ")}`);
  }
  return { correct: reasons.length === 0, reasons };
}

/**
 * The share of a turn's text checks (strings, any-of groups, numbers) one text meets on its own: how
 * much of the expected answer a passage or a sentence holds, for diagnostics and calibration.
 */
export function expectationShare(text: string, expect: TurnExpectation): number {
  const plain = normalise(text);
  const checks = [
    ...(expect.contains ?? []).map((phrase) => plain.includes(normalise(phrase))),
    ...(expect.anyOf ?? []).map((group) => group.some((phrase) => plain.includes(normalise(phrase)))),
    ...(expect.numbers ?? []).map((number) => textStatesNumber(text, number)),
  ];
  return checks.length === 0 ? 0 : checks.filter(Boolean).length / checks.length;
}
