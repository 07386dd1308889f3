/**
 * A questionnaire through a real `folio serve` (embedded PGlite, keyword search, extractive answers):
 * uploaded in the console, followed, killed with SIGKILL mid-job, and resumed by the next start from
 * its first unanswered row — every row answered once, none lost — then downloaded filled. Bad input is
 * refused with its message and leaves no job behind.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import {
  createQuestionnaireJobStore,
  type QuestionnaireRowRecord,
} from "../../src/questionnaire/jobs/questionnaire-job-store.js";
import type { QuestionnaireProgress } from "../../src/questionnaire/jobs/questionnaire-progress.js";
import { migrateDatabase } from "../../src/stores/migrations.js";
import { openPgliteClient } from "../../src/stores/pglite-client.js";
import { CONSOLE_HEADERS, uploadToConsole } from "../support/console-client.js";
import { type FolioProcess, startFolioServe } from "../support/ops-folio-process.js";
import { hasSharedData, sharedModel } from "../support/shared-paths.js";
import { waitFor } from "../support/wait-for.js";

if (!hasSharedData) console.warn("questionnaire-resume: skipped — no shared data (../shared) for the tokenizer.");

const HANDBOOK = `# Data handling handbook

## Backups
Backups are taken every night and kept for 35 days. Backup media are encrypted with AES-256.

## Access
Administrator access is reviewed every quarter by the security team. Passwords must have 14 characters.

## Incidents
Security incidents are reported to affected customers within 72 hours.
`;

const QUESTIONS = 800;

const TOPICS = [
  "backups taken",
  "backup media encrypted",
  "administrator access reviewed",
  "password length",
  "incidents reported to customers",
  "office plants watered",
  "parking spaces allocated",
  "canteen menu chosen",
];

/** 800 questions (enough to be killed mid-way on a fast machine), a section row every 20, each question naming its number so rows cannot be confused. */
function questionnaireRows(): string[][] {
  const rows: string[][] = [["No.", "Question"]];
  for (let index = 0; index < QUESTIONS; index++) {
    if (index % 20 === 0) rows.push([`Part ${index / 20 + 1}`]);
    rows.push([String(index + 1), `Q${index + 1}: how often are ${TOPICS[index % TOPICS.length]}?`]);
  }
  return rows;
}

async function progressOf(url: string, jobId: string): Promise<QuestionnaireProgress> {
  const response = await fetch(`${url}/api/questionnaires/progress?id=${jobId}`, { headers: CONSOLE_HEADERS });
  expect(response.status).toBe(200);
  return ((await response.json()) as { progress: QuestionnaireProgress }).progress;
}

/** The job's rows as the catalog holds them (the server is stopped: PGlite is one process's). */
async function rowsInCatalog(dataDir: string, jobId: string): Promise<QuestionnaireRowRecord[]> {
  const client = await openPgliteClient(path.join(dataDir, "db"));
  try {
    await migrateDatabase(client, { denseDimensions: 384, logger: silentLogger });
    return await createQuestionnaireJobStore(client).listRows(jobId);
  } finally {
    await client.close();
  }
}

describe.skipIf(!hasSharedData)("questionnaire killed mid-job", () => {
  let dataDir: string;
  const children: FolioProcess[] = [];
  const environment = () => ({
    FOLIO_DATA_DIR: dataDir,
    FOLIO_MODELS_DIR: path.dirname(sharedModel("bge-small-en-v1.5")),
    FOLIO_EMBED_MODEL: "none",
    FOLIO_QUESTIONNAIRE_CONCURRENCY: "2",
  });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "folio-questionnaire-kill-"));
  });
  afterAll(async () => {
    for (const served of children) await served.kill();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("resumes after SIGKILL and answers every row exactly once, in place", async () => {
    const first = await startFolioServe(environment());
    children.push(first);
    const upload = await uploadToConsole(first.url, "handbook.md", HANDBOOK);
    expect(await upload.text()).toContain('"status":"ingested"');

    const refused = await fetch(`${first.url}/api/questionnaires?file=notes.pdf`, {
      method: "POST",
      headers: CONSOLE_HEADERS,
      body: "%PDF-1.4\n%%EOF\n",
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("questionnaire_unsupported_type");

    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Vendor review");
    for (const row of questionnaireRows()) sheet.addRow(row);
    const original = new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
    const submitted = await fetch(`${first.url}/api/questionnaires?file=${encodeURIComponent("vendor review.xlsx")}`, {
      method: "POST",
      headers: CONSOLE_HEADERS,
      body: original,
    });
    expect(submitted.status).toBe(202);
    const { progress: queued } = (await submitted.json()) as { progress: QuestionnaireProgress };
    expect(queued.total).toBe(QUESTIONS);
    const jobId = queued.jobId;

    await waitFor(async () => (await progressOf(first.url, jobId)).done >= 10, 300_000, "10 rows answered");
    await first.kill();
    const beforeRestart = await rowsInCatalog(dataDir, jobId);
    const answeredBefore = beforeRestart.filter((row) => row.result !== null);
    expect(answeredBefore.length).toBeGreaterThanOrEqual(10);
    expect(answeredBefore.length).toBeLessThan(QUESTIONS);

    const second = await startFolioServe(environment());
    children.push(second);
    const finished = await waitFor(
      async () => {
        const progress = await progressOf(second.url, jobId);
        return progress.status === "succeeded" ? progress : null;
      },
      600_000,
      "the resumed job to finish",
    );
    expect(second.stderr()).toContain("questionnaire jobs resumed");
    expect(finished.done).toBe(QUESTIONS);
    expect(finished.answered + finished.notFound + finished.needsReview + finished.errors).toBe(QUESTIONS);

    const download = await fetch(`${second.url}/api/questionnaires/filled?id=${jobId}`, { headers: CONSOLE_HEADERS });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toContain("vendor%20review%20(filled).xlsx");
    const filled = new ExcelJS.Workbook();
    await filled.xlsx.load(Buffer.from(await download.arrayBuffer()) as unknown as ArrayBuffer);
    const filledSheet = filled.getWorksheet("Vendor review");
    const originalRows = questionnaireRows();
    expect(filledSheet?.rowCount).toBe(originalRows.length);
    for (const [index, cells] of originalRows.entries()) {
      const row = filledSheet?.getRow(index + 1);
      expect(cells.map((_, column) => row?.getCell(column + 1).value)).toEqual(cells);
      const status = row?.getCell(4).value;
      if (index === 0) expect(status).toBe("Status");
      else if (cells.length === 1) expect(status).toBeNull();
      else expect(String(status)).toMatch(/^(answered|not found in the documents|needs review|error)/);
    }
    await second.kill();

    const afterResume = await rowsInCatalog(dataDir, jobId);
    expect(afterResume.every((row) => row.result !== null)).toBe(true);
    // Rows answered before the kill kept their answers; only rows cut off mid-answer were started again.
    for (const row of answeredBefore) {
      expect(afterResume[row.position]?.result).toEqual(row.result);
      expect(afterResume[row.position]?.attempts).toBe(1);
    }
    const startedTwice = afterResume.filter((row) => row.attempts > 1);
    expect(startedTwice.length).toBeLessThanOrEqual(2);
    expect(afterResume.map((row) => row.question.text)).toEqual(
      originalRows
        .filter((cells) => cells.length === 2)
        .slice(1)
        .map((cells) => cells[1]),
    );
  }, 900_000);
});
