/**
 * Questionnaire jobs on a real catalog — PGlite, and PostgreSQL when TEST_DATABASE_URL is set (the same
 * suite on both): every row answered once, a failing row retried once
 * then saved as an error with its reason, a stopped job resumed by a new service without asking any
 * saved row again, cancellation, and rows waiting behind interactive questions. The answer pipeline is
 * a scripted stand-in here, so failures and stops happen exactly where the test puts them (the real
 * pipeline runs in test/e2e/questionnaire-http.test.ts and the kill test).
 */
import ExcelJS from "exceljs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Answer, AnswerContext, AnswerEvent } from "../../src/answer/answer-events.js";
import type { ApprovedAnswerSource } from "../../src/answer/approved-answer-source.js";
import { silentLogger } from "../../src/logger.js";
import { createInteractivePriority } from "../../src/questionnaire/jobs/interactive-priority.js";
import { createQuestionnaireJobStore } from "../../src/questionnaire/jobs/questionnaire-job-store.js";
import {
  createQuestionnaireService,
  DEFAULT_QUESTIONNAIRE_SETTINGS,
  type QuestionnaireService,
} from "../../src/questionnaire/questionnaire-service.js";
import { migrateDatabase } from "../../src/stores/migrations.js";
import { openPgliteClient } from "../../src/stores/pglite-client.js";
import { openPostgresClient } from "../../src/stores/postgres-client.js";
import type { SqlClient } from "../../src/stores/sql-client.js";
import { createScratchDatabase, type ScratchDatabase, testDatabaseUrl } from "../support/ops-postgres-database.js";

type Script = (question: string, context: AnswerContext) => Promise<Answer>;

function pipelineOf(script: Script) {
  return async function* answer(question: string, context: AnswerContext): AsyncIterable<AnswerEvent> {
    yield { type: "status", status: "searching", message: "Searching…" };
    try {
      yield { type: "done", answer: await script(question, context) };
    } catch (error) {
      yield { type: "error", code: "answer_failed", message: (error as Error).message, requestId: context.requestId };
    }
  };
}

function citedAnswer(question: string): Answer {
  return {
    requestId: "r",
    answer: `About ${question} [1]`,
    noContext: false,
    citations: [
      {
        n: 1,
        documentId: "0b3c2f9e-0000-4000-8000-000000000001",
        title: "Policy",
        file: "policy.pdf",
        pageStart: 3,
        pageEnd: 3,
        quote: `The policy covers ${question}`,
        url: "http://folio.test/files/x#page=3",
      },
    ],
    timingsMs: {},
  };
}

function csvOf(questions: string[]): Uint8Array {
  return new TextEncoder().encode(`question\n${questions.map((question) => `"${question}"`).join("\n")}\n`);
}

const QUESTIONS = Array.from({ length: 12 }, (_, index) => `Question ${index + 1} about data retention?`);

const ENGINES = [
  { name: "PGlite", available: true },
  { name: "PostgreSQL", available: testDatabaseUrl !== null },
] as const;

if (!testDatabaseUrl)
  console.warn("questionnaire-jobs: PostgreSQL skipped — TEST_DATABASE_URL is not set (.ci/start-postgres.sh).");

describe.each(ENGINES)("questionnaire jobs on $name", ({ name, available }) => {
  let client: SqlClient;
  let scratch: ScratchDatabase | null = null;
  const services: QuestionnaireService[] = [];
  beforeEach(async (context) => {
    if (!available) {
      context.skip();
      return;
    }
    if (name === "PGlite") client = await openPgliteClient("memory://");
    else {
      scratch = await createScratchDatabase("folio_questionnaire");
      client = await openPostgresClient(scratch.url, { logger: silentLogger });
    }
    await migrateDatabase(client, { denseDimensions: 4, logger: silentLogger });
  });
  afterEach(async () => {
    if (!available) return;
    for (const service of services.splice(0)) await service.close();
    await client.close();
    await scratch?.drop();
    scratch = null;
  });

  function serviceWith(
    script: Script,
    options: { concurrency?: number; approved?: ApprovedAnswerSource; maxWaitMs?: number } = {},
  ) {
    const priority = createInteractivePriority({ maxWaitMs: options.maxWaitMs ?? 60_000 });
    const service = createQuestionnaireService({
      client,
      answerQuestion: pipelineOf(script),
      priority,
      settings: { ...DEFAULT_QUESTIONNAIRE_SETTINGS, concurrency: options.concurrency ?? 2 },
      approvedAnswers: options.approved,
      logger: silentLogger,
    });
    services.push(service);
    return { service, priority };
  }

  it("answers every row once, retries a failed row once, then saves it as an error with the reason", async () => {
    const asked = new Map<string, number>();
    const { service } = serviceWith(async (question) => {
      asked.set(question, (asked.get(question) ?? 0) + 1);
      if (question.includes("flaky") && asked.get(question) === 1) throw new Error("the index timed out");
      if (question.includes("broken")) throw new Error("the index is down");
      return citedAnswer(question);
    });
    const questions = [
      ...QUESTIONS.slice(0, 3),
      "Is the flaky backup encrypted at rest?",
      "Is the broken backup encrypted at rest?",
    ];
    const job = await service.submit({ bytes: csvOf(questions), fileName: "q.csv", spaceId: "s" });
    const settled = await service.whenSettled(job.id);
    expect(settled?.status).toBe("succeeded");
    expect(settled?.counts).toEqual({ answered: 4, not_found: 0, needs_review: 0, error: 1, pending: 0 });
    expect(asked.get("Is the flaky backup encrypted at rest?")).toBe(2);
    expect(asked.get("Is the broken backup encrypted at rest?")).toBe(2);
    for (const question of QUESTIONS.slice(0, 3)) expect(asked.get(question)).toBe(1);
    const rows = await createQuestionnaireJobStore(client).listRows(job.id);
    const broken = rows.find((row) => row.question.text.includes("broken"));
    expect(broken?.result).toMatchObject({
      status: "error",
      errorCode: "answer_failed",
      note: "failed twice: the index is down",
    });
    expect(broken?.failures).toBe(2);
    const progress = await service.progress(job.id);
    expect(progress).toMatchObject({ total: 5, done: 5, answered: 4, errors: 1, pending: 0, secondsLeft: 0 });
  });

  it("resumes a stopped job in one new service (of two claiming it) without asking any saved row again", async () => {
    let savedBeforeStop = 0;
    let releaseStop: () => void = () => {};
    const stopReached = new Promise<void>((resolve) => {
      releaseStop = resolve;
    });
    const first = serviceWith(
      async (question, context) => {
        if (savedBeforeStop >= 5) {
          releaseStop();
          // Hangs like an answer cut off by a crash; the stop's abort ends it.
          await new Promise((_, reject) =>
            context.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
          );
        }
        savedBeforeStop += 1;
        return citedAnswer(question);
      },
      { concurrency: 1 },
    );
    const job = await first.service.submit({ bytes: csvOf(QUESTIONS), fileName: "q.csv", spaceId: "s" });
    await stopReached;
    await first.service.close();
    const store = createQuestionnaireJobStore(client);
    const afterStop = await store.listRows(job.id);
    const answeredFirst = afterStop.filter((row) => row.result !== null).map((row) => row.question.text);
    expect(answeredFirst).toEqual(QUESTIONS.slice(0, 5));
    expect((await store.getJob(job.id))?.status).toBe("running");

    const askedAfterResume: string[] = [];
    const second = serviceWith(async (question) => {
      askedAfterResume.push(question);
      return citedAnswer(question);
    });
    const third = serviceWith(async (question) => {
      askedAfterResume.push(question);
      return citedAnswer(question);
    });
    // Two replicas sweeping at once for jobs untouched for a minute: the claim is atomic, one takes it.
    await client.query("UPDATE questionnaire_jobs SET updated_at = now() - interval '10 minutes' WHERE id = $1", [
      job.id,
    ]);
    const claims = await Promise.all([
      second.service.resumeInterrupted(60_000),
      third.service.resumeInterrupted(60_000),
    ]);
    expect(claims.flat()).toEqual([job.id]);
    const claimedBy = claims[0]?.length === 1 ? second : third;
    const settled = await claimedBy.service.whenSettled(job.id);
    expect(settled?.status).toBe("succeeded");
    expect(askedAfterResume.sort()).toEqual(QUESTIONS.slice(5).sort());
    const rows = await store.listRows(job.id);
    expect(rows.map((row) => row.result?.answer)).toEqual(QUESTIONS.map((question) => `About ${question} [1]`));
    // The row cut off by the stop was started twice but answered once; every other row was started once.
    expect(rows.map((row) => row.attempts)).toEqual(QUESTIONS.map((_, index) => (index === 5 ? 2 : 1)));
  });

  it("cancels: no new rows are asked, the answers so far stay, and the filled copy holds them", async () => {
    let answered = 0;
    let reachedThree: () => void = () => {};
    const three = new Promise<void>((resolve) => {
      reachedThree = resolve;
    });
    const { service } = serviceWith(
      async (question, context) => {
        answered += 1;
        if (answered > 3) {
          reachedThree();
          await new Promise((_, reject) =>
            context.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
          );
        }
        return citedAnswer(question);
      },
      { concurrency: 1 },
    );
    const job = await service.submit({ bytes: csvOf(QUESTIONS), fileName: "q.csv", spaceId: "s" });
    await three;
    expect(await service.cancel(job.id)).toBe(true);
    const progress = await service.progress(job.id);
    expect(progress).toMatchObject({ status: "cancelled", answered: 3, pending: 9 });
    const copy = await service.filledCopy(job.id);
    const lines = new TextDecoder().decode(copy?.bytes).trim().split("\n");
    expect(lines[0]).toBe('question,"Answer","Status","Sources","Quote"');
    expect(lines[1]).toMatch(
      /^"Question 1 about data retention\?","About Question 1 about data retention\? \[1\]","answered",/,
    );
    expect(lines[4]).toBe('"Question 4 about data retention?"');
  });

  it("cancels through another replica: recorded in the job's row, seen by the answering one before its next row", async () => {
    const asked: string[] = [];
    let holdFourth: () => void = () => {};
    const fourthHeld = new Promise<void>((resolve) => {
      holdFourth = resolve;
    });
    let releaseFourth: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      releaseFourth = resolve;
    });
    const answering = serviceWith(
      async (question) => {
        asked.push(question);
        if (asked.length === 4) {
          holdFourth();
          await released;
        }
        return citedAnswer(question);
      },
      { concurrency: 1 },
    );
    const other = serviceWith(async () => {
      throw new Error("the other replica answers nothing here");
    });
    const job = await answering.service.submit({ bytes: csvOf(QUESTIONS), fileName: "q.csv", spaceId: "s" });
    await fourthHeld;
    // The other replica does not answer this job: the cancel is recorded, and the job runs on for now.
    expect(await other.service.cancel(job.id)).toBe(true);
    expect((await other.service.getJob(job.id))?.status).toBe("running");
    releaseFourth();
    const settled = await answering.service.whenSettled(job.id);
    expect(settled?.status).toBe("cancelled");
    // The row being answered was saved; no row after it was asked.
    expect(asked).toEqual(QUESTIONS.slice(0, 4));
    expect(settled?.counts).toMatchObject({ answered: 4, pending: 8 });
    expect(await other.service.cancel(job.id)).toBe(false);
  });

  it("cancels at once a job no process has touched for a minute, and never resumes it", async () => {
    const store = createQuestionnaireJobStore(client);
    const job = await store.createJob({
      spaceId: "s",
      fileName: "left.csv",
      format: "csv",
      bytes: csvOf(QUESTIONS.slice(0, 2)),
      readOptions: {},
      layouts: [],
      questions: [],
      requestedBy: null,
    });
    await store.setJobStatus(job.id, "running");
    await client.query("UPDATE questionnaire_jobs SET updated_at = now() - interval '10 minutes' WHERE id = $1", [
      job.id,
    ]);
    const { service } = serviceWith(async (question) => citedAnswer(question));
    expect(await service.cancel(job.id)).toBe(true);
    expect((await service.getJob(job.id))?.status).toBe("cancelled");
    expect(await service.resumeInterrupted(0)).toEqual([]);
  });

  it("deletes the files of jobs finished longer ago than the retention period, keeping their rows", async () => {
    const { service } = serviceWith(async (question) => citedAnswer(question));
    const old = await service.submit({ bytes: csvOf(QUESTIONS.slice(0, 2)), fileName: "old.csv", spaceId: "s" });
    const recent = await service.submit({ bytes: csvOf(QUESTIONS.slice(0, 2)), fileName: "recent.csv", spaceId: "s" });
    expect((await service.whenSettled(old.id))?.status).toBe("succeeded");
    expect((await service.whenSettled(recent.id))?.status).toBe("succeeded");
    // Finished 8 days ago (the default retention is 7), and a job still open as old as that.
    await client.query("UPDATE questionnaire_jobs SET finished_at = now() - interval '8 days' WHERE id = $1", [old.id]);
    const store = createQuestionnaireJobStore(client);
    const open = await store.createJob({
      spaceId: "s",
      fileName: "open.csv",
      format: "csv",
      bytes: csvOf(QUESTIONS.slice(0, 1)),
      readOptions: {},
      layouts: [],
      questions: [],
      requestedBy: null,
    });
    await client.query("UPDATE questionnaire_jobs SET created_at = now() - interval '30 days' WHERE id = $1", [
      open.id,
    ]);

    expect(await service.deleteExpiredFiles()).toBe(1);
    expect(await store.getJobBytes(old.id)).toBeNull();
    expect((await service.getJob(old.id))?.fileDeletedAt).not.toBeNull();
    await expect(service.filledCopy(old.id)).rejects.toMatchObject({
      code: "questionnaire_file_deleted",
      message: expect.stringContaining("deleted 7 days after the job finished"),
    });
    // Its answers stay; the recent and the open job keep their files.
    expect((await service.listRows(old.id)).map((row) => row.status)).toEqual(["answered", "answered"]);
    expect((await service.filledCopy(recent.id))?.fileName).toBe("recent (filled).csv");
    expect(await store.getJobBytes(open.id)).not.toBeNull();
    expect(await service.deleteExpiredFiles()).toBe(0);
  });

  it("hands a finished job its chat was never told about to that chat's adapter, once", async () => {
    const { service } = serviceWith(async (question) => citedAnswer(question));
    const destination = { adapter: "slack", address: { channelId: "C1", threadTs: "1.0" } };
    const untold = await service.submit({
      bytes: csvOf(QUESTIONS.slice(0, 1)),
      fileName: "u.csv",
      spaceId: "s",
      destination,
    });
    const told = await service.submit({
      bytes: csvOf(QUESTIONS.slice(0, 1)),
      fileName: "t.csv",
      spaceId: "s",
      destination,
    });
    const console = await service.submit({ bytes: csvOf(QUESTIONS.slice(0, 1)), fileName: "c.csv", spaceId: "s" });
    for (const job of [untold, told, console]) await service.whenSettled(job.id);
    await service.markReported(told.id);

    const other = serviceWith(async (question) => citedAnswer(question)).service;
    const handed: string[] = [];
    other.onResumed("teams", (job) => handed.push(`teams:${job.fileName}`));
    other.onResumed("slack", (job) => handed.push(`slack:${job.fileName}`));
    expect(await other.resumeInterrupted(0)).toEqual([]);
    expect(handed).toEqual(["slack:u.csv"]);
    await other.resumeInterrupted(0);
    expect(handed).toEqual(["slack:u.csv"]);
  });

  it("starts no row while an interactive question is being answered", async () => {
    const asked: string[] = [];
    const { service, priority } = serviceWith(async (question) => {
      asked.push(question);
      return citedAnswer(question);
    });
    const endInteractive = priority.begin();
    const job = await service.submit({ bytes: csvOf(QUESTIONS.slice(0, 2)), fileName: "q.csv", spaceId: "s" });
    const store = createQuestionnaireJobStore(client);
    // Running, and waiting its turn: no row has been started.
    for (let attempt = 0; attempt < 200 && (await store.getJob(job.id))?.status !== "running"; attempt++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await store.listRows(job.id)).map((row) => row.attempts)).toEqual([0, 0]);
    expect(asked).toEqual([]);
    endInteractive();
    expect((await service.whenSettled(job.id))?.counts.answered).toBe(2);
  });

  it("uses a matching approved answer with its origin, and still attaches the documents' citations", async () => {
    const approved: ApprovedAnswerSource = {
      async match(spaceId, question) {
        if (spaceId !== "s" || !question.includes("Question 1 ")) return undefined;
        return {
          answer: "Yes — retained for 7 years.",
          origin: {
            file: "2025-review.xlsx",
            sheet: "Controls",
            row: 12,
            addedBy: "U123",
            addedAt: "2026-01-05T10:00:00Z",
          },
          similarity: 0.93,
        };
      },
    };
    const { service } = serviceWith(async (question) => citedAnswer(question), { approved });
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Controls");
    sheet.addRow(["Question"]);
    sheet.addRow([QUESTIONS[0]]);
    sheet.addRow([QUESTIONS[1]]);
    const job = await service.submit({
      bytes: new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer),
      fileName: "new.xlsx",
      spaceId: "s",
    });
    await service.whenSettled(job.id);
    const copy = await service.filledCopy(job.id);
    const filled = new ExcelJS.Workbook();
    await filled.xlsx.load(Buffer.from(copy?.bytes ?? new Uint8Array()) as unknown as ArrayBuffer);
    const row = filled.worksheets[0]?.getRow(2).values as unknown[];
    expect(row.slice(2, 4)).toEqual([
      "Yes — retained for 7 years.",
      "answered — approved answer reused (2025-review.xlsx, sheet Controls, row 12, added by U123 on 2026-01-05)",
    ]);
    expect(row[4]).toMatchObject({ text: "[1] policy.pdf, p. 3" });
    expect(filled.worksheets[0]?.getCell("C3").value).toBe("answered");
  });
});
