/**
 * Worker for test/integration/thread-priority.test.ts: optionally starts at `startAt` (as a thread an
 * operator already reniced would), lowers its priority to `niceness`, and posts what it sees.
 */
import { getPriority, setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { lowerThreadPriority } from "../../src/workers/thread-priority.js";

const { niceness, startAt } = workerData as { niceness: number; startAt: number | null };
if (startAt !== null) setPriority(0, startAt);
const returned = lowerThreadPriority(niceness);
parentPort?.postMessage({ returned, seenByThread: getPriority(0) });
