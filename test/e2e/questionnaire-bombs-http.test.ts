/**
 * The questionnaire bombs of issues #30 and #37 (and their variants: the review's rich-text workbook at
 * its full 3,000,000 runs, runs inline and in comments, comments, defined names, styles) sent to a real
 * `folio serve` through the console's HTTP API, all at once, while health checks keep asking: each is refused with its own code and
 * message (400 for a questionnaire, 422 for approved answers), every health check is answered, the
 * process is still running afterwards and takes an honest questionnaire. Time and memory figures are
 * the bench's (bench/questionnaire-bombs.ts), not this test's.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FolioProcess, startFolioServe } from "../support/ops-folio-process.js";
import { questionnaireBombs, submitBomb } from "../support/questionnaire-bombs.js";
import { REVIEW_SIZES, workbookPartBombs } from "../support/questionnaire-part-bombs.js";
import { waitFor } from "../support/wait-for.js";

describe("questionnaire bombs through the console API", () => {
  let dataDir: string;
  let served: FolioProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "folio-bombs-"));
    served = await startFolioServe({
      FOLIO_DATA_DIR: dataDir,
      FOLIO_EMBED_MODEL: "none",
      // All nineteen are sent at once: each must reach the reader (the cap has its own test).
      FOLIO_QUESTIONNAIRE_MAX_RECEIVING: "32",
    });
  }, 120_000);

  afterAll(async () => {
    await served?.kill();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("refuses every bomb with its code while health checks are answered, and stays up", async () => {
    const health: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) health.push((await fetch(`${served.url}/healthz`).catch(() => null))?.status ?? 0);
    })();
    // The review's workbook at its size; the variants just past their limits.
    const partBombs = workbookPartBombs({
      sharedRuns: REVIEW_SIZES.sharedRuns,
      inlineRuns: 100_001,
      commentRuns: 100_100,
      comments: 10_001,
    });
    const bombs = [...questionnaireBombs(), ...partBombs];
    const answers = await Promise.all(
      bombs.map(async (bomb) => {
        const response = await submitBomb(served.url, bomb);
        const body = (await response.json()) as { error?: { code: string; message: string } };
        return {
          name: bomb.name,
          status: response.status,
          code: body.error?.code,
          hasMessage: (body.error?.message.length ?? 0) > 40,
        };
      }),
    );
    // One more health check after the last refusal, then stop asking.
    const before = health.length;
    await waitFor(() => health.length > before, 30_000, "a health check after the bombs");
    polling = false;
    await poller;

    expect(answers).toEqual(
      bombs.map((bomb) => ({
        name: bomb.name,
        status: bomb.as === "questionnaire" ? 400 : 422,
        code: bomb.code,
        hasMessage: true,
      })),
    );
    expect(health.filter((status) => status !== 200)).toEqual([]);
    expect([served.child.exitCode, served.child.signalCode]).toEqual([null, null]);

    const honest = await submitBomb(served.url, {
      as: "questionnaire",
      fileName: "honest.csv",
      bytes: new TextEncoder().encode("Question\nIs data encrypted at rest?\n"),
    });
    expect(honest.status).toBe(202);
  }, 180_000);
});
