/**
 * Filled-copy downloads through a real `folio serve` (issue #37): the download needs the console's header
 * or the signed, expiring link the console's progress reply carries, and a foreign Origin is refused; eight
 * downloads at once are one copy written and the process answers health checks throughout; a copy that
 * cannot be written (overlapping merges: read fine, refused by exceljs at the copy) answers its
 * questionnaire code with 422, not a 500, is recorded with the job, and after a restart is told from the
 * record without being written again.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_HEADERS } from "../support/console-client.js";
import { type FolioProcess, startFolioServe } from "../support/ops-folio-process.js";
import { buildXlsx, questionRows } from "../support/questionnaire-bombs.js";
import { waitFor } from "../support/wait-for.js";

type Progress = {
  jobId: string;
  status: string;
  downloadUrl?: string;
  copyError?: { code: string; message: string } | null;
};

const QUESTIONNAIRE = new TextEncoder().encode("Question\nAre backups encrypted?\nAre logs kept?\n");

/** Read without trouble (merges are taken from the survey), refused by exceljs at the copy: they overlap. */
const OVERLAPPING_MERGES = buildXlsx([
  {
    name: "Questions",
    rows: questionRows(3),
    afterSheetData: '<mergeCells count="2"><mergeCell ref="C1:D1"/><mergeCell ref="D1:E1"/></mergeCells>',
  },
]);

async function submit(url: string, fileName: string, bytes: Uint8Array): Promise<string> {
  const response = await fetch(`${url}/api/questionnaires?file=${encodeURIComponent(fileName)}`, {
    method: "POST",
    headers: { ...CONSOLE_HEADERS, "Content-Type": "application/octet-stream" },
    body: bytes,
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { progress: Progress }).progress.jobId;
}

async function finished(url: string, jobId: string): Promise<Progress> {
  return waitFor(
    async () => {
      const response = await fetch(`${url}/api/questionnaires/progress?id=${jobId}`, { headers: CONSOLE_HEADERS });
      const { progress } = (await response.json()) as { progress: Progress };
      return progress.status === "succeeded" || progress.status === "cancelled" ? progress : null;
    },
    120_000,
    "the questionnaire job to finish",
  );
}

const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;

describe("filled-copy downloads through the console API", () => {
  let dataDir: string;
  let served: FolioProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "folio-copies-"));
    served = await startFolioServe({ FOLIO_DATA_DIR: dataDir, FOLIO_EMBED_MODEL: "none" });
  }, 120_000);

  afterAll(async () => {
    await served?.kill();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("gives the copy for the console's header or its signed link, never to another site", async () => {
    const jobId = await submit(served.url, "review.csv", QUESTIONNAIRE);
    const progress = await finished(served.url, jobId);
    expect(progress.downloadUrl).toMatch(/^\/api\/questionnaires\/filled\?id=[0-9a-f-]{36}&exp=\d+&sig=[0-9a-f]{64}$/);
    const plain = `${served.url}/api/questionnaires/filled?id=${jobId}`;

    const bare = await fetch(plain);
    expect([bare.status, await errorOf(bare)]).toEqual([403, "questionnaire_copy_link_required"]);
    // One hex digit of the signature changed.
    const signature = progress.downloadUrl?.slice(-64) ?? "";
    const changed = `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`;
    const tampered = await fetch(`${served.url}${progress.downloadUrl?.slice(0, -64)}${changed}`);
    expect([tampered.status, await errorOf(tampered)]).toEqual([403, "questionnaire_copy_link_required"]);
    for (const headers of [
      { Origin: "https://evil.example" },
      { ...CONSOLE_HEADERS, Origin: "https://evil.example" },
    ]) {
      const foreign = await fetch(`${served.url}${progress.downloadUrl}`, { headers });
      expect([foreign.status, await errorOf(foreign)]).toEqual([403, "console_origin_mismatch"]);
    }

    const signed = await fetch(`${served.url}${progress.downloadUrl}`);
    expect(signed.status).toBe(200);
    expect(signed.headers.get("referrer-policy")).toBe("no-referrer");
    const text = await signed.text();
    expect(text.split("\n")[0]).toBe('Question,"Answer","Status","Sources","Quote"');
    const own = await fetch(plain, { headers: { ...CONSOLE_HEADERS, Origin: new URL(served.url).origin } });
    expect([own.status, await own.text()]).toEqual([200, text]);
  }, 180_000);

  it("answers eight downloads at once with one copy while health checks are answered", async () => {
    const jobId = await submit(served.url, "eight.csv", QUESTIONNAIRE);
    await finished(served.url, jobId);
    const health: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) health.push((await fetch(`${served.url}/healthz`).catch(() => null))?.status ?? 0);
    })();
    const downloads = await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${served.url}/api/questionnaires/filled?id=${jobId}`, { headers: CONSOLE_HEADERS }).then(
          async (response) => [response.status, await response.text()] as const,
        ),
      ),
    );
    const before = health.length;
    await waitFor(() => health.length > before, 30_000, "a health check after the downloads");
    polling = false;
    await poller;
    expect(downloads.map(([status]) => status)).toEqual(Array(8).fill(200));
    expect(new Set(downloads.map(([, body]) => body)).size).toBe(1);
    expect(health.filter((status) => status !== 200)).toEqual([]);
    expect([served.child.exitCode, served.child.signalCode]).toEqual([null, null]);
  }, 180_000);

  it("answers a copy that cannot be written with its code (422), records it, and tells it again after a restart unwritten", async () => {
    const jobId = await submit(served.url, "merges.xlsx", OVERLAPPING_MERGES);
    await finished(served.url, jobId);
    const first = await fetch(`${served.url}/api/questionnaires/filled?id=${jobId}`, { headers: CONSOLE_HEADERS });
    expect([first.status, await errorOf(first)]).toEqual([422, "questionnaire_unreadable"]);
    expect(served.stderr()).toContain("filled copy refused; recorded with the job");
    const progress = await finished(served.url, jobId);
    expect([progress.copyError?.code, progress.downloadUrl]).toEqual(["questionnaire_unreadable", undefined]);

    await served.kill();
    served = await startFolioServe({ FOLIO_DATA_DIR: dataDir, FOLIO_EMBED_MODEL: "none" });
    const again = await fetch(`${served.url}/api/questionnaires/filled?id=${jobId}`, { headers: CONSOLE_HEADERS });
    expect([again.status, await errorOf(again)]).toEqual([422, "questionnaire_unreadable"]);
    // Told from the record: the restarted process never opened the file for a copy.
    expect(served.stderr()).not.toContain("filled copy refused");
    expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
  }, 300_000);
});
