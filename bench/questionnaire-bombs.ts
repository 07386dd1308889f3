/**
 * The questionnaire bombs of issues #30 and #37 against a real `folio serve` (a child process, embedded
 * store, no models): each is sent through the console API (POST /api/questionnaires, or POST /api/answers
 * for approved answers) while GET /healthz is asked back to back, and the server's resident memory is
 * sampled from /proc. Reported per bomb: the refusal (status, code), how long it took, the slowest health
 * check while it was read, and the peak growth of the server's RSS (its VmHWM, reset before each bomb, and
 * the samples). Then all of them at once; then the downloads: the largest CSV filled copy the limits allow
 * (5,000 rows × 40 columns) three times, the largest XLSX eight times at once (twice: written, then kept),
 * and — where a server still takes it as a job — the review's rich-text workbook's copy four times at once.
 * After each stretch: whether the server is still running.
 *
 *   npx tsx bench/questionnaire-bombs.ts            # a table
 *   npx tsx bench/questionnaire-bombs.ts --json
 *   FOLIO_BENCH_ROOT=/path/to/older/checkout npx tsx bench/questionnaire-bombs.ts   # the same bombs, another server
 *   npx tsx bench/questionnaire-bombs.ts --downloads-only                            # the downloads alone
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type FolioProcess, startFolioServe } from "../test/support/ops-folio-process.js";
import { type QuestionnaireBomb, questionnaireBombs, submitBomb } from "../test/support/questionnaire-bombs.js";
import { largestAllowedWorkbook, workbookPartBombs } from "../test/support/questionnaire-part-bombs.js";
import { type Figures, megabyte, printFigures, whileWatching } from "./questionnaire-bombs-watch.js";

const CONSOLE = { "X-Folio-Console": "1" };

async function send(served: FolioProcess, bomb: Pick<QuestionnaireBomb, "bytes" | "fileName" | "as">) {
  const response = await submitBomb(served.url, bomb).catch(() => null);
  if (!response) return { status: 0, code: "no answer (server gone?)", jobId: null };
  const body = (await response.json().catch(() => ({}))) as { error?: { code: string }; progress?: { jobId: string } };
  return { status: response.status, code: body.error?.code ?? null, jobId: body.progress?.jobId ?? null };
}

/** 5,000 question rows × 40 columns (200,000 cells, the cell limit): the largest CSV a job may hold. */
function largestCsv(): Uint8Array {
  const header = ["Question", ...Array.from({ length: 39 }, (_, index) => `Note ${index + 1}`)].join(",");
  const rows = Array.from({ length: 4_999 }, (_, row) =>
    [`Is control ${row + 1} in place?`, ...Array.from({ length: 39 }, (_, column) => `n${row}-${column}`)].join(","),
  );
  return new TextEncoder().encode(`${header}\n${rows.join("\n")}\n`);
}

/** Submits a questionnaire and cancels it at once: its (partly) filled copy is what is downloaded. */
async function cancelledJob(served: FolioProcess, fileName: string, bytes: Uint8Array): Promise<string | null> {
  const { jobId } = await send(served, { as: "questionnaire", fileName, bytes });
  if (!jobId) return null;
  await fetch(`${served.url}/api/questionnaires/cancel?id=${jobId}`, { method: "POST", headers: CONSOLE });
  return jobId;
}

/** `count` downloads of the job's copy at once: their statuses, and the largest copy's size. */
async function download(served: FolioProcess, jobId: string, count: number) {
  const answers = await Promise.all(
    Array.from({ length: count }, async () => {
      const response = await fetch(`${served.url}/api/questionnaires/filled?id=${jobId}`, { headers: CONSOLE }).catch(
        () => null,
      );
      if (!response) return { status: 0, code: "no answer", bytes: 0 };
      const body = new Uint8Array(await response.arrayBuffer());
      const code = response.ok
        ? null
        : ((JSON.parse(new TextDecoder().decode(body)) as { error?: { code: string } }).error?.code ?? null);
      return { status: response.status, code, bytes: response.ok ? body.byteLength : 0 };
    }),
  );
  return {
    status: Math.max(...answers.map((answer) => answer.status)),
    code: [...new Set(answers.map((answer) => answer.code ?? String(answer.status)))].join(" "),
    bytes: Math.max(...answers.map((answer) => answer.bytes)),
  };
}

async function measureBombs(served: FolioProcess, bombs: QuestionnaireBomb[], figures: Figures[]) {
  for (const bomb of bombs) {
    const watched = await whileWatching(served, () => send(served, bomb));
    figures.push({
      name: `${bomb.name} (${(bomb.bytes.byteLength / 1024).toFixed(0)} KB, ${bomb.as})`,
      ...watched.figures,
      status: watched.result.status,
      code:
        watched.result.code === bomb.code ? bomb.code : `${watched.result.code ?? "accepted"} (expected ${bomb.code})`,
    });
  }
  const together = await whileWatching(served, () => Promise.all(bombs.map((bomb) => send(served, bomb))));
  figures.push({
    name: `all ${bombs.length} at once`,
    ...together.figures,
    status: Math.max(...together.result.map((result) => result.status)),
    code: together.result.every((result, index) => result.code === bombs[index]?.code) ? "each its own" : "MISMATCH",
  });
}

async function measureDownloads(served: FolioProcess, bombs: QuestionnaireBomb[], figures: Figures[]) {
  const csvJob = await cancelledJob(served, "largest.csv", largestCsv());
  for (let attempt = 1; csvJob && attempt <= 3; attempt++) {
    const watched = await whileWatching(served, () => download(served, csvJob, 1));
    figures.push({
      name: `download ${attempt}: filled copy of a 5,000 × 40 CSV (${(watched.result.bytes / megabyte).toFixed(1)} MB)`,
      ...watched.figures,
      ...watched.result,
    });
  }
  const xlsxJob = await cancelledJob(served, "largest.xlsx", largestAllowedWorkbook());
  for (const round of ["written", "kept"]) {
    if (!xlsxJob) break;
    const watched = await whileWatching(served, () => download(served, xlsxJob, 8));
    figures.push({
      name: `8 downloads at once of the largest XLSX's copy (${round}, ${(watched.result.bytes / megabyte).toFixed(1)} MB)`,
      ...watched.figures,
      ...watched.result,
    });
  }
  if (!xlsxJob) throw new Error("the largest XLSX the limits allow was refused at upload");
  // The review's scenario, on a server that still takes the rich-text workbook as a job.
  const richText = bombs.find((bomb) => bomb.name === "rich-text-shared-strings");
  const richJob = richText ? await cancelledJob(served, richText.fileName, richText.bytes) : null;
  if (richJob) {
    const watched = await whileWatching(served, () => download(served, richJob, 4));
    figures.push({
      name: "4 downloads at once of the rich-text workbook's copy",
      ...watched.figures,
      ...watched.result,
    });
  }
}

async function main() {
  const json = process.argv.includes("--json");
  const root = process.env.FOLIO_BENCH_ROOT;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "folio-bombs-bench-"));
  // "All at once" sends every file together: the receive cap (default 4) is lifted so each is read.
  const served = await startFolioServe(
    { FOLIO_DATA_DIR: dataDir, FOLIO_EMBED_MODEL: "none", FOLIO_QUESTIONNAIRE_MAX_RECEIVING: "32" },
    180_000,
    ...(root ? [root] : []),
  );
  const figures: Figures[] = [];
  try {
    const bombs = [...questionnaireBombs(), ...workbookPartBombs()];
    if (!process.argv.includes("--downloads-only")) await measureBombs(served, bombs, figures);
    await measureDownloads(served, bombs, figures);
  } finally {
    await served.kill();
    await rm(dataDir, { recursive: true, force: true });
  }
  if (json) console.log(JSON.stringify({ figures }, null, 2));
  else printFigures(figures);
}

await main();
