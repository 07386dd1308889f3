/**
 * Questionnaire jobs, end to end: reading an upload into questions (refusing bad input with a specific
 * message before anything is stored), storing the job, answering its rows in the background
 * (answer-questionnaire-rows.ts), reporting progress, cancelling, resuming jobs a stopped process left
 * behind, and writing the filled copy on request (filled-copies.ts). Built by the composition root; adapters, the HTTP
 * API and the CLI call it.
 */

import type { ApprovedAnswerSource } from "../answer/approved-answer-source.js";
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { SqlClient } from "../stores/sql-client.js";
import type { AnswerPipeline } from "./answer/answer-questionnaire-rows.js";
import { type CopyRequest, createFilledCopies, type WriteFilledCopy } from "./jobs/filled-copies.js";
import type { InteractivePriority } from "./jobs/interactive-priority.js";
import type { QuestionnaireDestination } from "./jobs/questionnaire-destination.js";
import { createQuestionnaireJobRunner, HEARTBEAT_MS } from "./jobs/questionnaire-job-runner.js";
import {
  createQuestionnaireJobStore,
  type QuestionnaireJob,
  type QuestionnaireJobStore,
  type QuestionnaireRowRecord,
} from "./jobs/questionnaire-job-store.js";
import type { QuestionnaireProgress } from "./jobs/questionnaire-progress.js";
import {
  closeQuestionnaireWorkers,
  readQuestionnaireInWorker,
  writeFilledCopyInWorker,
} from "./questionnaire-worker-pool.js";
import { findQuestions } from "./read/find-questions.js";
import { previewQuestionnaire, type QuestionnairePreview } from "./read/questionnaire-preview.js";
import type { FilledCopy } from "./write/write-filled-copy.js";

export type QuestionnaireSettings = {
  /** FOLIO_QUESTIONNAIRE_MAX_ROWS: the most rows a sheet may have. */
  maxRows: number;
  /** FOLIO_QUESTIONNAIRE_MAX_MB (in bytes here): the largest questionnaire file accepted. */
  maxBytes: number;
  /** FOLIO_QUESTIONNAIRE_CONCURRENCY: rows of one job answered at once. */
  concurrency: number;
  /** FOLIO_QUESTIONNAIRE_RETENTION_DAYS: a finished job's file is deleted after this many days; 0 keeps it. */
  retentionDays: number;
  /** FOLIO_QUESTIONNAIRE_MAX_RUNNING: jobs this process answers at once; more wait in line. */
  maxRunningJobs: number;
  /** FOLIO_QUESTIONNAIRE_MAX_RUNNING_PER_SPACE: jobs of one space answered at once. */
  maxRunningJobsPerSpace: number;
  /** FOLIO_QUESTIONNAIRE_MAX_COPIES: filled copies written at once; more downloads are refused with 429. */
  maxWritingCopies: number;
};

export const DEFAULT_QUESTIONNAIRE_SETTINGS: QuestionnaireSettings = {
  maxRows: 5_000,
  maxBytes: 20 * 1024 * 1024,
  concurrency: 2,
  retentionDays: 7,
  maxRunningJobs: 2,
  maxRunningJobsPerSpace: 1,
  maxWritingCopies: 2,
};

/** A job untouched this long has no process answering it (the stale limit of serve-command.ts): a cancel ends it at once. */
const ORPHANED_AFTER_MS = 4 * HEARTBEAT_MS;

export type SubmitQuestionnaire = {
  bytes: Uint8Array;
  fileName: string;
  spaceId: string;
  sheet?: string;
  column?: string;
  requestedBy?: string | null;
  /** Where the asking chat is told of progress; kept with the job so a resumed job still reports there. */
  destination?: QuestionnaireDestination | null;
};

export type PreviewQuestionnaire = Pick<SubmitQuestionnaire, "bytes" | "fileName" | "sheet" | "column">;

export type QuestionnaireService = {
  /** Reads and stores the questionnaire, then answers it in the background; refuses bad input at once. */
  submit(input: SubmitQuestionnaire): Promise<QuestionnaireJob>;
  /**
   * What submitting the file would read — sheets, header rows, question columns, the first questions,
   * the rows passed over — without storing or answering anything; refuses bad input as submit does.
   */
  preview(input: PreviewQuestionnaire): Promise<QuestionnairePreview>;
  getJob(id: string): Promise<QuestionnaireJob | null>;
  listJobs(spaceId: string): Promise<QuestionnaireJob[]>;
  progress(id: string): Promise<QuestionnaireProgress | null>;
  /** The job's rows in order: each question with its answer once it has one. */
  listRows(id: string): Promise<QuestionnaireRowRecord[]>;
  /** Calls `listener` after every saved row and when the job ends; returns the unsubscribe. */
  onProgress(id: string, listener: (progress: QuestionnaireProgress) => void): () => void;
  /** Resolves with the job once it is no longer queued or running in this process. */
  whenSettled(id: string): Promise<QuestionnaireJob | null>;
  /**
   * Stops the job: at once when this process answers it; otherwise records the request in the catalog,
   * and the replica answering it stops before its next row. False when the job is not open.
   */
  cancel(id: string): Promise<boolean>;
  /** Replaces where the job reports (a chat adds its progress message once posted). */
  setDestination(id: string, destination: QuestionnaireDestination | null): Promise<void>;
  /**
   * Calls `listener` with each job of `adapter` (its destination's) that this process resumes (see
   * resumeInterrupted), before its first row, and with each finished job of it whose chat was never told
   * the outcome, so the adapter follows it to its end there; returns the unsubscribe.
   */
  onResumed(adapter: string, listener: (job: QuestionnaireJob) => void): () => void;
  /** Records that the job's chat was told its outcome, so no later start tells it again. */
  markReported(id: string): Promise<void>;
  /**
   * The job's file with its answers written in (filled-copies.ts: kept per answer version, written at most
   * `maxWritingCopies` at once); null when the job or its file is gone. Refused with the recorded code
   * when the copy could not be written before.
   */
  filledCopy(id: string, request?: CopyRequest): Promise<FilledCopy | null>;
  /**
   * Deletes the uploaded files (and so the filled copies) of jobs finished more than the retention
   * period ago; returns how many. Nothing with a retention of 0 days.
   */
  deleteExpiredFiles(): Promise<number>;
  /** Claims and starts every job a stopped process left queued or running (untouched for `staleForMs`). */
  resumeInterrupted(staleForMs: number): Promise<string[]>;
  /** Stops answering; running jobs stay "running" in the catalog, for the next start to resume. */
  close(): Promise<void>;
};

/** The file read into questions (in the worker: a hostile file costs that thread, bounded in time and memory). */
async function readUpload(input: PreviewQuestionnaire, settings: QuestionnaireSettings) {
  if (input.bytes.byteLength > settings.maxBytes) {
    throw new FolioError(
      "questionnaire_too_large",
      `This questionnaire is ${(input.bytes.byteLength / 1_048_576).toFixed(1)} MB; the limit is ${(settings.maxBytes / 1_048_576).toFixed(0)} MB — split it, or raise FOLIO_QUESTIONNAIRE_MAX_MB.`,
      { details: { status: 413 } },
    );
  }
  const grid = await readQuestionnaireInWorker(input.bytes, input.fileName);
  const read = findQuestions(grid, { sheet: input.sheet, column: input.column, maxRows: settings.maxRows });
  return { grid, read };
}

export function createQuestionnaireService(options: {
  client: SqlClient;
  answerQuestion: AnswerPipeline;
  priority: InteractivePriority;
  settings: QuestionnaireSettings;
  /** Spaces searched besides the job's own (the shared library space). */
  extraSpaceIds?: string[];
  approvedAnswers?: ApprovedAnswerSource;
  /** Writes a filled copy; in the questionnaire worker unless a test gives its own. */
  writeFilledCopy?: WriteFilledCopy;
  logger: Logger;
}): QuestionnaireService {
  const store: QuestionnaireJobStore = createQuestionnaireJobStore(options.client);
  const logger = options.logger.child({ component: "questionnaires" });
  const jobs = createQuestionnaireJobRunner({
    store,
    answerQuestion: options.answerQuestion,
    priority: options.priority,
    concurrency: options.settings.concurrency,
    maxRunningJobs: options.settings.maxRunningJobs,
    maxRunningJobsPerSpace: options.settings.maxRunningJobsPerSpace,
    extraSpaceIds: options.extraSpaceIds,
    approvedAnswers: options.approvedAnswers,
    logger,
  });
  const copies = createFilledCopies({
    store,
    write: options.writeFilledCopy ?? ((input) => writeFilledCopyInWorker(input)),
    maxWriting: options.settings.maxWritingCopies,
    retentionDays: options.settings.retentionDays,
    logger,
  });
  const start = jobs.start;
  const resumedListeners = new Map<string, Set<(job: QuestionnaireJob) => void>>();
  const tellAdapter = (job: QuestionnaireJob) => {
    for (const listener of resumedListeners.get(job.destination?.adapter ?? "") ?? []) {
      try {
        listener(job);
      } catch (error) {
        logger.warn({ jobId: job.id, err: error }, "a resumed questionnaire's follower failed to start");
      }
    }
  };

  return {
    async preview(input) {
      const { grid, read } = await readUpload(input, options.settings);
      return previewQuestionnaire(grid, read, input.fileName);
    },
    async submit(input) {
      const { read } = await readUpload(input, options.settings);
      const job = await store.createJob({
        spaceId: input.spaceId,
        fileName: input.fileName,
        format: read.format,
        bytes: input.bytes,
        readOptions: { sheet: input.sheet, column: input.column },
        layouts: read.layouts,
        questions: read.questions,
        requestedBy: input.requestedBy ?? null,
        destination: input.destination ?? null,
      });
      logger.info(
        {
          jobId: job.id,
          space: input.spaceId,
          questions: job.total,
          skipped: read.skipped.length,
          format: read.format,
        },
        "questionnaire job created",
      );
      start(job);
      return job;
    },
    getJob: (id) => store.getJob(id),
    listJobs: (spaceId) => store.listJobs(spaceId, 50),
    async progress(id) {
      const job = await store.getJob(id);
      return job ? jobs.progressOf(job) : null;
    },
    listRows: (id) => store.listRows(id),
    onProgress: (id, listener) => jobs.onProgress(id, listener),
    async whenSettled(id) {
      await jobs.settled(id);
      return store.getJob(id);
    },
    async cancel(id) {
      if (await jobs.cancel(id)) return true;
      // Answered by another replica (or by none, after a crash): the request is recorded in the job's row,
      // where the answering process sees it before its next row.
      return store.requestCancel(id, ORPHANED_AFTER_MS);
    },
    setDestination: (id, destination) => store.setDestination(id, destination),
    onResumed(adapter, listener) {
      const listeners = resumedListeners.get(adapter) ?? new Set();
      listeners.add(listener);
      resumedListeners.set(adapter, listeners);
      return () => listeners.delete(listener);
    },
    markReported: (id) => store.markReported(id),
    filledCopy: (id, request) => copies.copyOf(id, request),
    async deleteExpiredFiles() {
      if (options.settings.retentionDays <= 0) return 0;
      const deleted = await store.deleteFinishedFiles(options.settings.retentionDays * 86_400_000);
      if (deleted.length > 0) {
        logger.info({ jobs: deleted, retentionDays: options.settings.retentionDays }, "questionnaire files deleted");
      }
      return deleted.length;
    },
    async resumeInterrupted(staleForMs) {
      const jobs = await store.claimResumableJobs(staleForMs);
      for (const job of jobs) {
        logger.info({ jobId: job.id, pending: job.counts.pending }, "resuming questionnaire job");
        start(job);
        tellAdapter(job);
      }
      // Finished while nobody could tell the chat (a stop between the last row and the summary): told now.
      const listening = [...resumedListeners].filter(([, listeners]) => listeners.size > 0).map(([name]) => name);
      for (const job of await store.claimUnreportedJobs(listening, staleForMs)) {
        logger.info({ jobId: job.id, status: job.status }, "telling a finished questionnaire's chat its outcome");
        tellAdapter(job);
      }
      return jobs.map((job) => job.id);
    },
    async close() {
      await jobs.close();
      await closeQuestionnaireWorkers();
    },
  };
}
