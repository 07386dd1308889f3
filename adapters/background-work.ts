/**
 * Work a chat adapter starts after it has answered the platform (Bolt's ack, the Bot Framework's HTTP
 * reply): each piece is remembered until it settles, so the adapter's stop() can wait for it, and a
 * failure is reported in one place instead of being lost or thrown into the SDK.
 */
export type BackgroundWork = {
  /** Runs the work; resolves when it has settled, never rejects (a failure goes to `onFailure`). */
  run(work: () => Promise<unknown>): Promise<void>;
  /** Waits for the work running now; `untilIdle` also waits for work started meanwhile. */
  settle(options?: { untilIdle?: boolean }): Promise<void>;
};

export function createBackgroundWork(onFailure: (error: unknown) => void): BackgroundWork {
  const running = new Set<Promise<unknown>>();
  return {
    async run(work) {
      const settled = work().catch(onFailure);
      running.add(settled);
      try {
        await settled;
      } finally {
        running.delete(settled);
      }
    },
    async settle(options = {}) {
      do {
        await Promise.allSettled([...running]);
      } while (options.untilIdle && running.size > 0);
    },
  };
}
