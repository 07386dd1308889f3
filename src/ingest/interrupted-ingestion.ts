/**
 * Clean-up after a process that died mid-ingestion (SIGKILL, crash, power loss): its job is still
 * "queued" or "running", and the document it stored may still be "indexing" with part of its vectors
 * written. Each such job is failed with `ingestion_interrupted`, and its document — rows, vectors and
 * stored bytes — removed, so the file can simply be uploaded again. Search never saw the document:
 * chunks of a document that is not "ready" are not returned (src/stores/sql-catalog.ts).
 *
 * A job counts as interrupted once nobody has touched it for `staleForMs` (running jobs touch theirs
 * every few seconds, see ingest-file.ts). Embedded PGlite is one process, so at its start-up every open
 * job is interrupted (0); replicas sharing PostgreSQL wait past the heartbeat so they never take
 * another replica's live upload, and sweep periodically to catch what a dead replica left.
 */
import { isFolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Catalog } from "../stores/catalog.js";
import type { VectorIndex } from "../stores/vector-index.js";

/** Running jobs are touched every 5 s; one a minute old belongs to a process that is gone. */
export const SHARED_DATABASE_STALE_AFTER_MS = 60_000;

export type InterruptedIngestionOptions = {
  catalog: Catalog;
  vectorIndex: VectorIndex;
  logger: Logger;
  staleForMs: number;
};

/** Fails every interrupted job and removes what it left; returns how many jobs it cleaned up. */
export async function recoverInterruptedIngestion(options: InterruptedIngestionOptions): Promise<number> {
  const { catalog, vectorIndex, logger } = options;
  const jobs = await catalog.listInterruptedJobs(options.staleForMs);
  let recovered = 0;
  for (const job of jobs) {
    const document = job.documentId ? await catalog.getDocument(job.documentId) : null;
    // A "ready" document was complete before the process died (only its job was not closed): keep it.
    const removeDocument = document !== null && document.status === "indexing";
    if (removeDocument) {
      await vectorIndex.deleteByDocument(document.id);
      await catalog.deleteDocument(document.id);
    }
    const kept = document !== null && !removeDocument;
    try {
      if (job.status === "queued") await catalog.updateJob(job.id, { status: "running" });
      await catalog.updateJob(
        job.id,
        kept
          ? { status: "succeeded", documentId: document.id }
          : {
              status: "failed",
              errorCode: "ingestion_interrupted",
              errorMessage: `Folio stopped while ingesting ${job.fileName}; nothing of it was kept — upload it again.`,
            },
      );
    } catch (error) {
      // Another replica's sweep closed the job first: the document is gone either way.
      if (!isFolioError(error) || error.code !== "invalid_job_transition") throw error;
      continue;
    }
    recovered += 1;
    logger.warn(
      {
        jobId: job.id,
        space: job.spaceId,
        file: job.fileName,
        documentId: job.documentId,
        removedPartialDocument: removeDocument,
      },
      kept
        ? "interrupted ingestion had finished storing its document; job closed"
        : removeDocument
          ? "interrupted ingestion cleaned up: its partial document, vectors and stored bytes were removed; the file can be uploaded again"
          : "interrupted ingestion marked failed; nothing of it had been stored",
    );
  }
  return recovered;
}

/** Runs the recovery every `intervalMs` (replicas on a shared database); returns a stop function. */
export function sweepInterruptedIngestion(options: InterruptedIngestionOptions & { intervalMs: number }): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    recoverInterruptedIngestion(options)
      .catch((error: unknown) => {
        options.logger.warn({ err: error }, "could not check for interrupted ingestion jobs; will try again");
      })
      .finally(() => {
        running = false;
      });
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
