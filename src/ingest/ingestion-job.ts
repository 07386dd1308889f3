/**
 * The job row an upload runs under: created running, touched every few seconds while it runs (start-up
 * recovery leaves live jobs alone and fails the ones whose process died), closed as succeeded or failed.
 */
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Catalog } from "../stores/catalog.js";

export const DEFAULT_JOB_HEARTBEAT_MS = 5_000;

export type RunningJob = {
  id: string;
  /** Stops recording that the job is alive (it has ended either way). */
  stopHeartbeat(): void;
  succeeded(documentId: string): Promise<void>;
  /** Records the failure; a job another replica's sweep already closed is left as it is. */
  failed(failure: FolioError): Promise<void>;
};

export async function startIngestionJob(
  catalog: Catalog,
  upload: { spaceId: string; fileName: string },
  heartbeatMs: number,
  logger: Logger,
): Promise<RunningJob> {
  const job = await catalog.createJob(upload);
  await catalog.updateJob(job.id, { status: "running" });
  const heartbeat = setInterval(() => {
    catalog.touchJob(job.id).catch((error: unknown) => {
      logger.warn({ err: error, jobId: job.id }, "could not record that the ingestion job is alive");
    });
  }, heartbeatMs);
  heartbeat.unref();
  return {
    id: job.id,
    stopHeartbeat: () => clearInterval(heartbeat),
    async succeeded(documentId) {
      await catalog.updateJob(job.id, { status: "succeeded", documentId });
    },
    async failed(failure) {
      await catalog
        .updateJob(job.id, { status: "failed", errorCode: failure.code, errorMessage: failure.message })
        .catch((updateError: unknown) => {
          // Another replica's sweep took this job for interrupted and closed it already.
          if (!(updateError instanceof FolioError) || updateError.code !== "invalid_job_transition") throw updateError;
        });
    },
  };
}
