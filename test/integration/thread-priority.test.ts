/**
 * Worker threads lowering their own priority (src/workers/thread-priority.ts), with real threads and the
 * real kernel: the worker's nice value changes and the main thread's does not; the parse worker runs at
 * batch priority.
 */
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { getPriority } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { resolveParseLimits } from "../../ingestion/limits.js";
import { closeParseWorkers, processFileInWorker } from "../../ingestion/run-in-worker.js";
import { startWorker } from "../../src/workers/start-worker.js";
import { BATCH_THREAD_NICENESS } from "../../src/workers/thread-priority.js";
import { robustnessChunking } from "../support/robustness-corpus.js";

/** Nice value of each of this process's threads, from /proc (field 19 of stat, counted after the name). */
function threadNiceValues(): Map<number, number> {
  const values = new Map<number, number>();
  for (const threadId of readdirSync("/proc/self/task")) {
    const stat = readFileSync(`/proc/self/task/${threadId}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    values.set(Number(threadId), Number(fields[16]));
  }
  return values;
}

afterAll(async () => {
  await closeParseWorkers();
});

async function priorityInWorker(niceness: number, startAt: number | null) {
  const worker = startWorker(import.meta.url, "../support/thread-priority-worker", {
    workerData: { niceness, startAt },
  });
  try {
    const [message] = await once(worker, "message");
    return message as { returned: number | null; seenByThread: number };
  } finally {
    await worker.terminate();
  }
}

describe.runIf(process.platform === "linux")("lowerThreadPriority on Linux", () => {
  it("lowers the calling worker thread's priority and leaves the main thread's as it was", async () => {
    const mainBefore = getPriority(0);
    expect(await priorityInWorker(mainBefore + 5, null)).toEqual({
      returned: mainBefore + 5,
      seenByThread: mainBefore + 5,
    });
    expect(getPriority(0)).toBe(mainBefore);
  });

  it("never raises a thread's priority: one already lower keeps its nice value", async () => {
    const mainBefore = getPriority(0);
    expect(await priorityInWorker(mainBefore + 5, mainBefore + 8)).toEqual({
      returned: mainBefore + 8,
      seenByThread: mainBefore + 8,
    });
  });

  it("runs the parse worker at batch priority, the main thread at its own", async () => {
    const mainBefore = getPriority(0);
    const { chunks } = await processFileInWorker({
      bytes: new TextEncoder().encode("Revenue rose 4% in 2023.\n\nOperating margin was 21%."),
      fileName: "notes.txt",
      limits: resolveParseLimits(),
      chunking: robustnessChunking,
    });
    expect(chunks.map((chunk) => chunk.text)).toEqual(["Revenue rose 4% in 2023.\n\nOperating margin was 21%."]);
    // The worker that parsed stays in the pool until closeParseWorkers, at batch priority.
    const niceValues = threadNiceValues();
    expect(niceValues.get(process.pid)).toBe(mainBefore);
    const atBatchPriority = [...niceValues].filter(
      ([threadId, nice]) => threadId !== process.pid && nice === Math.max(BATCH_THREAD_NICENESS, mainBefore),
    );
    expect(atBatchPriority.length).toBeGreaterThanOrEqual(1);
  });
});
