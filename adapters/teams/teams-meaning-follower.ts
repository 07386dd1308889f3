/**
 * Keeps an upload's reply in a Teams chat current while its passages are embedded after it: the reply
 * is edited with "embedding 120/310 passages for search by meaning…" at most once per interval, and
 * with the outcome (searchable by meaning, or not) at once, after which following ends. Updates that
 * arrive faster than the chat is edited are coalesced to the latest. The adapter's stop() lets go (the
 * reply keeps its last text).
 */
import type { MeaningUpdate } from "../../src/ingest/ingest-result.js";

export type MeaningFollower = {
  /** Where the upload reports its embedding (IngestInput.onMeaning). */
  onMeaning(update: MeaningUpdate): void;
  /** Edits the reply until the outcome is known or `stop` is aborted. */
  follow(options: { edit(update: MeaningUpdate): Promise<void>; intervalMs: number; stop: AbortSignal }): Promise<void>;
};

export function createMeaningFollower(): MeaningFollower {
  let latest: MeaningUpdate | null = null;
  let wake: (() => void) | null = null;

  /** The latest update not yet taken; waits for one, or null once `stop` is aborted. */
  async function next(stop: AbortSignal): Promise<MeaningUpdate | null> {
    while (latest === null) {
      if (stop.aborted) return null;
      let stopped: () => void = () => {};
      await new Promise<void>((resolve) => {
        wake = resolve;
        stopped = () => resolve();
        stop.addEventListener("abort", stopped, { once: true });
      });
      stop.removeEventListener("abort", stopped);
      wake = null;
    }
    const taken: MeaningUpdate = latest;
    latest = null;
    return taken;
  }

  return {
    onMeaning(update) {
      latest = update;
      wake?.();
    },
    async follow({ edit, intervalMs, stop }) {
      let editedAt = 0;
      for (let update = await next(stop); update !== null; update = await next(stop)) {
        const outcome = update.state !== "embedding";
        if (!outcome && Date.now() - editedAt < intervalMs) continue;
        editedAt = Date.now();
        await edit(update);
        if (outcome) return;
      }
    },
  };
}
