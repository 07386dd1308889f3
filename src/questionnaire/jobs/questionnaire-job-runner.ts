/**
 * The questionnaire jobs this process has taken on: each waits for a slot (questionnaire-job-queue.ts),
 * then its rows are answered (answer-questionnaire-rows.ts) while a heartbeat says it is alive, and its
 * listeners hear its progress after every saved row, when its place in line changes and when it ends.
 * questionnaire-service.ts starts jobs here; reading, storing and writing files stay there.
 */
import type { ApprovedAnswerSource } from "../../answer/approved-answer-source.js";
import type { Logger } from "../../logger.js";
import { type AnswerPipeline, answerQuestionnaireRows } from "../answer/answer-questionnaire-rows.js";
import type { InteractivePriority } from "./interactive-priority.js";
import { createQuestionnaireJobQueue } from "./questionnaire-job-queue.js";
import type { QuestionnaireJob, QuestionnaireJobStore } from "./questionnaire-job-store.js";
import { progressOf, type QuestionnaireProgress } from "./questionnaire-progress.js";

/** How often a running job is touched, well inside the stale limit other replicas wait (serve-command.ts). */
export const HEARTBEAT_MS = 15_000;

/** A job this process has taken on: waiting for a slot (questionnaire-job-queue.ts) or being answered. */
type ActiveJob = {
  controller: AbortController;
  /** Resolves once the job is neither waiting nor running here any more. */
  settled: Promise<void>;
  rowsThisRun: number;
  runStartedAt: number;
  listeners: Set<(progress: QuestionnaireProgress) => void>;
};

export type QuestionnaireJobRunnerOptions = {
  store: QuestionnaireJobStore;
  answerQuestion: AnswerPipeline;
  priority: InteractivePriority;
  /** Rows of one job answered at once. */
  concurrency: number;
  maxRunningJobs: number;
  maxRunningJobsPerSpace: number;
  /** Spaces searched besides the job's own (the shared library space). */
  extraSpaceIds?: string[];
  approvedAnswers?: ApprovedAnswerSource;
  logger: Logger;
};

export type QuestionnaireJobRunner = {
  /** Takes the job on: it waits for a slot (caps per process and per space), then runs. */
  start(job: QuestionnaireJob): void;
  progressOf(job: QuestionnaireJob): QuestionnaireProgress;
  onProgress(id: string, listener: (progress: QuestionnaireProgress) => void): () => void;
  /** Resolves once the job is no longer waiting or running here; at once when this process does not hold it. */
  settled(id: string): Promise<void>;
  /** Cancels a job this process holds and waits for it to stop; false when it holds none of that id. */
  cancel(id: string): Promise<boolean>;
  /** Starts nothing more; running jobs stop and stay "running" in the catalog, for the next start. */
  close(): Promise<void>;
};

/**
 * A row can take longer than the stale limit (a language model on a CPU), and a job can wait long for a
 * slot: the job says it is alive, and hears of a cancel made through another replica.
 */
function startHeartbeat(store: QuestionnaireJobStore, jobId: string, controller: AbortController) {
  const heartbeat = setInterval(() => {
    void store
      .touchJob(jobId)
      .then(() => store.isCancelRequested(jobId))
      .then((requested) => {
        if (requested) controller.abort("cancelled");
      })
      .catch(() => {});
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return heartbeat;
}

/** Answers the job's rows (its slot is taken) and records how it ended. */
async function runJob(
  job: QuestionnaireJob,
  entry: ActiveJob,
  options: QuestionnaireJobRunnerOptions,
  notify: (id: string) => Promise<void>,
): Promise<void> {
  const { controller } = entry;
  const { store, logger } = options;
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
      concurrency: options.concurrency,
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
}

export function createQuestionnaireJobRunner(options: QuestionnaireJobRunnerOptions): QuestionnaireJobRunner {
  const { store, logger } = options;
  const active = new Map<string, ActiveJob>();
  const queue = createQuestionnaireJobQueue({
    maxRunning: options.maxRunningJobs,
    maxRunningPerSpace: options.maxRunningJobsPerSpace,
  });
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
    const heartbeat = startHeartbeat(store, job.id, controller);
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
      void runJob(job, entry, options, notify)
        .then(finish)
        .finally(() => queue.release(job.id));
    });
    if (queue.ahead(job.id) !== null) {
      logger.info({ jobId: job.id, ahead: queue.ahead(job.id), running: queue.running }, "questionnaire job queued");
    }
  };

  return {
    start,
    progressOf: progressOfJob,
    onProgress(id, listener) {
      const entry = active.get(id);
      if (!entry) return () => {};
      entry.listeners.add(listener);
      return () => entry.listeners.delete(listener);
    },
    async settled(id) {
      await active.get(id)?.settled;
    },
    async cancel(id) {
      const entry = active.get(id);
      if (!entry) return false;
      entry.controller.abort("cancelled");
      await entry.settled;
      return true;
    },
    async close() {
      closed = true;
      const entries = [...active.values()];
      for (const entry of entries) entry.controller.abort("shutdown");
      await Promise.allSettled(entries.map((entry) => entry.settled));
    },
  };
}
