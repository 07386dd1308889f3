/**
 * Worker-thread entry point: parses, chunks and counts the terms of the files it is sent, one at a time
 * (parse-job.ts), posting each result (packed: parse-protocol.ts) or the ParseError's code and message back.
 * Runs inside a thread with a heap cap, so a hostile file can only kill this thread, never the bot. See
 * run-in-worker.ts. It keeps the main thread's priority: at nice 5, with four other busy processes on two
 * cores, a 500-page filing's upload failed (a parse of 12 s of CPU on a sixth of a core, against a 60 s
 * wall-clock limit), where at equal priority it took 34 s (docs/benchmarks.md, "Event-loop delay").
 */
import { getHeapStatistics } from "node:v8";
import { parentPort } from "node:worker_threads";
import { type ParseJob, packParseOutcome } from "./parse-protocol.js";

// pdf.js inflates streams with the web DecompressionStream when there is one, which runs on Node's native
// zlib; a worker terminated while such a stream is being set up (a parse over its time limit) aborts the
// whole process in Node 20 ("CompressionStream::Close … close before init"), taking the bot down with the
// file. Without it pdf.js inflates in JavaScript: same text, no slower on the SEC filings measured.
delete (globalThis as { DecompressionStream?: unknown }).DecompressionStream;

const { runParseJob } = await import("./parse-job.js");

/**
 * Samples this thread's used heap while a job runs (between the parser's awaits) and reports the
 * highest figure in MB: V8 keeps no peak of its own, and the process's RSS mixes all threads.
 */
function watchHeap(): () => number {
  const usedBytes = () => getHeapStatistics().used_heap_size;
  let peak = usedBytes();
  const sampler = setInterval(() => {
    peak = Math.max(peak, usedBytes());
  }, 20);
  return () => {
    clearInterval(sampler);
    return Math.round(Math.max(peak, usedBytes()) / (1024 * 1024));
  };
}

parentPort?.on("message", async (message: { id: number; job: ParseJob }) => {
  // The worker's modules are loaded by now: the parent's memory watchdog measures the file from here.
  parentPort?.postMessage({ id: message.id, started: true });
  const stopWatching = watchHeap();
  const { reply, transfer } = packParseOutcome(await runParseJob(message.job));
  parentPort?.postMessage({ id: message.id, reply, peakHeapMb: stopWatching() }, transfer);
});
