/**
 * Keeps questionnaires behind people: every interactive question (chat, console, `folio ask`) is
 * counted while it is answered, and a questionnaire starts its next row only when none is, or after
 * `maxWaitMs` so that a steady stream of questions slows a questionnaire down without stopping it.
 * Rows already being answered finish; the inference worker also puts question embeddings ahead of
 * queued ingestion batches, so a questionnaire never holds a colleague's question behind a long queue.
 */

export type InteractivePriority = {
  /** Marks one interactive question as started; call the returned function when it ends. */
  begin(): () => void;
  readonly inFlight: number;
  /** Resolves when no interactive question is being answered, or after `maxWaitMs`, or when `signal` fires. */
  waitForTurn(signal?: AbortSignal): Promise<void>;
};

export function createInteractivePriority(options: { maxWaitMs: number }): InteractivePriority {
  let inFlight = 0;
  let waiters: Array<() => void> = [];
  const wakeAll = () => {
    const current = waiters;
    waiters = [];
    for (const wake of current) wake();
  };
  return {
    begin() {
      inFlight += 1;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        inFlight -= 1;
        if (inFlight === 0) wakeAll();
      };
    },
    get inFlight() {
      return inFlight;
    },
    waitForTurn(signal) {
      if (inFlight === 0 || signal?.aborted) return Promise.resolve();
      return new Promise((resolve) => {
        const finish = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", finish);
          waiters = waiters.filter((waiter) => waiter !== finish);
          resolve();
        };
        const timer = setTimeout(finish, options.maxWaitMs);
        signal?.addEventListener("abort", finish, { once: true });
        waiters.push(finish);
      });
    },
  };
}

/** Wraps an answer stream so the question counts as interactive from its first pull to its end. */
export async function* countAsInteractive<T>(
  priority: InteractivePriority,
  stream: AsyncIterable<T>,
): AsyncIterable<T> {
  const end = priority.begin();
  try {
    yield* stream;
  } finally {
    end();
  }
}
