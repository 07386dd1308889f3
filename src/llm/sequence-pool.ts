/**
 * Lends a fixed set of items (a model context's sequences) one request at a time. Requests beyond the
 * free items wait in a bounded first-in-first-out line and hear their place in it; past the line's
 * bound they are refused at once with `llm_busy`, so nobody waits unseen or is dropped silently.
 */
import { FolioError } from "../errors.js";
import { LLM_ERROR_CODES } from "./language-model.js";

export type AcquireOptions = {
  /** Aborting while in line leaves the line with `llm_aborted`. */
  signal?: AbortSignal;
  /** 1-based place in line, called on joining and each time the request moves up. */
  onQueued?: (position: number) => void;
};

export interface SequencePool<T> {
  acquire(options?: AcquireOptions): Promise<T>;
  /** Hands the item to the first in line, or back to the free items. */
  release(item: T): void;
  /** Sends everyone in line away with this error (the model is closing). */
  rejectWaiting(error: FolioError): void;
  readonly size: number;
  readonly waiting: number;
  readonly free: number;
}

type Waiter<T> = {
  resolve(item: T): void;
  reject(error: FolioError): void;
  onQueued: ((position: number) => void) | undefined;
};

export function createSequencePool<T>(items: readonly T[], options: { queueLimit: number }): SequencePool<T> {
  if (items.length === 0) throw new RangeError("a sequence pool needs at least one item");
  if (!Number.isInteger(options.queueLimit) || options.queueLimit < 0) {
    throw new RangeError(`queueLimit must be a whole number >= 0, got ${options.queueLimit}`);
  }
  const free = [...items];
  const line: Waiter<T>[] = [];

  const announcePositions = () => {
    for (const [index, waiter] of line.entries()) waiter.onQueued?.(index + 1);
  };

  return {
    get size() {
      return items.length;
    },
    get waiting() {
      return line.length;
    },
    get free() {
      return free.length;
    },
    acquire(acquireOptions = {}) {
      const { signal, onQueued } = acquireOptions;
      if (signal?.aborted) return Promise.reject(abortedInLine());
      const item = free.shift();
      if (item !== undefined) return Promise.resolve(item);
      if (line.length >= options.queueLimit) {
        return Promise.reject(
          new FolioError(
            LLM_ERROR_CODES.busy,
            `The model is busy: ${items.length} answer(s) in progress and ${line.length} question(s) already in line. Please ask again in a minute.`,
            { retryable: true, details: { running: items.length, waiting: line.length } },
          ),
        );
      }
      return new Promise<T>((resolve, reject) => {
        const onAbort = () => {
          const index = line.indexOf(waiter);
          if (index < 0) return;
          line.splice(index, 1);
          reject(abortedInLine());
          // Those behind the leaver move up; tell them.
          for (const [position, behind] of line.entries()) if (position >= index) behind.onQueued?.(position + 1);
        };
        const waiter: Waiter<T> = {
          resolve(granted) {
            signal?.removeEventListener("abort", onAbort);
            resolve(granted);
          },
          reject(error) {
            signal?.removeEventListener("abort", onAbort);
            reject(error);
          },
          onQueued,
        };
        line.push(waiter);
        signal?.addEventListener("abort", onAbort, { once: true });
        onQueued?.(line.length);
      });
    },
    release(item) {
      const next = line.shift();
      if (!next) {
        free.push(item);
        return;
      }
      next.resolve(item);
      announcePositions();
    },
    rejectWaiting(error) {
      for (const waiter of line.splice(0)) waiter.reject(error);
    },
  };
}

function abortedInLine(): FolioError {
  return new FolioError(LLM_ERROR_CODES.aborted, "The question was cancelled while waiting for the model.");
}
