/**
 * The worker thread's side of bounded-worker-pool.ts: takes one task at a time, says when it starts
 * (the pool times and measures the task from then), and posts the result, or the FolioError's code,
 * message, file and details (anything else becomes `fallbackCode` with a generic message, its own
 * message kept as `details.reason`).
 */
import { parentPort } from "node:worker_threads";
import { isFolioError } from "../src/errors.js";

export type BoundedTaskMessage<Task> = { id: number; task: Task };

export type BoundedTaskReply =
  | { id: number; ok: true; result: unknown }
  | {
      id: number;
      ok: false;
      error: {
        code: string;
        message: string;
        /** Set for a ParseError (the file it refuses). */
        file: string | null;
        retryable: boolean;
        details: Record<string, unknown>;
      };
    };

/** A task's result, and the buffers to move (not copy) back with it. */
export type TaskOutcome = { result: unknown; transfer?: ArrayBuffer[] };

export function serveBoundedTasks<Task>(
  handle: (task: Task) => Promise<TaskOutcome>,
  fallback: { code: string; message: string },
): void {
  parentPort?.on("message", async (message: BoundedTaskMessage<Task>) => {
    parentPort?.postMessage({ id: message.id, started: true });
    try {
      const outcome = await handle(message.task);
      const reply: BoundedTaskReply = { id: message.id, ok: true, result: outcome.result };
      parentPort?.postMessage(reply, outcome.transfer ?? []);
    } catch (error) {
      const file = (error as { file?: unknown }).file;
      const reply: BoundedTaskReply = isFolioError(error)
        ? {
            id: message.id,
            ok: false,
            error: {
              code: error.code,
              message: error.message,
              file: typeof file === "string" ? file : null,
              retryable: error.retryable,
              // Details are plain data by contract (safe to log), so they clone.
              details: JSON.parse(JSON.stringify(error.details)) as Record<string, unknown>,
            },
          }
        : {
            id: message.id,
            ok: false,
            error: {
              code: fallback.code,
              message: fallback.message,
              file: null,
              retryable: false,
              details: { reason: error instanceof Error ? error.message : String(error) },
            },
          };
      parentPort?.postMessage(reply);
    }
  });
}
