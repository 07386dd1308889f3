/**
 * The questionnaire bombs of issue #30 against a real `folio serve` (a child process, embedded store, no
 * models): each is sent through the console API (POST /api/questionnaires, or POST /api/answers for
 * approved answers) while GET /healthz is asked back to back, and the server's resident memory is sampled
 * from /proc. Reported per bomb: the refusal (status, code), how long it took, the slowest health check
 * while it was read, and the peak growth of the server's RSS (its VmHWM, reset before each bomb, and
 * the samples). Then all of them at once, and the download of the largest CSV filled copy the limits
 * allow (5,000 rows × 40 columns), three times, with the health checks again.
 *
 *   npx tsx bench/questionnaire-bombs.ts            # a table
 *   npx tsx bench/questionnaire-bombs.ts --json
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type FolioProcess, startFolioServe } from "../test/support/ops-folio-process.js";
import { questionnaireBombs, submitBomb } from "../test/support/questionnaire-bombs.js";

type Figures = {
  name: string;
  status: number;
  code: string | null;
  responseMs: number;
  healthChecks: number;
  healthMaxMs: number;
  peakRssGrowthMb: number;
};

const megabyte = 1024 * 1024;

async function statusField(pid: number, field: "VmRSS" | "VmHWM"): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  return Number(match?.[1] ?? 0) * 1024;
}

/** Asks /healthz back to back and samples RSS until `work` settles; the figures of that stretch. */
async function whileWatching<T>(served: FolioProcess, work: () => Promise<T>) {
  const pid = served.child.pid ?? 0;
  // "5" resets the peak resident set (VmHWM) to the current one (Linux 4.0+).
  await writeFile(`/proc/${pid}/clear_refs`, "5").catch(() => undefined);
  const baseline = await statusField(pid, "VmRSS");
  let peak = baseline;
  let healthMax = 0;
  let checks = 0;
  let running = true;
  const health = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${served.url}/healthz`).catch(() => null);
      if (response?.status !== 200) throw new Error(`health check answered ${response?.status ?? "nothing"}`);
      healthMax = Math.max(healthMax, performance.now() - started);
      checks += 1;
    }
  })();
  const sampler = setInterval(() => {
    void statusField(pid, "VmRSS").then((rss) => {
      peak = Math.max(peak, rss);
    });
  }, 20);
  const started = performance.now();
  try {
    const result = await work();
    const elapsed = performance.now() - started;
    peak = Math.max(peak, await statusField(pid, "VmHWM"));
    return { result, elapsed, healthMax, checks, growth: peak - baseline };
  } finally {
    running = false;
    clearInterval(sampler);
    await health;
  }
}

async function send(served: FolioProcess, bomb: ReturnType<typeof questionnaireBombs>[number]) {
  const response = await submitBomb(served.url, bomb);
  const body = (await response.json()) as { error?: { code: string } };
  return { status: response.status, code: body.error?.code ?? null };
}

/** 5,000 question rows × 40 columns (200,000 cells, the cell limit): the largest CSV a job may hold. */
function largestCsv(): Uint8Array {
  const header = ["Question", ...Array.from({ length: 39 }, (_, index) => `Note ${index + 1}`)].join(",");
  const rows = Array.from({ length: 4_999 }, (_, row) =>
    [`Is control ${row + 1} in place?`, ...Array.from({ length: 39 }, (_, column) => `n${row}-${column}`)].join(","),
  );
  return new TextEncoder().encode(`${header}\n${rows.join("\n")}\n`);
}

async function main() {
  const json = process.argv.includes("--json");
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "folio-bombs-bench-"));
  // "All at once" sends twelve files together: the receive cap (default 4) is lifted so each is read.
  const served = await startFolioServe({
    FOLIO_DATA_DIR: dataDir,
    FOLIO_EMBED_MODEL: "none",
    FOLIO_QUESTIONNAIRE_MAX_RECEIVING: "16",
  });
  const figures: Figures[] = [];
  try {
    const bombs = questionnaireBombs();
    for (const bomb of bombs) {
      const watched = await whileWatching(served, () => send(served, bomb));
      figures.push({
        name: `${bomb.name} (${(bomb.bytes.byteLength / 1024).toFixed(0)} KB, ${bomb.as})`,
        status: watched.result.status,
        code: watched.result.code,
        responseMs: Math.round(watched.elapsed),
        healthChecks: watched.checks,
        healthMaxMs: Math.round(watched.healthMax),
        peakRssGrowthMb: Math.round(watched.growth / megabyte),
      });
    }
    const together = await whileWatching(served, () => Promise.all(bombs.map((bomb) => send(served, bomb))));
    figures.push({
      name: `all ${bombs.length} at once`,
      status: Math.max(...together.result.map((result) => result.status)),
      code: together.result.every((result, index) => result.code === bombs[index]?.code) ? "each its own" : "MISMATCH",
      responseMs: Math.round(together.elapsed),
      healthChecks: together.checks,
      healthMaxMs: Math.round(together.healthMax),
      peakRssGrowthMb: Math.round(together.growth / megabyte),
    });
    // The largest CSV job the limits allow, cancelled at once, its (partly) filled copy downloaded 3 times.
    const submitted = await submitBomb(served.url, {
      as: "questionnaire",
      fileName: "largest.csv",
      bytes: largestCsv(),
    });
    const job = ((await submitted.json()) as { progress: { jobId: string } }).progress.jobId;
    await fetch(`${served.url}/api/questionnaires/cancel?id=${job}`, {
      method: "POST",
      headers: { "X-Folio-Console": "1" },
    });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const download = await whileWatching(served, async () => {
        const response = await fetch(`${served.url}/api/questionnaires/filled?id=${job}`, {
          headers: { "X-Folio-Console": "1" },
        });
        return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
      });
      figures.push({
        name: `download ${attempt}: filled copy of a 5,000 × 40 CSV (${(download.result.bytes / megabyte).toFixed(1)} MB)`,
        status: download.result.status,
        code: null,
        responseMs: Math.round(download.elapsed),
        healthChecks: download.checks,
        healthMaxMs: Math.round(download.healthMax),
        peakRssGrowthMb: Math.round(download.growth / megabyte),
      });
    }
  } finally {
    await served.kill();
    await rm(dataDir, { recursive: true, force: true });
  }
  if (json) {
    console.log(JSON.stringify({ figures }, null, 2));
    return;
  }
  console.log("| file | status | code | response ms | health checks | health max ms | peak RSS growth MB |");
  console.log("|---|---|---|---|---|---|---|");
  for (const row of figures) {
    console.log(
      `| ${row.name} | ${row.status} | ${row.code ?? ""} | ${row.responseMs} | ${row.healthChecks} | ${row.healthMaxMs} | ${row.peakRssGrowthMb} |`,
    );
  }
}

await main();
