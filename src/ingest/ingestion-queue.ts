/**
 * Uploads wait their turn: at most `concurrency` files are ingested at once (each holds a parse worker,
 * the embedder and a catalog transaction), up to `maxQueued` more wait in line and are told so with the
 * "queued" progress stage, and one past that is refused at once with `ingestion_busy` — a reply the
 * uploader can act on, instead of a server that slows to a crawl for everyone.
 */
import { FolioError } from "../errors.js";
import type { IngestionService } from "./ingest-file.js";
import type { IngestInput, IngestResult } from "./ingest-result.js";

export const DEFAULT_INGEST_CONCURRENCY = 2;
export const DEFAULT_INGEST_QUEUE_DEPTH = 16;
/** How often a waiting upload is told again that it is in line (chat adapters throttle their edits). */
const REMIND_QUEUED_MS = 5_000;

export type IngestionQueueOptions = {
  concurrency: number;
  maxQueued: number;
};

export type IngestionQueue = IngestionService & {
  /** Files being ingested now and files waiting, for metrics and tests. */
  depth(): { running: number; waiting: number };
};

type Waiter = { input: IngestInput; start: () => void };

export function createIngestionQueue(service: IngestionService, options: IngestionQueueOptions): IngestionQueue {
  if (options.concurrency < 1) throw new FolioError("invalid_config", "Ingestion concurrency must be at least 1.");
  let running = 0;
  const waiting: Waiter[] = [];

  /** Everyone still waiting hears again that they are in line (adapters throttle their progress edits). */
  function announcePositions() {
    for (const waiter of waiting) waiter.input.onProgress?.("queued");
  }

  /** A finished file hands its slot straight to the first in line, so no newcomer can slip past. */
  function startNext() {
    const next = waiting.shift();
    if (!next) return;
    running += 1;
    next.start();
    announcePositions();
  }

  /** Runs a file in a slot already counted in `running`, and passes the slot on when done. */
  async function run(input: IngestInput): Promise<IngestResult> {
    try {
      return await service.ingestFile(input);
    } finally {
      running -= 1;
      startNext();
    }
  }

  function wait(input: IngestInput): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const reminder = setInterval(() => input.onProgress?.("queued"), REMIND_QUEUED_MS);
      reminder.unref();
      const onAbort = () => {
        clearInterval(reminder);
        const index = waiting.indexOf(waiter);
        if (index >= 0) waiting.splice(index, 1);
        announcePositions();
        reject(input.signal?.reason ?? new FolioError("upload_cancelled", "The upload was cancelled while it waited."));
      };
      const waiter: Waiter = {
        input,
        start: () => {
          clearInterval(reminder);
          input.signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      input.signal?.addEventListener("abort", onAbort, { once: true });
      waiting.push(waiter);
      input.onProgress?.("queued");
    });
  }

  return {
    async ingestFile(input) {
      if (input.signal?.aborted) throw input.signal.reason;
      if (running < options.concurrency && waiting.length === 0) {
        running += 1;
        return run(input);
      }
      if (waiting.length >= options.maxQueued) {
        throw new FolioError(
          "ingestion_busy",
          `Folio is busy: ${running} file${running === 1 ? " is" : "s are"} being read and ${waiting.length} more ${waiting.length === 1 ? "is" : "are"} waiting — send ${input.fileName} again in a few minutes.`,
          { details: { status: 503, running, waiting: waiting.length } },
        );
      }
      await wait(input);
      return run(input);
    },
    depth: () => ({ running, waiting: waiting.length }),
  };
}
