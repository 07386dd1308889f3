/**
 * Reads questionnaire and approved-answers files, and writes filled copies, off the main thread: in a
 * worker (questionnaire-worker.ts) with a heap cap, a time limit and the upload's memory watchdog
 * (ingestion/bounded-worker-pool.ts). The reader's own limits refuse the known bombs before anything is
 * built; these bounds stop the rest, and while either works the event loop keeps answering people,
 * health checks and progress. One worker at a time: a file within the limits reads in well under a
 * second, and two files' memory would share one budget.
 *
 * The filled copy is written here too, under the same bounds and the same reading limits (the file is
 * surveyed again): an XLSX copy is the original workbook re-saved with the answers (styles, formulas,
 * other sheets), a CSV or DOCX copy the original's bytes with fields added at mapped positions — none can
 * be written from the grid — and the answers change until the job ends; jobs/filled-copies.ts keeps each
 * copy per answer version and bounds how many are written at once (#37).
 */
import { type BoundedTaskFailure, createBoundedWorkerPool } from "../../ingestion/bounded-worker-pool.js";
import { createMemoryWatchdog } from "../../ingestion/memory-watchdog.js";
import { ParseError } from "../errors.js";
import type { QuestionnaireGrid } from "./questionnaire.js";
import {
  DEFAULT_QUESTIONNAIRE_READ_LIMITS,
  QUESTIONNAIRE_WORKER_LIMITS,
  type QuestionnaireReadLimits,
} from "./read/questionnaire-read-limits.js";
import type { FilledCopy, writeFilledCopy } from "./write/write-filled-copy.js";

export type FillInput = Parameters<typeof writeFilledCopy>[0];

export type QuestionnaireWorkerTask =
  | { kind: "read"; bytes: Uint8Array; fileName: string; limits: QuestionnaireReadLimits }
  | { kind: "fill"; input: FillInput; limits: QuestionnaireReadLimits };

/** Bounds of one task in the worker (tests lower them). */
export type QuestionnaireWorkerBounds = { timeMs: number; maxMemoryMb: number };

const DEFAULT_BOUNDS: QuestionnaireWorkerBounds = {
  timeMs: QUESTIONNAIRE_WORKER_LIMITS.timeMs,
  maxMemoryMb: QUESTIONNAIRE_WORKER_LIMITS.maxMemoryMb,
};

const pool = createBoundedWorkerPool<QuestionnaireWorkerTask, unknown>({
  callerUrl: import.meta.url,
  entry: "./questionnaire-worker",
  maxHeapMb: QUESTIONNAIRE_WORKER_LIMITS.maxHeapMb,
  size: 1,
  watchdog: createMemoryWatchdog(),
});

function seconds(milliseconds: number): string {
  return milliseconds < 1000 ? `${milliseconds} ms` : `${Math.round(milliseconds / 100) / 10} seconds`;
}

/** The refusal of a file whose reading (or copy) passed a bound of the worker. */
function describeFailure(fileName: string, doing: "reading" | "filling") {
  const what = doing === "reading" ? `Reading ${fileName}` : `Writing the filled copy of ${fileName}`;
  return (failure: BoundedTaskFailure): ParseError => {
    switch (failure.kind) {
      case "timeout":
        return new ParseError(
          "questionnaire_read_timeout",
          `${what} took longer than ${seconds(failure.limitMs)}, so Folio stopped — it may be damaged or far larger than a questionnaire; save it again from Excel or Word (or split it) and upload it again.`,
          { file: fileName, details: { limitMs: failure.limitMs } },
        );
      case "memory":
        return new ParseError(
          "questionnaire_read_memory_exceeded",
          `${what} needed more than ${failure.limitMb} MB of memory, so Folio stopped — it may be a decompression bomb or far larger than a questionnaire; save it again (or split it) and upload it again.`,
          { file: fileName, details: { growthMb: Math.round(failure.growthBytes / 1_048_576) } },
        );
      case "out_of_memory":
        return new ParseError(
          "questionnaire_read_memory_exceeded",
          `${what} needed more than ${failure.maxHeapMb} MB of memory, so Folio stopped — it may be a decompression bomb or far larger than a questionnaire; save it again (or split it) and upload it again.`,
          { file: fileName },
        );
      case "crashed":
        return new ParseError(
          "questionnaire_read_crashed",
          `${what} crashed the file reader — save it again in Excel or Word and upload it again.`,
          { file: fileName, details: { reason: failure.reason, exitCode: failure.exitCode } },
        );
    }
  };
}

/** The questionnaire's grid, read in the worker (read-questionnaire-grid.ts does the reading). */
export async function readQuestionnaireInWorker(
  bytes: Uint8Array,
  fileName: string,
  options: { limits?: QuestionnaireReadLimits; bounds?: QuestionnaireWorkerBounds; signal?: AbortSignal } = {},
): Promise<QuestionnaireGrid> {
  const result = await pool.run(
    { kind: "read", bytes, fileName, limits: options.limits ?? DEFAULT_QUESTIONNAIRE_READ_LIMITS },
    {
      limits: options.bounds ?? DEFAULT_BOUNDS,
      signal: options.signal,
      describeFailure: describeFailure(fileName, "reading"),
    },
  );
  return result as QuestionnaireGrid;
}

/** A job's filled copy, written in the worker (write-filled-copy.ts does the writing). */
export async function writeFilledCopyInWorker(
  input: FillInput,
  options: { limits?: QuestionnaireReadLimits; bounds?: QuestionnaireWorkerBounds } = {},
): Promise<FilledCopy> {
  const result = await pool.run(
    { kind: "fill", input, limits: options.limits ?? DEFAULT_QUESTIONNAIRE_READ_LIMITS },
    { limits: options.bounds ?? DEFAULT_BOUNDS, describeFailure: describeFailure(input.fileName, "filling") },
  );
  return result as FilledCopy;
}

/** Stops the idle worker (a finished CLI run would otherwise wait for it). */
export function closeQuestionnaireWorkers(): Promise<void> {
  return pool.closeIdle();
}
