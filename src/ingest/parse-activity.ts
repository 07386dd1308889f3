/**
 * Whether an upload is being parsed right now, so background work that shares the CPU (embedding
 * passages of documents already searchable by keywords, meaning-indexer.ts) can step aside between
 * batches: on two cores a parse running beside the embedder took twice as long, and the next upload's
 * "searchable in seconds" depends on its parse alone.
 */
export type ParseActivity = {
  /** Marks a parse as started; call the returned function when it ends (in a finally). */
  begin(): () => void;
  /** Resolves at once when nothing is being parsed, else when the last parse running ends. */
  whenIdle(): Promise<void>;
  readonly active: number;
};

export function createParseActivity(): ParseActivity {
  let active = 0;
  let waiters: Array<() => void> = [];
  return {
    begin() {
      active += 1;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        active -= 1;
        if (active > 0) return;
        const idle = waiters;
        waiters = [];
        for (const resolve of idle) resolve();
      };
    },
    whenIdle() {
      if (active === 0) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    get active() {
      return active;
    },
  };
}
