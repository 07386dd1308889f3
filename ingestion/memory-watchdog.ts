/**
 * Watches the process's resident memory while files parse. A worker's `resourceLimits` cap only its V8
 * heap; the buffers a parser inflates into (pdf.js's streams, typed arrays) live outside it, so a bomb
 * that slips past the format checks can grow the process by gigabytes without the cap noticing. The
 * watchdog samples RSS (the one figure that counts everything) and reports each watched parse whose
 * growth since it started passes its budget, so its worker can be terminated.
 *
 * RSS is per process, not per thread: with two files parsing at once, growth is charged to every parse
 * running while it happened, so the parse that started first is stopped first. That may stop an innocent
 * neighbour along with a bomb, never leave a bomb running.
 */

export type MemoryWatch = {
  /** Measures growth from now on (a fresh worker has loaded its modules; that is not the file's cost). */
  restart: () => void;
  stop: () => void;
};

export type MemoryWatchdog = {
  /** Starts watching one parse; `onExceeded` runs once, with the growth in bytes, if it passes `budgetBytes`. */
  watch(budgetBytes: number, onExceeded: (growthBytes: number) => void): MemoryWatch;
  /** Takes one sample and reports parses over budget (the timer calls it; tests call it directly). */
  check(): void;
};

type Watched = { baselineBytes: number; budgetBytes: number; onExceeded: (growthBytes: number) => void };

export type MemoryWatchdogOptions = {
  /** Current resident set size in bytes. */
  residentBytes?: () => number;
  /** How often to sample while something is watched; 0 = never on its own (tests drive `check`). */
  intervalMs?: number;
};

export function createMemoryWatchdog(options: MemoryWatchdogOptions = {}): MemoryWatchdog {
  const residentBytes = options.residentBytes ?? (() => process.memoryUsage.rss());
  const intervalMs = options.intervalMs ?? 50;
  const watched = new Set<Watched>();
  let timer: NodeJS.Timeout | undefined;

  function check(): void {
    const now = residentBytes();
    for (const entry of [...watched]) {
      const growth = now - entry.baselineBytes;
      if (growth > entry.budgetBytes) {
        watched.delete(entry);
        entry.onExceeded(growth);
      }
    }
    if (watched.size === 0) stopTimer();
  }

  function stopTimer(): void {
    if (timer) clearInterval(timer);
    timer = undefined;
  }

  return {
    watch(budgetBytes, onExceeded) {
      const entry: Watched = { baselineBytes: residentBytes(), budgetBytes, onExceeded };
      watched.add(entry);
      if (!timer && intervalMs > 0) timer = setInterval(check, intervalMs).unref();
      return {
        restart() {
          entry.baselineBytes = residentBytes();
        },
        stop() {
          watched.delete(entry);
          if (watched.size === 0) stopTimer();
        },
      };
    },
    check,
  };
}
