/**
 * What bench/questionnaire-bombs.ts measures around each stretch of work against a running `folio serve`:
 * /healthz asked back to back (the slowest answer), the server's resident memory sampled from /proc every
 * 20 ms and its peak (VmHWM, reset first), and whether the process is still running afterwards.
 */
import { readFile, writeFile } from "node:fs/promises";
import type { FolioProcess } from "../test/support/ops-folio-process.js";

export const megabyte = 1024 * 1024;

export type Figures = {
  name: string;
  status: number;
  code: string | null;
  responseMs: number;
  healthChecks: number;
  /** Health checks not answered 200 (the server gone, or refusing). */
  healthFailures: number;
  healthMaxMs: number;
  peakRssGrowthMb: number;
  /** The server still running after the stretch. */
  alive: boolean;
};

async function statusField(pid: number, field: "VmRSS" | "VmHWM"): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  return Number(match?.[1] ?? 0) * 1024;
}

/** Asks /healthz back to back and samples RSS until `work` settles; the figures of that stretch. */
export async function whileWatching<T>(served: FolioProcess, work: () => Promise<T>) {
  const pid = served.child.pid ?? 0;
  // "5" resets the peak resident set (VmHWM) to the current one (Linux 4.0+).
  await writeFile(`/proc/${pid}/clear_refs`, "5").catch(() => undefined);
  const baseline = await statusField(pid, "VmRSS");
  let peak = baseline;
  let healthMax = 0;
  let checks = 0;
  let failedChecks = 0;
  let running = true;
  const health = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${served.url}/healthz`).catch(() => null);
      if (response?.status !== 200) {
        failedChecks += 1;
        if (served.child.exitCode !== null || served.child.signalCode !== null) return;
        continue;
      }
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
    running = false;
    await health;
    const alive = served.child.exitCode === null && served.child.signalCode === null;
    return {
      result,
      figures: {
        responseMs: Math.round(elapsed),
        healthChecks: checks,
        healthFailures: failedChecks,
        healthMaxMs: Math.round(healthMax),
        peakRssGrowthMb: Math.round((peak - baseline) / megabyte),
        alive,
      },
    };
  } finally {
    running = false;
    clearInterval(sampler);
    await health;
  }
}

export function printFigures(figures: Figures[]): void {
  console.log(
    "| file | status | code | response ms | health checks | failed | health max ms | peak RSS growth MB | alive |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const row of figures) {
    console.log(
      `| ${row.name} | ${row.status} | ${row.code ?? ""} | ${row.responseMs} | ${row.healthChecks} | ${row.healthFailures} | ${row.healthMaxMs} | ${row.peakRssGrowthMb} | ${row.alive ? "yes" : "NO"} |`,
    );
  }
}
