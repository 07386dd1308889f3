/**
 * Questionnaire jobs, end to end: reading an upload into questions (refusing bad input with a specific
 * message before anything is stored), storing the job, answering its rows in the background
 * (answer-questionnaire-rows.ts), reporting progress, cancelling, resuming jobs a stopped process left
 * behind, and writing the filled copy on request. Built by the composition root; adapters, the HTTP
 * API and the CLI call it.
 */

import type { ApprovedAnswerSource } from "../answer/approved-answer-source.js";
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { SqlClient } from "../stores/sql-client.js";
import { type AnswerPipeline, answerQuestionnaireRows } from "./answer/answer-questionnaire-rows.js";
import type { InteractivePriority } from "./jobs/interactive-priority.js";
import type { QuestionnaireDestination } from "./jobs/questionnaire-destination.js";
import { createQuestionnaireJobQueue } from "./jobs/questionnaire-job-queue.js";
import {
  createQuestionnaireJobStore,
  type QuestionnaireJob,
  type QuestionnaireJobStore,
  type QuestionnaireRowRecord,
} from "./jobs/questionnaire-job-store.js";
import { progressOf, type QuestionnaireProgress } from "./jobs/questionnaire-progress.js";
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
};

export const DEFAULT_QUESTIONNAIRE_SETTINGS: QuestionnaireSettings = {
  maxRows: 5_000,
  maxBytes: 20 * 1024 * 1024,
  concurrency: 2,
  retentionDays: 7,
  maxRunningJobs: 2,
  maxRunningJobsPerSpace: 1,
};

/** How often a running job is touched, well inside the stale limit other replicas wait (serve-command.ts). */
const HEARTBEAT_MS = 15_000;

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
  filledCopy(id: string): Promise<FilledCopy | null>;
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

/** A job this process has taken on: waiting for a slot (questionnaire-job-queue.ts) or being answered. */
type ActiveJob = {
  controller: AbortController;
  /** Resolves once the job is neither waiting nor running here any more. */
  settled: Promise<void>;
  rowsThisRun: number;
  runStartedAt: number;
  listeners: Set<(progress: QuestionnaireProgress) => void>;
};

export function createQuestionnaireService(options: {
  client: SqlClient;
  answerQuestion: AnswerPipeline;
  priority: InteractivePriority;
  settings: QuestionnaireSettings;
  /** Spaces searched besides the job's own (the shared library space). */
  extraSpaceIds?: string[];
  approvedAnswers?: ApprovedAnswerSource;
  logger: Logger;
}): QuestionnaireService {
  const store: QuestionnaireJobStore = createQuestionnaireJobStore(options.client);
  const logger = options.logger.child({ component: "questionnaires" });
  const active = new Map<string, ActiveJob>();
  const queue = createQuestionnaireJobQueue({
    maxRunning: options.settings.maxRunningJobs,
    maxRunningPerSpace: options.settings.maxRunningJobsPerSpace,
  });
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
  let closed = false;

  const pace = (id: string) => {
    const entry = active.get(id);
    return entry && queue.ahead(id) === null
      ? { rowsThisRun: entry.rowsThisRun, runStartedAt: entry.runStartedAt }
      : null;
  };

  const progressOfJob = (job: QuestionnaireJob) => progressOf(job, pace(job.id), Date.now(), queue.ahead(job.id));

  const notify = async (id: string) => {
    const entry = active.get(id);
    if (!entry || entry.listeners.size === 0) return;
    const job = await store.getJob(id);
    if (!job) return;
    const progress = progressOfJob(job);
    for (const listener of entry.listeners) listener(progress);
  };

  // Waiting jobs moved up (or one started): their chats and consoles hear the new place in line.
  queue.onChange(() => {
    for (const id of active.keys()) if (queue.ahead(id) !== null) void notify(id).catch(() => {});
  });

  /** Answers the job's rows (its slot is taken) and records how it ended. */
  const run = async (job: QuestionnaireJob, entry: ActiveJob) => {
    const { controller } = entry;
    try {
      await store.setJobStatus(job.id, "running");
      void notify(job.id).catch(() => {});
      await answerQuestionnaireRows({
        jobId: job.id,
        spaceIds: [job.spaceId, ...(options.extraSpaceIds ?? []).filter((space) => space !== job.spaceId)],
        store,
        answerQuestion: options.answerQuestion,
        priority: options.priority,
        approvedAnswers: options.approvedAnswers,
        concurrency: options.settings.concurrency,
        signal: controller.signal,
        logger,
        // A cancel recorded through any replica is seen here between rows.
        beforeRow: async () => {
          if (await store.isCancelRequested(job.id)) controller.abort("cancelled");
        },
        onRowSaved: () => {
          entry.rowsThisRun += 1;
          void notify(job.id).catch(() => {});
        },
      });
      const reason = controller.signal.reason as unknown;
      if (!controller.signal.aborted) await store.setJobStatus(job.id, "succeeded");
      else if (reason === "cancelled") await store.setJobStatus(job.id, "cancelled");
      logger.info({ jobId: job.id, aborted: controller.signal.aborted }, "questionnaire job stopped");
    } catch (error) {
      logger.error({ jobId: job.id, err: error }, "questionnaire job failed");
      await store
        .setJobStatus(job.id, "failed", {
          code: "questionnaire_failed",
          message: `Answering stopped: ${error instanceof Error ? error.message : String(error)}`,
        })
        .catch(() => {});
    }
  };

  /** Takes the job on: it waits for a slot (caps per process and per space), then runs. */
  const start = (job: QuestionnaireJob) => {
    if (active.has(job.id) || closed) return;
    const controller = new AbortController();
    let markSettled = () => {};
    const entry: ActiveJob = {
      controller,
      settled: new Promise<void>((resolve) => {
        markSettled = resolve;
      }),
      rowsThisRun: 0,
      runStartedAt: Date.now(),
      listeners: new Set(),
    };
    active.set(job.id, entry);
    // A row can take longer than the stale limit (a language model on a CPU), and a job can wait long
    // for a slot: the job says it is alive, and hears of a cancel made through another replica.
    const heartbeat = setInterval(() => {
      void store
        .touchJob(job.id)
        .then(() => store.isCancelRequested(job.id))
        .then((requested) => {
          if (requested) controller.abort("cancelled");
        })
        .catch(() => {});
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const finish = async () => {
      clearInterval(heartbeat);
      await notify(job.id).catch(() => {});
      active.delete(job.id);
      markSettled();
    };
    // Stopped while still waiting: a cancel ends it; on shutdown it stays queued for the next start.
    controller.signal.addEventListener(
      "abort",
      () => {
        if (!queue.remove(job.id)) return;
        void (async () => {
          if (controller.signal.reason === "cancelled") {
            await store.setJobStatus(job.id, "cancelled").catch(() => {});
            logger.info({ jobId: job.id }, "queued questionnaire job cancelled");
          }
          await finish();
        })();
      },
      { once: true },
    );
    queue.enqueue({ id: job.id, spaceId: job.spaceId }, () => {
      entry.runStartedAt = Date.now();
      void run(job, entry)
        .then(finish)
        .finally(() => queue.release(job.id));
    });
    if (queue.ahead(job.id) !== null) {
      logger.info({ jobId: job.id, ahead: queue.ahead(job.id), running: queue.running }, "questionnaire job queued");
    }
  };

  /** The file read into questions (in the worker: a hostile file costs that thread, bounded in time and memory). */
  const readUpload = async (input: PreviewQuestionnaire) => {
    if (input.bytes.byteLength > options.settings.maxBytes) {
      throw new FolioError(
        "questionnaire_too_large",
        `This questionnaire is ${(input.bytes.byteLength / 1_048_576).toFixed(1)} MB; the limit is ${(options.settings.maxBytes / 1_048_576).toFixed(0)} MB — split it, or raise FOLIO_QUESTIONNAIRE_MAX_MB.`,
        { details: { status: 413 } },
      );
    }
    const grid = await readQuestionnaireInWorker(input.bytes, input.fileName);
    const read = findQuestions(grid, { sheet: input.sheet, column: input.column, maxRows: options.settings.maxRows });
    return { grid, read };
  };

  return {
    async preview(input) {
      const { grid, read } = await readUpload(input);
      return previewQuestionnaire(grid, read, input.fileName);
    },
    async submit(input) {
      const { read } = await readUpload(input);
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
      return job ? progressOfJob(job) : null;
    },
    listRows: (id) => store.listRows(id),
    onProgress(id, listener) {
      const entry = active.get(id);
      if (!entry) return () => {};
      entry.listeners.add(listener);
      return () => entry.listeners.delete(listener);
    },
    async whenSettled(id) {
      await active.get(id)?.settled;
      return store.getJob(id);
    },
    async cancel(id) {
      const entry = active.get(id);
      if (entry) {
        entry.controller.abort("cancelled");
        await entry.settled;
        return true;
      }
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
    async filledCopy(id) {
      const job = await store.getJob(id);
      if (!job) return null;
      if (job.fileDeletedAt !== null) {
        throw new FolioError(
          "questionnaire_file_deleted",
          `The file of ${job.fileName} was deleted ${options.settings.retentionDays} days after the job finished (FOLIO_QUESTIONNAIRE_RETENTION_DAYS) — answer the questionnaire again to get a filled copy.`,
          { details: { status: 410 } },
        );
      }
      const [bytes, rows] = await Promise.all([store.getJobBytes(id), store.listRows(id)]);
      if (!bytes) return null;
      return writeFilledCopyInWorker({
        bytes,
        fileName: job.fileName,
        format: job.format,
        layouts: job.layouts,
        rows: rows.map((row) => ({
          sheetIndex: row.question.sheetIndex,
          rowNumber: row.question.rowNumber,
          answer: row.result,
        })),
      });
    },
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
      closed = true;
      const entries = [...active.values()];
      for (const entry of entries) entry.controller.abort("shutdown");
      await Promise.allSettled(entries.map((entry) => entry.settled));
      await closeQuestionnaireWorkers();
    },
  };
}
