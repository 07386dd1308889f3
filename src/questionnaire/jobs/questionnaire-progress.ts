/**
 * How far a questionnaire job is, in numbers and in the one line a chat thread or a terminal shows:
 * "61/245 answered · 12 not found · 2 min left", or "queued, 3 ahead · 0/245 done" while it waits for a
 * slot (questionnaire-job-queue.ts).
 */
import type { QuestionnaireJob } from "./questionnaire-job-store.js";

export type QuestionnaireProgress = {
  jobId: string;
  status: QuestionnaireJob["status"];
  fileName: string;
  total: number;
  /** Rows with an answer of any status. */
  done: number;
  answered: number;
  notFound: number;
  needsReview: number;
  errors: number;
  pending: number;
  /**
   * Rows under the header that were never asked: section names, identifiers, single words, empty
   * question cells, instructions, the header repeated (find-questions.ts). Absent from an older server's reply.
   */
  skipped?: number;
  /** Since the job first started (a restart's downtime included). */
  elapsedMs: number;
  /** Estimated from this run's pace; null before the first rows of this run are done. */
  secondsLeft: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  /** Why the filled copy cannot be written (recorded the first time it failed, #37); absent or null otherwise. */
  copyError?: { code: string; message: string } | null;
  /** While queued in the process answering it: jobs waiting before it; null otherwise (or unknown). */
  ahead: number | null;
};

export function progressOf(
  job: QuestionnaireJob,
  pace: { rowsThisRun: number; runStartedAt: number } | null,
  now = Date.now(),
  ahead: number | null = null,
): QuestionnaireProgress {
  const counts = job.counts;
  const done = job.total - counts.pending;
  const started = job.startedAt ? Date.parse(job.startedAt) : now;
  const finished = job.finishedAt ? Date.parse(job.finishedAt) : now;
  let secondsLeft: number | null = null;
  if (job.status === "running" && pace && pace.rowsThisRun > 0) {
    const perRowMs = (now - pace.runStartedAt) / pace.rowsThisRun;
    secondsLeft = Math.round((perRowMs * counts.pending) / 1000);
  }
  if (job.status === "succeeded") secondsLeft = 0;
  return {
    jobId: job.id,
    status: job.status,
    fileName: job.fileName,
    total: job.total,
    done,
    answered: counts.answered,
    notFound: counts.not_found,
    needsReview: counts.needs_review,
    errors: counts.error,
    pending: counts.pending,
    skipped: skippedRows(job),
    elapsedMs: Math.max(0, finished - started),
    secondsLeft,
    errorCode: job.errorCode,
    errorMessage: job.errorMessage,
    copyError: job.copyError,
    ahead: job.status === "queued" ? ahead : null,
  };
}

/** Rows the reading passed over as no questions, over every sheet read (0 for jobs stored before #32). */
export function skippedRows(job: Pick<QuestionnaireJob, "layouts">): number {
  let total = 0;
  for (const layout of job.layouts) for (const count of Object.values(layout.skipped ?? {})) total += count ?? 0;
  return total;
}

/** "queued, 3 ahead", "queued, next in line", or "queued" when another process holds the queue. */
export function describeQueued(ahead: number | null): string {
  if (ahead === null) return "queued";
  return ahead === 0 ? "queued, next in line" : `queued, ${ahead} ahead`;
}

/** "3 rows skipped (not questions)". */
export function describeSkipped(skipped: number): string {
  return `${skipped} row${skipped === 1 ? "" : "s"} skipped (not questions)`;
}

function describeDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}

/** "61/245 answered · 12 not found · 2 min left" while running; the summary once finished. */
export function describeProgress(progress: QuestionnaireProgress): string {
  if (progress.status === "queued")
    return `${describeQueued(progress.ahead)} · ${progress.done}/${progress.total} done`;
  const parts = [`${progress.done}/${progress.total} done`, `${progress.answered} answered`];
  if (progress.notFound > 0) parts.push(`${progress.notFound} not found`);
  if (progress.needsReview > 0) parts.push(`${progress.needsReview} need review`);
  if (progress.errors > 0) parts.push(`${progress.errors} error${progress.errors === 1 ? "" : "s"}`);
  // Said in every summary: rows a reader sees unanswered in the copy were never questions.
  if ((progress.skipped ?? 0) > 0) parts.push(describeSkipped(progress.skipped ?? 0));
  if (progress.status === "running") {
    if (progress.secondsLeft !== null) parts.push(`${describeDuration(progress.secondsLeft)} left`);
    return parts.join(" · ");
  }
  if (progress.status === "cancelled") return `cancelled · ${parts.join(" · ")}`;
  if (progress.status === "failed") return `failed: ${progress.errorMessage ?? progress.errorCode ?? "unknown error"}`;
  return `${parts.join(" · ")} · took ${describeDuration(progress.elapsedMs / 1000)}`;
}
