/**
 * Keeps questionnaires behind people: every interactive question (chat, console, `folio ask`) is
 * counted while it is answered, and a questionnaire starts its next row only when none is, or after
 * `maxWaitMs` so that a steady stream of questions slows a questionnaire down without stopping it.
 * A row started in a quiet moment also gives way when a person's question begins (`nextInteractive`
 * aborts): its queued model work is dropped from the inference worker's queue and the row is asked
 * again after (answer-questionnaire-rows.ts) — with two rows of one job in flight, finishing them
 * first put a person's question at 2.4× its idle latency (bench/questionnaire-queue-latency.ts).
 */

/** How a row got its turn: nobody was asking ("quiet"), or it waited `maxWaitMs` ("forced"). */
export type Turn = "quiet" | "forced";

export type InteractivePriority = {
  /** Marks one interactive question as started; call the returned function when it ends. */
  begin(): () => void;
  readonly inFlight: number;
  /** Resolves when no interactive question is being answered, or after `maxWaitMs`, or when `signal` fires. */
  waitForTurn(signal?: AbortSignal): Promise<Turn>;
  /** Aborts when the next interactive question begins. */
  nextInteractive(): AbortSignal;
};

export function createInteractivePriority(options: { maxWaitMs: number }): InteractivePriority {
  let inFlight = 0;
  let waiters: Array<() => void> = [];
  let nextQuestion = new AbortController();
  const wakeAll = () => {
    const current = waiters;
    waiters = [];
    for (const wake of current) wake();
  };
  return {
    begin() {
      inFlight += 1;
      const begun = nextQuestion;
      nextQuestion = new AbortController();
      begun.abort("interactive");
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
      if (inFlight === 0 || signal?.aborted) return Promise.resolve("quiet");
      return new Promise((resolve) => {
        const finish = (turn: Turn) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          waiters = waiters.filter((waiter) => waiter !== onQuiet);
          resolve(turn);
        };
        const onQuiet = () => finish("quiet");
        const onAbort = () => finish("quiet");
        const timer = setTimeout(() => finish("forced"), options.maxWaitMs);
        signal?.addEventListener("abort", onAbort, { once: true });
        waiters.push(onQuiet);
      });
    },
    nextInteractive() {
      return nextQuestion.signal;
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
