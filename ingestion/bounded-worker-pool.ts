/**
 * Runs tasks of one kind in worker threads under the same three bounds as uploads (run-in-worker.ts):
 * a heap cap per worker, a wall-clock limit per task, and the memory watchdog (memory-watchdog.ts) on
 * the process's resident memory while the task runs. A worker that passes a bound is terminated — which
 * also stops a loop that never yields, something no signal to the process can — and the task is
 * rejected with the error `describeFailure` gives, so each caller words the refusal for its own files.
 * Healthy workers are kept for the next task and given back after a quiet minute.
 *
 * The worker's side is serve-bounded-tasks.ts. Upload parsing keeps its own pool (run-in-worker.ts),
 * whose replies are packed for the main thread; this one serves smaller results (a questionnaire's grid,
 * a filled copy's bytes).
 */
import type { Worker } from "node:worker_threads";
import { FolioError, ParseError } from "../src/errors.js";
import { startWorker } from "../src/workers/start-worker.js";
import type { MemoryWatchdog } from "./memory-watchdog.js";
import type { BoundedTaskMessage, BoundedTaskReply } from "./serve-bounded-tasks.js";

export type BoundedTaskLimits = {
  /** Wall-clock time the task may take once its worker has started it. */
  timeMs: number;
  /** How much the process's resident memory may grow while the task runs. */
  maxMemoryMb: number;
};

export type BoundedTaskFailure =
  | { kind: "timeout"; limitMs: number }
  | { kind: "memory"; growthBytes: number; limitMb: number }
  | { kind: "out_of_memory"; maxHeapMb: number }
  | { kind: "crashed"; reason: string | null; exitCode: number | null };

export type BoundedTaskOptions = {
  limits: BoundedTaskLimits;
  /** Buffers moved to the worker rather than copied. */
  transfer?: ArrayBuffer[];
  signal?: AbortSignal;
  /** The error a task that passed a bound (or whose worker died) is rejected with. */
  describeFailure: (failure: BoundedTaskFailure) => Error;
};

export type BoundedWorkerPool<Task, Result> = {
  run(task: Task, options: BoundedTaskOptions): Promise<Result>;
  /** Ends the idle workers (a finished CLI process must not be held open by them). */
  closeIdle(): Promise<void>;
  /** Tasks running or waiting now. */
  readonly pending: number;
};

export type BoundedWorkerPoolOptions = {
  /** import.meta.url of the module beside the worker entry, and the entry's name without extension. */
  callerUrl: string;
  entry: string;
  maxHeapMb: number;
  /** Workers running at once; more tasks wait their turn. */
  size: number;
  watchdog: MemoryWatchdog;
  /** An idle worker is given back after this long. */
  idleMs?: number;
};

type Queued<Task> = {
  task: Task;
  options: BoundedTaskOptions;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

type Pooled = { worker: Worker; idleTimer?: NodeJS.Timeout };

/** A FolioError (or ParseError) rebuilt from what the worker posted. */
function rebuildError(error: Extract<BoundedTaskReply, { ok: false }>["error"]): FolioError {
  return error.file === null
    ? new FolioError(error.code, error.message, { details: error.details, retryable: error.retryable })
    : new ParseError(error.code, error.message, { file: error.file, details: error.details });
}

export function createBoundedWorkerPool<Task, Result>(
  options: BoundedWorkerPoolOptions,
): BoundedWorkerPool<Task, Result> {
  const idle: Pooled[] = [];
  const queue: Array<Queued<Task>> = [];
  let running = 0;
  let nextId = 1;
  const idleMs = options.idleMs ?? 60_000;

  const acquire = (): Pooled => {
    const reused = idle.pop();
    if (reused) {
      clearTimeout(reused.idleTimer);
      return reused;
    }
    const worker = startWorker(options.callerUrl, options.entry, {
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb, maxYoungGenerationSizeMb: 64 },
      stderr: true,
    });
    return { worker };
  };

  const retire = (pooled: Pooled): Promise<number> => {
    const index = idle.indexOf(pooled);
    if (index >= 0) idle.splice(index, 1);
    clearTimeout(pooled.idleTimer);
    return pooled.worker.terminate();
  };

  const runQueued = (job: Queued<Task>): void => {
    const { limits } = job.options;
    const pooled = acquire();
    const { worker } = pooled;
    running += 1;
    worker.ref();
    worker.stderr?.resume();
    const id = nextId++;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;

    const fail = (failure: BoundedTaskFailure) => settle(false, () => job.reject(job.options.describeFailure(failure)));
    const memoryWatch = options.watchdog.watch(limits.maxMemoryMb * 1024 * 1024, (growthBytes) =>
      fail({ kind: "memory", growthBytes, limitMb: limits.maxMemoryMb }),
    );
    const onMessage = (message: BoundedTaskReply | { id: number; started: true }) => {
      if (message.id !== id) return;
      if ("started" in message) {
        // The worker's modules are loaded: the file's cost is measured, and timed, from here.
        memoryWatch.restart();
        clearTimeout(timer);
        timer = setTimeout(() => fail({ kind: "timeout", limitMs: limits.timeMs }), limits.timeMs);
        return;
      }
      settle(true, () => (message.ok ? job.resolve(message.result) : job.reject(rebuildError(message.error))));
    };
    const onError = (error: Error & { code?: string }) =>
      fail(
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? { kind: "out_of_memory", maxHeapMb: options.maxHeapMb }
          : { kind: "crashed", reason: error.message, exitCode: null },
      );
    const onExit = (exitCode: number) => fail({ kind: "crashed", reason: null, exitCode });
    const onAbort = () => settle(false, () => job.reject(new FolioError("aborted", "The request was cancelled.")));

    function settle(keepWorker: boolean, outcome: () => void) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      memoryWatch.stop();
      job.options.signal?.removeEventListener("abort", onAbort);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      running -= 1;
      if (keepWorker) {
        worker.unref();
        idle.push(pooled);
        pooled.idleTimer = setTimeout(() => void retire(pooled), idleMs).unref();
      } else {
        void worker.terminate();
      }
      outcome();
      const next = queue.shift();
      if (next) runQueued(next);
    }

    // A worker that never starts the task (its start-up stuck) is stopped too: the limit runs from now
    // and starts again once the worker says it has the task.
    timer = setTimeout(() => fail({ kind: "timeout", limitMs: limits.timeMs }), limits.timeMs);
    worker.on("message", onMessage);
    worker.once("error", onError);
    worker.once("exit", onExit);
    job.options.signal?.addEventListener("abort", onAbort, { once: true });
    const message: BoundedTaskMessage<Task> = { id, task: job.task };
    worker.postMessage(message, job.options.transfer ?? []);
  };

  return {
    run(task, taskOptions) {
      if (taskOptions.signal?.aborted) {
        return Promise.reject(new FolioError("aborted", "The request was cancelled."));
      }
      return new Promise<Result>((resolve, reject) => {
        const job: Queued<Task> = { task, options: taskOptions, resolve: resolve as (value: unknown) => void, reject };
        if (running < options.size) runQueued(job);
        else queue.push(job);
      });
    },
    async closeIdle() {
      await Promise.all([...idle].map(retire));
    },
    get pending() {
      return running + queue.length;
    },
  };
}
