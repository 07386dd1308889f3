/**
 * Runs parsing, chunking and term counting off the main thread, in worker threads with a heap cap and a
 * wall-clock limit per file, so a zip bomb, a pathological PDF or a parser bug costs one thread and yields a
 * clear ParseError instead of stalling or crashing the bot. Workers are reused across files (starting one and
 * loading the tokenizer costs about a second); a worker that times out, runs out of memory or crashes
 * is thrown away and the next file gets a fresh one. A memory watchdog (memory-watchdog.ts) stops a file
 * whose parse grows the process past `maxMemoryMb`, which the heap cap alone cannot (it does not count
 * buffers outside the V8 heap).
 */

import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { FolioError, ParseError } from "../src/errors.js";
import { startWorker } from "../src/workers/start-worker.js";
import type { ParseLimits } from "./limits.js";
import { createMemoryWatchdog, type MemoryWatchdog } from "./memory-watchdog.js";
import { type ChunkingSettings, type Parsed, type ParseJob, type ParseReply, unpackParsed } from "./parse-protocol.js";

export type ProcessFileRequest = {
  bytes: Uint8Array;
  fileName: string;
  limits: ParseLimits;
  chunking: ChunkingSettings;
  signal?: AbortSignal;
};

/** `peakHeapMb`: the worker's highest sampled heap use while on this file (also in a ParseError's details). */
type Processed = Parsed & { peakHeapMb: number };

type QueuedJob = {
  request: ProcessFileRequest;
  resolve: (value: Processed) => void;
  reject: (error: unknown) => void;
};

type PooledWorker = { worker: Worker; busy: boolean; idleTimer?: NodeJS.Timeout };

const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism()));
/** An idle worker holds a parser and the tokenizer in memory (~100 MB); a quiet server gives it back. */
const IDLE_WORKER_MS = 60_000;

function startParseWorker(maxHeapMb: number): Worker {
  return startWorker(import.meta.url, "./parse-worker", {
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 64 },
    stderr: true,
  });
}

function formatSeconds(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  return seconds === 1 ? "1 second" : `${seconds < 10 ? Number(seconds.toFixed(1)) : Math.round(seconds)} seconds`;
}

function tooLarge(request: ProcessFileRequest): ParseError {
  const megabytes = (request.bytes.byteLength / (1024 * 1024)).toFixed(1);
  return new ParseError(
    "file_too_large",
    `This file is ${megabytes} MB, more than the ${Math.round(request.limits.maxBytes / (1024 * 1024))} MB limit — split it or upload a smaller copy.`,
    { file: request.fileName },
  );
}

function fromReply(reply: Extract<ParseReply, { ok: false }>, fileName: string, peakHeapMb: number): FolioError {
  const details = reply.error.reason ? { reason: reply.error.reason, peakHeapMb } : { peakHeapMb };
  return reply.error.parse
    ? new ParseError(reply.error.code, reply.error.message, {
        file: fileName,
        page: reply.error.page ?? undefined,
        details,
      })
    : new FolioError(reply.error.code, reply.error.message, { details });
}

function memoryExceeded(request: ProcessFileRequest, growthBytes: number): ParseError {
  return new ParseError(
    "parse_memory_exceeded",
    `Reading this file made Folio use more than ${request.limits.maxMemoryMb} MB of extra memory, so it stopped — it may be a decompression bomb or far too large; upload a smaller file or a re-saved copy.`,
    { file: request.fileName, details: { growthMb: Math.round(growthBytes / (1024 * 1024)) } },
  );
}

function workerFailure(
  error: (Error & { code?: string }) | null,
  exitCode: number | null,
  request: ProcessFileRequest,
): ParseError {
  if (error?.code === "ERR_WORKER_OUT_OF_MEMORY") {
    return new ParseError(
      "parse_out_of_memory",
      `Reading this file needed more than ${request.limits.maxHeapMb} MB of memory, so Folio stopped — it may be a decompression bomb or far too large; upload a smaller file.`,
      { file: request.fileName },
    );
  }
  return new ParseError(
    "parse_crashed",
    "The file reader crashed on this file — save it again in its original program and re-upload.",
    {
      file: request.fileName,
      cause: error ?? undefined,
      details: error ? { reason: error.message } : { exitCode },
    },
  );
}

/** A small pool of parse workers with the same heap cap. */
function createParsePool(maxHeapMb: number, watchdog: MemoryWatchdog) {
  const idle: PooledWorker[] = [];
  const queue: QueuedJob[] = [];
  let running = 0;
  let nextId = 1;

  function acquire(): PooledWorker {
    const reused = idle.pop();
    if (reused) {
      clearTimeout(reused.idleTimer);
      return reused;
    }
    return { worker: startParseWorker(maxHeapMb), busy: false };
  }

  function retire(pooled: PooledWorker): Promise<number> {
    const index = idle.indexOf(pooled);
    if (index >= 0) idle.splice(index, 1);
    clearTimeout(pooled.idleTimer);
    return pooled.worker.terminate();
  }

  function runJob(job: QueuedJob): void {
    const { request } = job;
    const pooled = acquire();
    const { worker } = pooled;
    pooled.busy = true;
    running += 1;
    worker.ref();
    worker.stderr?.resume();
    const id = nextId++;
    let settled = false;

    const cleanUp = (keepWorker: boolean) => {
      clearTimeout(timer);
      memoryWatch.stop();
      request.signal?.removeEventListener("abort", onAbort);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      running -= 1;
      pooled.busy = false;
      if (keepWorker) {
        worker.unref();
        idle.push(pooled);
        pooled.idleTimer = setTimeout(() => void retire(pooled), IDLE_WORKER_MS).unref();
      } else {
        void worker.terminate();
      }
      const next = queue.shift();
      if (next) runJob(next);
    };
    const settle = (keepWorker: boolean, outcome: () => void) => {
      if (settled) return;
      settled = true;
      cleanUp(keepWorker);
      outcome();
    };
    const onMessage = (
      message: { id: number; started: true } | { id: number; reply: ParseReply; peakHeapMb: number },
    ) => {
      if (message.id !== id) return;
      if ("started" in message) {
        memoryWatch.restart();
        return;
      }
      const { reply, peakHeapMb } = message;
      settle(true, () =>
        reply.ok
          ? unpackParsed(reply).then((parsed) => job.resolve({ ...parsed, peakHeapMb }), job.reject)
          : job.reject(fromReply(reply, request.fileName, peakHeapMb)),
      );
    };
    const onError = (error: Error & { code?: string }) =>
      settle(false, () => job.reject(workerFailure(error, null, request)));
    const onExit = (exitCode: number) => settle(false, () => job.reject(workerFailure(null, exitCode, request)));
    const onAbort = () => settle(false, () => job.reject(new FolioError("aborted", "The upload was cancelled.")));
    const timer = setTimeout(() => {
      settle(false, () =>
        job.reject(
          new ParseError(
            "parse_timeout",
            `Reading this file took longer than ${formatSeconds(request.limits.timeMs)}, so Folio stopped — it may be damaged or unusually complex; try re-saving it or splitting it.`,
            { file: request.fileName },
          ),
        ),
      );
    }, request.limits.timeMs);
    const memoryWatch = watchdog.watch(request.limits.maxMemoryMb * 1024 * 1024, (growthBytes) =>
      settle(false, () => job.reject(memoryExceeded(request, growthBytes))),
    );

    worker.on("message", onMessage);
    worker.once("error", onError);
    worker.once("exit", onExit);
    request.signal?.addEventListener("abort", onAbort, { once: true });
    const parseJob: ParseJob = {
      bytes: request.bytes,
      fileName: request.fileName,
      limits: request.limits,
      chunking: request.chunking,
    };
    worker.postMessage({ id, job: parseJob });
  }

  return {
    process(request: ProcessFileRequest): Promise<Processed> {
      return new Promise((resolve, reject) => {
        const job = { request, resolve, reject };
        if (running < POOL_SIZE) runJob(job);
        else queue.push(job);
      });
    },
    /** Ends the idle workers; their stdio ports would otherwise keep a finished CLI process alive. */
    async closeIdle(): Promise<void> {
      await Promise.all([...idle].map(retire));
    },
  };
}

const pools = new Map<number, ReturnType<typeof createParsePool>>();
const memoryWatchdog = createMemoryWatchdog();

export function processFileInWorker(request: ProcessFileRequest): Promise<Processed> {
  if (request.bytes.byteLength > request.limits.maxBytes) return Promise.reject(tooLarge(request));
  if (request.signal?.aborted) return Promise.reject(new FolioError("aborted", "The upload was cancelled."));
  let pool = pools.get(request.limits.maxHeapMb);
  if (!pool) {
    pool = createParsePool(request.limits.maxHeapMb, memoryWatchdog);
    pools.set(request.limits.maxHeapMb, pool);
  }
  return pool.process(request);
}

/** Stops idle parse workers (busy ones finish their file first and are then kept until the next call). */
export async function closeParseWorkers(): Promise<void> {
  await Promise.all([...pools.values()].map((pool) => pool.closeIdle()));
}
