/**
 * Filled copies on a real catalog (PGlite) and the real questionnaire worker (#37): a copy is written once
 * per job and answer version however many ask at once, written again only after an answer changes; at most
 * FOLIO_QUESTIONNAIRE_MAX_COPIES are written at once, a download past that refused with 429 while a chat
 * adapter waits its turn; and a copy the worker refuses — the review's rich-text workbook, stored before
 * the survey counted runs — is refused with its code, recorded with the job, and never written again, by
 * this service or the next one on the same catalog (a restart).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AnswerEvent } from "../../src/answer/answer-events.js";
import { isFolioError } from "../../src/errors.js";
import { silentLogger } from "../../src/logger.js";
import type { WriteFilledCopy } from "../../src/questionnaire/jobs/filled-copies.js";
import { createInteractivePriority } from "../../src/questionnaire/jobs/interactive-priority.js";
import { createQuestionnaireJobStore } from "../../src/questionnaire/jobs/questionnaire-job-store.js";
import {
  createQuestionnaireService,
  DEFAULT_QUESTIONNAIRE_SETTINGS,
  type QuestionnaireService,
} from "../../src/questionnaire/questionnaire-service.js";
import {
  closeQuestionnaireWorkers,
  writeFilledCopyInWorker,
} from "../../src/questionnaire/questionnaire-worker-pool.js";
import { findQuestions } from "../../src/questionnaire/read/find-questions.js";
import { readQuestionnaireGrid } from "../../src/questionnaire/read/read-questionnaire-grid.js";
import { migrateDatabase } from "../../src/stores/migrations.js";
import { openPgliteClient } from "../../src/stores/pglite-client.js";
import type { SqlClient } from "../../src/stores/sql-client.js";
import { answeredRow } from "../support/questionnaire-files.js";
import { richTextSharedStringsWorkbook } from "../support/questionnaire-part-bombs.js";

async function* noAnswers(): AsyncIterable<AnswerEvent> {
  yield { type: "status", status: "searching", message: "Searching…" };
}

const CSV = new TextEncoder().encode("Question\nAre backups encrypted?\nAre logs kept?\n");

/** A job stored as it stood before the service read it: the file, its layout and questions, no answers yet. */
async function storedJob(client: SqlClient, bytes: Uint8Array, fileName: string, readFrom: Uint8Array = bytes) {
  const read = findQuestions(await readQuestionnaireGrid(readFrom, fileName), { maxRows: 5_000 });
  return createQuestionnaireJobStore(client).createJob({
    spaceId: "console:copies",
    fileName,
    format: read.format,
    bytes,
    readOptions: {},
    layouts: read.layouts,
    questions: read.questions,
    requestedBy: null,
  });
}

describe("filled copies", () => {
  let client: SqlClient;
  const services: QuestionnaireService[] = [];
  let writes: string[];

  beforeEach(async () => {
    client = await openPgliteClient("memory://");
    await migrateDatabase(client, { denseDimensions: 4, logger: silentLogger });
    writes = [];
  });
  afterEach(async () => {
    for (const service of services.splice(0)) await service.close();
    await client.close();
    await closeQuestionnaireWorkers();
  });

  /** A service whose copies go through the real worker, each write counted (by file name). */
  function serviceWith(options: { maxWritingCopies?: number; write?: WriteFilledCopy } = {}) {
    const service = createQuestionnaireService({
      client,
      answerQuestion: noAnswers,
      priority: createInteractivePriority({ maxWaitMs: 60_000 }),
      settings: { ...DEFAULT_QUESTIONNAIRE_SETTINGS, maxWritingCopies: options.maxWritingCopies ?? 2 },
      writeFilledCopy: async (input) => {
        writes.push(input.fileName);
        return (options.write ?? writeFilledCopyInWorker)(input);
      },
      logger: silentLogger,
    });
    services.push(service);
    return service;
  }

  it("writes a copy once for eight who ask at once, and again only after an answer changes", async () => {
    const service = serviceWith();
    const job = await storedJob(client, CSV, "review.csv");
    const copies = await Promise.all(Array.from({ length: 8 }, () => service.filledCopy(job.id)));
    expect(writes).toEqual(["review.csv"]);
    expect(new Set(copies.map((copy) => copy?.bytes)).size).toBe(1);
    expect(new TextDecoder().decode(copies[0]?.bytes).split("\n")[0]).toBe(
      'Question,"Answer","Status","Sources","Quote"',
    );
    await service.filledCopy(job.id);
    expect(writes).toHaveLength(1);

    await createQuestionnaireJobStore(client).saveRowAnswer(job.id, 0, answeredRow("Backups are encrypted.", [2]));
    const changed = await service.filledCopy(job.id);
    expect(writes).toHaveLength(2);
    expect(new TextDecoder().decode(changed?.bytes)).toContain('"Backups are encrypted. [1]"');
  }, 60_000);

  it("refuses a download with 429 while the most copies are being written; a chat adapter waits its turn", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const service = serviceWith({
      maxWritingCopies: 1,
      write: async (input) => {
        if (input.fileName === "first.csv") await held;
        return writeFilledCopyInWorker(input);
      },
    });
    const first = await storedJob(client, CSV, "first.csv");
    const second = await storedJob(client, CSV, "second.csv");
    const writingFirst = service.filledCopy(first.id);
    while (writes.length === 0) await new Promise((resolve) => setImmediate(resolve));

    const refused = await service.filledCopy(second.id, { whenBusy: "refuse" }).catch((error: unknown) => error);
    expect(isFolioError(refused) && [refused.code, refused.details.status, refused.retryable]).toEqual([
      "questionnaire_copy_busy",
      429,
      true,
    ]);
    // The same copy being written is shared, not refused.
    const joining = service.filledCopy(first.id, { whenBusy: "refuse" });
    const waiting = service.filledCopy(second.id, { whenBusy: "wait" });
    release();
    const [a, b, c] = await Promise.all([writingFirst, joining, waiting]);
    expect([a?.fileName, b?.fileName, c?.fileName]).toEqual([
      "first (filled).csv",
      "first (filled).csv",
      "second (filled).csv",
    ]);
    expect(writes).toEqual(["first.csv", "second.csv"]);
  }, 60_000);

  it("refuses the review's rich-text workbook at the copy, records it with the job, and never writes it again", async () => {
    // Stored as a job before the survey counted runs: its layout read from the same sheet without them.
    const bomb = richTextSharedStringsWorkbook(150_000);
    const job = await storedJob(client, bomb, "rich-text.xlsx", richTextSharedStringsWorkbook(1));
    const first = serviceWith();
    const refusal = await first.filledCopy(job.id).catch((error: unknown) => error);
    expect(isFolioError(refusal) && [refusal.code, refusal.details.status]).toEqual([
      "questionnaire_too_many_text_runs",
      422,
    ]);
    expect((await first.getJob(job.id))?.copyError?.code).toBe("questionnaire_too_many_text_runs");
    expect((await first.progress(job.id))?.copyError).toEqual({
      code: "questionnaire_too_many_text_runs",
      message:
        "This workbook's text is split into more than 100,000 differently formatted pieces (rich-text runs in cells and comments) — copy the questions into a new workbook (paste as values, or clear the formatting) and upload that.",
    });
    await expect(first.filledCopy(job.id)).rejects.toMatchObject({ code: "questionnaire_too_many_text_runs" });

    // The next start (a new service on the same catalog) tells the recorded refusal without writing.
    const restarted = serviceWith();
    await expect(restarted.filledCopy(job.id)).rejects.toMatchObject({
      code: "questionnaire_too_many_text_runs",
      details: { status: 422 },
    });
    expect(writes).toEqual(["rich-text.xlsx"]);
    // The worker works on.
    const honest = await storedJob(client, CSV, "honest.csv");
    expect((await restarted.filledCopy(honest.id))?.fileName).toBe("honest (filled).csv");
  }, 120_000);
});
