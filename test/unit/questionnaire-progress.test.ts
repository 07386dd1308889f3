import { describe, expect, it } from "vitest";
import type { QuestionnaireJob } from "../../src/questionnaire/jobs/questionnaire-job-store.js";
import { describeProgress, progressOf } from "../../src/questionnaire/jobs/questionnaire-progress.js";

function job(overrides: Partial<QuestionnaireJob>): QuestionnaireJob {
  return {
    id: "j1",
    spaceId: "s",
    fileName: "review.xlsx",
    format: "xlsx",
    status: "running",
    total: 245,
    counts: { answered: 61, not_found: 12, needs_review: 2, error: 0, pending: 170 },
    readOptions: {},
    layouts: [],
    requestedBy: null,
    destination: null,
    fileDeletedAt: null,
    errorCode: null,
    errorMessage: null,
    copyError: null,
    createdAt: "2026-11-26T04:00:00.000Z",
    startedAt: "2026-11-26T04:00:00.000Z",
    finishedAt: null,
    updatedAt: "2026-11-26T04:01:15.000Z",
    ...overrides,
  };
}

describe("questionnaire progress", () => {
  it("estimates the time left from this run's pace and says it in one line", () => {
    const now = Date.parse("2026-11-26T04:01:15.000Z");
    // 75 rows in 75 s this run: 1 s a row, 170 rows left.
    const progress = progressOf(job({}), { rowsThisRun: 75, runStartedAt: now - 75_000 }, now);
    expect(progress).toMatchObject({
      done: 75,
      answered: 61,
      notFound: 12,
      needsReview: 2,
      pending: 170,
      secondsLeft: 170,
    });
    expect(describeProgress(progress)).toBe("75/245 done · 61 answered · 12 not found · 2 need review · 3 min left");
    expect(progressOf(job({}), null, now).secondsLeft).toBeNull();
  });

  it("sums a finished job up with the time it took, and says why a failed one stopped", () => {
    const finished = job({
      status: "succeeded",
      counts: { answered: 200, not_found: 40, needs_review: 4, error: 1, pending: 0 },
      finishedAt: "2026-11-26T04:05:30.000Z",
    });
    expect(describeProgress(progressOf(finished, null))).toBe(
      "245/245 done · 200 answered · 40 not found · 4 need review · 1 error · took 6 min",
    );
    const failed = job({
      status: "failed",
      errorCode: "questionnaire_failed",
      errorMessage: "Answering stopped: disk full",
    });
    expect(describeProgress(progressOf(failed, null))).toBe("failed: Answering stopped: disk full");
  });
});
