/**
 * Answers a questionnaire job's pending rows through the same answer pipeline as a chat question,
 * a few at a time, each row waiting its turn behind people's interactive questions
 * (interactive-priority.ts). An approved answer, when a source of them is given and one matches, is
 * used first; the pipeline still runs to attach the document citations that support it. A row started
 * while nobody was asking gives way when a person's question begins — it is stopped and asked again
 * after (at most MAX_GIVE_WAYS times, so questions never starve a job) — and a row that
 * fails is tried once more, then saved as an error with the reason. Cancelling stops new rows; the rows
 * answered so far stay saved, so a resumed job starts where this one stopped.
 */
import { randomUUID } from "node:crypto";
import type { Answer, AnswerContext, AnswerEvent } from "../../answer/answer-events.js";
import type { ApprovedAnswerSource } from "../../answer/approved-answer-source.js";
import { FolioError, isFolioError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { InteractivePriority } from "../jobs/interactive-priority.js";
import type { QuestionnaireJobStore, QuestionnaireRowRecord } from "../jobs/questionnaire-job-store.js";
import type { QuestionnaireQuestion } from "../questionnaire.js";
import { lastSectionPart } from "../read/find-questions.js";
import { failedRowAnswer, type RowAnswer, rowAnswerFrom } from "./row-answer.js";

export type AnswerPipeline = (question: string, context: AnswerContext) => AsyncIterable<AnswerEvent>;

/** Failed attempts a row gets before it is saved as an error: the first try and one retry. */
const MAX_FAILURES = 2;

/** Times one row stops for people's questions; after that it finishes whatever arrives. */
const MAX_GIVE_WAYS = 5;

/** A heading that only numbers its part ("Section 9", "Part IV", "3.2") says nothing a search could use. */
const NUMBERING_ONLY = /^(section|part|chapter|annex|appendix|table)?\s*[\divxlc.]+$/i;

/** Questions shorter than this many words get their section as context ("Is it encrypted?"). */
const SHORT_QUESTION_WORDS = 6;

export type RowsRunOptions = {
  jobId: string;
  spaceIds: string[];
  store: QuestionnaireJobStore;
  answerQuestion: AnswerPipeline;
  priority: InteractivePriority;
  approvedAnswers?: ApprovedAnswerSource;
  concurrency: number;
  signal: AbortSignal;
  logger: Logger;
  /** Called before each row is taken; the caller aborts `signal` there to stop (a cancel from elsewhere). */
  beforeRow?: () => Promise<void>;
  /** Called after each saved row with its position and answer. */
  onRowSaved?: (position: number, answer: RowAnswer) => void;
};

/**
 * The text the pipeline is asked: the question as written, with its section in front when the question
 * alone is too short to search for (a path column's last part, or the heading above it).
 */
export function questionForPipeline(question: QuestionnaireQuestion): string {
  const words = question.text.split(/\s+/).filter(Boolean).length;
  if (!question.section || words >= SHORT_QUESTION_WORDS) return question.text;
  const section = lastSectionPart(question.section);
  if (NUMBERING_ONLY.test(section) || question.text.toLowerCase().includes(section.toLowerCase())) return question.text;
  return `${section}: ${question.text}`;
}

async function collectAnswer(events: AsyncIterable<AnswerEvent>): Promise<Answer> {
  let answer: Answer | null = null;
  for await (const event of events) {
    if (event.type === "done") answer = event.answer;
    if (event.type === "error") throw new FolioError(event.code, event.message, { retryable: true });
  }
  if (!answer) throw new FolioError("answer_incomplete", "The answer pipeline ended without an answer.");
  return answer;
}

export async function answerQuestionnaireRows(options: RowsRunOptions): Promise<void> {
  const pending = await options.store.pendingRows(options.jobId);
  let next = 0;
  const logger = options.logger.child({ jobId: options.jobId });

  const answerRow = async (row: QuestionnaireRowRecord): Promise<void> => {
    let failures = row.failures;
    let gaveWay = 0;
    while (!options.signal.aborted) {
      const turn = await options.priority.waitForTurn(options.signal);
      if (options.signal.aborted) return;
      // Taken in a quiet moment: the row stops (its queued model work dropped) when a person asks.
      const rowSignal =
        turn === "quiet" && gaveWay < MAX_GIVE_WAYS
          ? AbortSignal.any([options.signal, options.priority.nextInteractive()])
          : options.signal;
      await options.store.markRowStarted(options.jobId, row.position);
      try {
        const text = questionForPipeline(row.question);
        const approved = await options.approvedAnswers?.match(options.spaceIds[0] ?? "", row.question.text);
        const answer = await collectAnswer(
          options.answerQuestion(text, {
            spaceIds: options.spaceIds,
            history: [],
            requestId: randomUUID(),
            signal: rowSignal,
          }),
        );
        const result = rowAnswerFrom(row.question, answer, approved);
        if (await options.store.saveRowAnswer(options.jobId, row.position, result)) {
          options.onRowSaved?.(row.position, result);
        }
        return;
      } catch (error) {
        if (options.signal.aborted) return;
        if (rowSignal.aborted) {
          // Gave way to a person's question: not a failure; asked again once it is answered.
          gaveWay += 1;
          continue;
        }
        failures = await options.store.recordRowFailure(options.jobId, row.position);
        const code = isFolioError(error) ? error.code : "internal_error";
        const message = error instanceof Error ? error.message : String(error);
        logger.warn({ position: row.position, code, failures }, "questionnaire row failed");
        if (failures >= MAX_FAILURES) {
          const result = failedRowAnswer(code, `failed twice: ${message}`);
          if (await options.store.saveRowAnswer(options.jobId, row.position, result)) {
            options.onRowSaved?.(row.position, result);
          }
          return;
        }
      }
    }
  };

  const worker = async () => {
    while (!options.signal.aborted) {
      // Embedded PGlite answers queries without touching I/O, so a row can run start to end in promise
      // callbacks alone; yielding here lets the HTTP server (people's questions, progress) in between rows.
      await new Promise((resolve) => setImmediate(resolve));
      await options.beforeRow?.();
      if (options.signal.aborted) return;
      const row = pending[next];
      next += 1;
      if (!row) return;
      await answerRow(row);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
}
