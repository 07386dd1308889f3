/**
 * The main thread's side of the inference worker: one worker thread runs every ONNX model (embedder
 * and cross-encoder), so the two never fight over the cores, and the event loop only passes messages.
 * Work waits in a priority queue and the worker gets one request at a time, so a question
 * ("interactive") runs before the next queued ingestion batch ("background") — it waits for at most
 * the batch in progress. A crashed worker fails its request and a fresh one starts for the next.
 */
import type { Worker } from "node:worker_threads";
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import { startWorker } from "../workers/start-worker.js";
import type { InferenceReply, InferenceRequest } from "./inference-protocol.js";

export type InferencePriority = "interactive" | "background";

/** A request without its id: the client numbers requests itself. */
export type InferenceTask = InferenceRequest extends infer Request
  ? Request extends InferenceRequest
    ? Omit<Request, "id">
    : never
  : never;

type SuccessfulReply = Extract<InferenceReply, { ok: true }>;

type QueuedRequest = {
  task: InferenceTask;
  priority: InferencePriority;
  sequence: number;
  signal?: AbortSignal;
  resolve: (reply: SuccessfulReply) => void;
  reject: (error: Error) => void;
};

export type InferenceClient = {
  run(task: InferenceTask, options: { priority: InferencePriority; signal?: AbortSignal }): Promise<SuccessfulReply>;
  /** Requests waiting (not counting the one running). */
  readonly queued: number;
  close(): Promise<void>;
};

/** How long close() lets a running batch finish before terminating the worker under it. */
const CLOSE_WAIT_FOR_RUNNING_MS = 15_000;

export function createInferenceClient(options: { threads: number; logger: Logger }): InferenceClient {
  const waiting: QueuedRequest[] = [];
  let worker: Worker | null = null;
  let running: (QueuedRequest & { id: number }) | null = null;
  let nextId = 1;
  let nextSequence = 0;
  let closed = false;

  function ensureWorker(): Worker {
    if (worker) return worker;
    const started = startWorker(import.meta.url, "./inference-worker", {
      workerData: { threads: options.threads },
      stderr: true,
    });
    started.stderr?.on("data", (data: Buffer) => {
      const line = data.toString().trim();
      if (line) options.logger.debug({ worker: "inference" }, line);
    });
    started.on("message", (reply: InferenceReply) => settle(reply));
    started.on("error", (error) => fail(started, error));
    started.on("exit", (code) => {
      // terminate() (close, or replacing a failed worker) also exits with 1; only an unasked exit fails.
      if (code !== 0 && worker === started) fail(started, new Error(`the inference worker exited with code ${code}`));
      if (worker === started) worker = null;
    });
    started.unref();
    worker = started;
    return started;
  }

  function fail(failedWorker: Worker, error: Error): void {
    if (worker === failedWorker) worker = null;
    const request = running;
    running = null;
    options.logger.error({ err: error }, "inference worker failed; a fresh one starts for the next request");
    request?.reject(
      new FolioError("inference_failed", `The model worker stopped unexpectedly (${error.message}); try again.`, {
        retryable: true,
        cause: error,
      }),
    );
    void failedWorker.terminate();
    pump();
  }

  function settle(reply: InferenceReply): void {
    const request = running;
    if (!request || request.id !== reply.id) return;
    running = null;
    if (reply.ok) request.resolve(reply);
    else request.reject(new FolioError(reply.error.code, reply.error.message));
    pump();
  }

  function takeNext(): QueuedRequest | undefined {
    let best = -1;
    for (let index = 0; index < waiting.length; index += 1) {
      const candidate = waiting[index];
      const current = best >= 0 ? waiting[best] : undefined;
      if (!candidate) continue;
      if (
        !current ||
        (candidate.priority === "interactive" && current.priority === "background") ||
        (candidate.priority === current.priority && candidate.sequence < current.sequence)
      ) {
        best = index;
      }
    }
    return best >= 0 ? waiting.splice(best, 1)[0] : undefined;
  }

  function pump(): void {
    if (running || closed) return;
    for (;;) {
      const next = takeNext();
      if (!next) return;
      if (next.signal?.aborted) {
        next.reject(abortError(next.signal));
        continue;
      }
      const id = nextId++;
      running = { ...next, id };
      ensureWorker().postMessage({ ...next.task, id } as InferenceRequest);
      return;
    }
  }

  return {
    run(task, runOptions) {
      if (closed) return Promise.reject(new FolioError("inference_closed", "The model worker is shut down."));
      if (runOptions.signal?.aborted) return Promise.reject(abortError(runOptions.signal));
      return new Promise<SuccessfulReply>((resolve, reject) => {
        waiting.push({
          task,
          priority: runOptions.priority,
          sequence: nextSequence++,
          signal: runOptions.signal,
          resolve,
          reject,
        });
        pump();
      });
    },
    get queued() {
      return waiting.length;
    },
    async close() {
      closed = true;
      for (const request of waiting.splice(0)) {
        request.reject(new FolioError("inference_closed", "The model worker is shut down."));
      }
      // Terminating the worker inside a native ONNX Runtime call aborts the whole process (SIGABRT), as a
      // shutdown that cuts an upload off would: let the batch in progress finish first, for a bounded time.
      const deadline = Date.now() + CLOSE_WAIT_FOR_RUNNING_MS;
      while (running && worker && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      running?.reject(new FolioError("inference_closed", "The model worker is shut down."));
      running = null;
      const current = worker;
      worker = null;
      await current?.terminate();
    },
  };
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new FolioError("aborted", "The request was cancelled.");
}
