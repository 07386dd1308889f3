/**
 * Searchable by meaning, in the background: a document is stored and searchable by keywords as soon as
 * it is parsed (ingest-file.ts); its passages are then embedded here, one document at a time, and their
 * dense vectors written, after which the catalog marks it searchable by meaning. Progress is told
 * through the document events (the console's list shows it) and to whoever waits on the document.
 * Documents still awaiting meaning when the process stopped are resumed at the next start, behind new
 * uploads: an upload queued while such catch-up work runs is embedded first, between two of its slices
 * (someone is waiting on the upload; nobody on the catch-up).
 */

import type { DocumentRecord } from "../domain/types.js";
import type { Embedder } from "../embedding/embedder.js";
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Catalog } from "../stores/catalog.js";
import type { VectorIndex } from "../stores/vector-index.js";
import type { DocumentEvents } from "./document-events.js";
import { embedDocument, type MeaningProgress } from "./embed-document.js";
import type { ParseActivity } from "./parse-activity.js";

export type { MeaningProgress } from "./embed-document.js";

/** "upload": a document just uploaded (the default); "catch-up": one left unembedded by an earlier run. */
export type MeaningPriority = "upload" | "catch-up";

export type MeaningIndexer = {
  /**
   * Queues a document (stored, "ready", awaiting meaning) for embedding. Resolves true once its dense
   * vectors are written, false when it was deleted first; rejects when embedding failed.
   */
  enqueue(
    document: DocumentRecord,
    onProgress?: (progress: MeaningProgress) => void,
    priority?: MeaningPriority,
  ): Promise<boolean>;
  /** Passages embedded so far for a queued or running document; null when it is not waiting here. */
  progressOf(documentId: string): MeaningProgress | null;
  /** Whether its embedding failed in this process (it stays searchable by keywords until retried). */
  hasFailed(documentId: string): boolean;
  /** Queues every document the catalog still lists as awaiting meaning; returns how many. */
  resumeAwaiting(): Promise<number>;
  /** Stops the running embedding (it resumes at the next start) and drops the queue. */
  close(): Promise<void>;
};

type Waiting = {
  document: DocumentRecord;
  priority: MeaningPriority;
  listeners: Array<(progress: MeaningProgress) => void>;
  settle: { resolve: (written: boolean) => void; reject: (error: unknown) => void };
  promise: Promise<boolean>;
};

export function createMeaningIndexer(options: {
  catalog: Catalog;
  vectorIndex: VectorIndex;
  embedder: Embedder;
  events: DocumentEvents;
  logger: Logger;
  /** Uploads being parsed: embedding waits for them between slices. */
  parseActivity?: ParseActivity;
}): MeaningIndexer {
  const { catalog, vectorIndex, embedder, events } = options;
  const logger = options.logger.child({ component: "meaning-indexer" });
  const queue: Waiting[] = [];
  const byDocument = new Map<string, Waiting>();
  const progress = new Map<string, MeaningProgress>();
  const failed = new Set<string>();
  const stop = new AbortController();
  let running: Promise<void> | null = null;

  const report = (waiting: Waiting, value: MeaningProgress) => {
    progress.set(waiting.document.id, value);
    for (const listener of waiting.listeners) listener(value);
    events.publish({
      type: "meaning_progress",
      spaceId: waiting.document.spaceId,
      documentId: waiting.document.id,
      ...value,
    });
  };

  /** Before each slice: parses in progress first, and, for catch-up work, the uploads queued meanwhile. */
  const embedOne = (waiting: Waiting) =>
    embedDocument({ catalog, vectorIndex, embedder }, waiting.document, {
      signal: stop.signal,
      report: (value) => report(waiting, value),
      async beforeSlice() {
        await options.parseActivity?.whenIdle();
        if (waiting.priority === "catch-up") await embedQueuedUploads();
      },
      logger,
    });

  /** Embeds one queued document and settles whoever waits on it. */
  async function settleOne(waiting: Waiting): Promise<void> {
    const { document } = waiting;
    try {
      const written = await embedOne(waiting);
      if (written) events.publish({ type: "meaning_ready", spaceId: document.spaceId, documentId: document.id });
      waiting.settle.resolve(written);
    } catch (error) {
      if (!stop.signal.aborted) {
        logger.error(
          { err: error, documentId: document.id, space: document.spaceId },
          "could not embed a document; it stays searchable by keywords and is tried again at the next start",
        );
        failed.add(document.id);
        events.publish({ type: "meaning_failed", spaceId: document.spaceId, documentId: document.id });
      }
      waiting.settle.reject(error);
    } finally {
      byDocument.delete(document.id);
      progress.delete(document.id);
    }
  }

  /** The next document: the first upload in line, else the first catch-up. */
  function takeNext(): Waiting | undefined {
    const upload = queue.findIndex((waiting) => waiting.priority === "upload");
    return queue.splice(Math.max(upload, 0), 1)[0];
  }

  /** Between slices of catch-up work: the uploads queued meanwhile, each in full. */
  async function embedQueuedUploads(): Promise<void> {
    for (let index = queue.findIndex((waiting) => waiting.priority === "upload"); index >= 0; ) {
      const [upload] = queue.splice(index, 1);
      if (upload) await settleOne(upload);
      index = queue.findIndex((waiting) => waiting.priority === "upload");
    }
  }

  async function drain(): Promise<void> {
    for (let waiting = takeNext(); waiting; waiting = takeNext()) await settleOne(waiting);
    running = null;
  }

  function enqueue(
    document: DocumentRecord,
    onProgress?: (progress: MeaningProgress) => void,
    priority: MeaningPriority = "upload",
  ): Promise<boolean> {
    if (stop.signal.aborted) {
      return Promise.reject(
        new FolioError("shutting_down", "Folio is shutting down; embedding resumes at the next start."),
      );
    }
    failed.delete(document.id);
    const already = byDocument.get(document.id);
    if (already) {
      if (onProgress) already.listeners.push(onProgress);
      if (priority === "upload") already.priority = "upload";
      return already.promise;
    }
    let settle: Waiting["settle"] = { resolve: () => {}, reject: () => {} };
    const promise = new Promise<boolean>((resolve, reject) => {
      settle = { resolve, reject };
    });
    // Nobody may be waiting (background uploads): a failure is logged above, not an unhandled rejection.
    promise.catch(() => {});
    const waiting: Waiting = { document, priority, listeners: onProgress ? [onProgress] : [], settle, promise };
    queue.push(waiting);
    byDocument.set(document.id, waiting);
    progress.set(document.id, { done: 0, total: 0 });
    running ??= drain();
    return promise;
  }

  return {
    enqueue,
    progressOf: (documentId) => progress.get(documentId) ?? null,
    hasFailed: (documentId) => failed.has(documentId),
    async resumeAwaiting() {
      const awaiting = await catalog.listDocumentsAwaitingMeaning();
      for (const document of awaiting) void enqueue(document, undefined, "catch-up");
      if (awaiting.length > 0) logger.info({ documents: awaiting.length }, "resuming embedding of documents");
      return awaiting.length;
    },
    async close() {
      stop.abort(new FolioError("shutting_down", "Folio is shutting down; embedding resumes at the next start."));
      for (const waiting of queue.splice(0)) {
        waiting.settle.reject(stop.signal.reason);
        byDocument.delete(waiting.document.id);
      }
      await running?.catch(() => {});
    },
  };
}
