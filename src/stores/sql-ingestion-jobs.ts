/**
 * The catalog's ingestion jobs in SQL: queued -> running -> succeeded | failed, touched while they
 * run, so any replica can tell a job left behind by a process that died.
 */
import { randomUUID } from "node:crypto";
import type { IngestionJob, IngestionJobStatus } from "../domain/types.js";
import { FolioError } from "../errors.js";
import type { Catalog, JobUpdate } from "./catalog.js";
import { type JobRow, toJob } from "./catalog-rows.js";
import type { SqlClient } from "./sql-client.js";
import { isUuid } from "./sql-values.js";

const ALLOWED_JOB_TRANSITIONS: Record<IngestionJobStatus, IngestionJobStatus[]> = {
  queued: ["running"],
  running: ["succeeded", "failed"],
  succeeded: [],
  failed: [],
};

export function createSqlIngestionJobs(
  client: SqlClient,
): Pick<Catalog, "createJob" | "updateJob" | "getJob" | "touchJob" | "listInterruptedJobs"> {
  return {
    async createJob({ spaceId, fileName }) {
      const { rows } = await client.query<JobRow>(
        "INSERT INTO ingestion_jobs (id, space_id, file_name, status) VALUES ($1, $2, $3, 'queued') RETURNING *",
        [randomUUID(), spaceId, fileName],
      );
      if (!rows[0]) throw new FolioError("job_insert_failed", "The database did not return the new ingestion job.");
      return toJob(rows[0]);
    },

    async updateJob(id, update: JobUpdate) {
      if (!isUuid(id)) throw new FolioError("job_not_found", `Ingestion job ${id} does not exist.`);
      return client.transaction(async (transaction) => {
        const { rows } = await transaction.query<JobRow>("SELECT * FROM ingestion_jobs WHERE id = $1 FOR UPDATE", [id]);
        const current = rows[0];
        if (!current) throw new FolioError("job_not_found", `Ingestion job ${id} does not exist.`);
        const from = current.status as IngestionJobStatus;
        if (!ALLOWED_JOB_TRANSITIONS[from].includes(update.status)) {
          throw new FolioError(
            "invalid_job_transition",
            `Ingestion job ${id} cannot move from ${from} to ${update.status}.`,
          );
        }
        const updated = await transaction.query<JobRow>(
          `UPDATE ingestion_jobs SET status = $2, document_id = coalesce($3, document_id), error_code = $4,
             error_message = $5, updated_at = clock_timestamp() WHERE id = $1 RETURNING *`,
          [id, update.status, update.documentId ?? null, update.errorCode ?? null, update.errorMessage ?? null],
        );
        if (!updated.rows[0]) throw new FolioError("job_not_found", `Ingestion job ${id} does not exist.`);
        return toJob(updated.rows[0]);
      });
    },

    async getJob(id): Promise<IngestionJob | null> {
      if (!isUuid(id)) return null;
      const { rows } = await client.query<JobRow>("SELECT * FROM ingestion_jobs WHERE id = $1", [id]);
      return rows[0] ? toJob(rows[0]) : null;
    },

    async touchJob(id) {
      if (!isUuid(id)) return;
      await client.query(
        "UPDATE ingestion_jobs SET updated_at = clock_timestamp() WHERE id = $1 AND status = 'running'",
        [id],
      );
    },

    async listInterruptedJobs(staleForMs) {
      const { rows } = await client.query<JobRow>(
        `SELECT * FROM ingestion_jobs WHERE status IN ('queued', 'running')
           AND updated_at <= clock_timestamp() - make_interval(secs => $1::float8 / 1000)
         ORDER BY created_at`,
        [staleForMs],
      );
      return rows.map(toJob);
    },
  };
}
