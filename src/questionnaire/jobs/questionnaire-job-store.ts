/**
 * Where questionnaire jobs are kept: in the catalog's database (PGlite or PostgreSQL), so a job
 * survives a restart and any replica can resume it. A row's answer is saved only while the row is
 * still pending (`saveRowAnswer` reports whether it did), so no row is ever answered into the job twice.
 */
import { randomUUID } from "node:crypto";
import type { SqlClient } from "../../stores/sql-client.js";
import type { RowStatus } from "../answer/row-answer.js";
import type { QuestionnaireFormat, QuestionnaireQuestion, SheetLayout } from "../questionnaire.js";
import { type QuestionnaireDestination, readDestination } from "./questionnaire-destination.js";
import { iso, json, type QuestionnaireRowQueries, rowQueries } from "./questionnaire-row-queries.js";

export type QuestionnaireJobStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

export type QuestionnaireCounts = Record<RowStatus, number> & { pending: number };

export type QuestionnaireJob = {
  id: string;
  spaceId: string;
  fileName: string;
  format: QuestionnaireFormat;
  status: QuestionnaireJobStatus;
  total: number;
  counts: QuestionnaireCounts;
  readOptions: { sheet?: string; column?: string };
  layouts: SheetLayout[];
  requestedBy: string | null;
  /** Where the chat that asked for it is told of its progress; null for console and CLI jobs. */
  destination: QuestionnaireDestination | null;
  /** When the uploaded file was deleted after the retention period (no filled copy since); null while kept. */
  fileDeletedAt: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  /** Why the filled copy could not be written, recorded the first time it failed (#37); null otherwise. */
  copyError: { code: string; message: string } | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string;
};

export type { QuestionnaireRowRecord } from "./questionnaire-row-queries.js";

export type QuestionnaireJobStore = QuestionnaireRowQueries & {
  createJob(input: {
    spaceId: string;
    fileName: string;
    format: QuestionnaireFormat;
    bytes: Uint8Array;
    readOptions: { sheet?: string; column?: string };
    layouts: SheetLayout[];
    questions: QuestionnaireQuestion[];
    requestedBy: string | null;
    destination?: QuestionnaireDestination | null;
  }): Promise<QuestionnaireJob>;
  getJob(id: string): Promise<QuestionnaireJob | null>;
  listJobs(spaceId: string, limit: number): Promise<QuestionnaireJob[]>;
  getJobBytes(id: string): Promise<Uint8Array | null>;
  /** Moves the job to a status; `running` also sets `started_at` the first time. */
  setJobStatus(id: string, status: QuestionnaireJobStatus, error?: { code: string; message: string }): Promise<void>;
  /** Replaces where the job reports (an adapter adds its progress message once it is posted). */
  setDestination(id: string, destination: QuestionnaireDestination | null): Promise<void>;
  /**
   * Records a cancel for whichever process answers the job (it stops after its current row); a job
   * nobody has touched for `orphanedForMs` is cancelled at once. False when the job is not open.
   */
  requestCancel(id: string, orphanedForMs: number): Promise<boolean>;
  /**
   * Deletes the uploaded file of every job finished (succeeded, failed, cancelled) at least
   * `finishedForMs` ago; returns their ids. Rows and counts are kept.
   */
  deleteFinishedFiles(finishedForMs: number): Promise<string[]>;
  /** Records that the chat was told the job's outcome. */
  markReported(id: string): Promise<void>;
  /** Records why the job's filled copy could not be written; the copy is not written again. */
  recordCopyError(id: string, error: { code: string; message: string }): Promise<void>;
  /**
   * Claims the finished jobs whose chat (one of `adapters`) was never told their outcome, finished at
   * least `finishedForMs` ago: each is marked told in the same statement, so one replica tells it.
   */
  claimUnreportedJobs(adapters: string[], finishedForMs: number): Promise<QuestionnaireJob[]>;
  /** True once a cancel was requested for the job (or it was cancelled). */
  isCancelRequested(id: string): Promise<boolean>;
  /** Moves `updated_at`, so no other replica takes the job for abandoned. */
  touchJob(id: string): Promise<void>;
  /**
   * Claims the queued or running jobs untouched for `staleForMs` (0: all), left by a process that stopped:
   * each is touched in the same statement, so of two replicas claiming at once only one gets it.
   */
  claimResumableJobs(staleForMs: number): Promise<QuestionnaireJob[]>;
  deleteJob(id: string): Promise<boolean>;
};

type JobRow = {
  id: string;
  space_id: string;
  file_name: string;
  format: QuestionnaireFormat;
  status: QuestionnaireJobStatus;
  total: number;
  read_options: { sheet?: string; column?: string } | string;
  layouts: SheetLayout[] | string;
  requested_by: string | null;
  destination: unknown;
  bytes_deleted_at: Date | string | null;
  error_code: string | null;
  error_message: string | null;
  copy_error_code: string | null;
  copy_error_message: string | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  updated_at: Date | string;
  answered: number | string;
  not_found: number | string;
  needs_review: number | string;
  errors: number | string;
  pending: number | string;
};

const JOB_COLUMNS = `j.id, j.space_id, j.file_name, j.format, j.status, j.total, j.read_options, j.layouts, j.requested_by, j.destination, j.bytes_deleted_at,
  j.error_code, j.error_message, j.copy_error_code, j.copy_error_message, j.created_at, j.started_at, j.finished_at, j.updated_at,
  (SELECT count(*) FROM questionnaire_rows r WHERE r.job_id = j.id AND r.status = 'answered') AS answered,
  (SELECT count(*) FROM questionnaire_rows r WHERE r.job_id = j.id AND r.status = 'not_found') AS not_found,
  (SELECT count(*) FROM questionnaire_rows r WHERE r.job_id = j.id AND r.status = 'needs_review') AS needs_review,
  (SELECT count(*) FROM questionnaire_rows r WHERE r.job_id = j.id AND r.status = 'error') AS errors,
  (SELECT count(*) FROM questionnaire_rows r WHERE r.job_id = j.id AND r.status = 'pending') AS pending`;

function toJob(row: JobRow): QuestionnaireJob {
  return {
    id: row.id,
    spaceId: row.space_id,
    fileName: row.file_name,
    format: row.format,
    status: row.status,
    total: row.total,
    counts: {
      answered: Number(row.answered),
      not_found: Number(row.not_found),
      needs_review: Number(row.needs_review),
      error: Number(row.errors),
      pending: Number(row.pending),
    },
    readOptions: json(row.read_options),
    layouts: json(row.layouts),
    requestedBy: row.requested_by,
    destination: readDestination(typeof row.destination === "string" ? JSON.parse(row.destination) : row.destination),
    fileDeletedAt: iso(row.bytes_deleted_at),
    errorCode: row.error_code,
    errorMessage: row.error_message,
    copyError:
      row.copy_error_code === null ? null : { code: row.copy_error_code, message: row.copy_error_message ?? "" },
    createdAt: iso(row.created_at) ?? "",
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    updatedAt: iso(row.updated_at) ?? "",
  };
}

/** Rows inserted per statement when a job is created (a few parameters each, far under the 65,535 cap). */
const ROWS_PER_INSERT = 500;

/** Stores a new job and its rows in one transaction; returns the job's id. */
async function insertJob(client: SqlClient, input: Parameters<QuestionnaireJobStore["createJob"]>[0]): Promise<string> {
  const id = randomUUID();
  await client.transaction(async (transaction) => {
    await transaction.query(
      `INSERT INTO questionnaire_jobs (id, space_id, file_name, format, bytes, read_options, layouts, status, total, requested_by, destination)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'queued', $8, $9, $10)`,
      [
        id,
        input.spaceId,
        input.fileName,
        input.format,
        input.bytes,
        JSON.stringify(input.readOptions),
        JSON.stringify(input.layouts),
        input.questions.length,
        input.requestedBy,
        input.destination ? JSON.stringify(input.destination) : null,
      ],
    );
    for (let start = 0; start < input.questions.length; start += ROWS_PER_INSERT) {
      const batch = input.questions.slice(start, start + ROWS_PER_INSERT);
      const values = batch.map((_, index) => `($1, $${index * 2 + 2}, $${index * 2 + 3})`).join(", ");
      const params: unknown[] = [id];
      for (const question of batch) params.push(question.position, JSON.stringify(question));
      await transaction.query(`INSERT INTO questionnaire_rows (job_id, position, question) VALUES ${values}`, params);
    }
  });
  return id;
}

export function createQuestionnaireJobStore(client: SqlClient): QuestionnaireJobStore {
  const getJob = async (id: string) => {
    const result = await client.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM questionnaire_jobs j WHERE j.id = $1`, [id]);
    const row = result.rows[0];
    return row ? toJob(row) : null;
  };
  const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

  return {
    ...rowQueries(client),
    async createJob(input) {
      const id = await insertJob(client, input);
      const job = await getJob(id);
      if (!job) throw new Error(`questionnaire job ${id} vanished after it was created`);
      return job;
    },
    getJob: (id) => (isUuid(id) ? getJob(id) : Promise.resolve(null)),
    async listJobs(spaceId, limit) {
      const result = await client.query<JobRow>(
        `SELECT ${JOB_COLUMNS} FROM questionnaire_jobs j WHERE j.space_id = $1 ORDER BY j.created_at DESC LIMIT $2`,
        [spaceId, limit],
      );
      return result.rows.map(toJob);
    },
    async getJobBytes(id) {
      if (!isUuid(id)) return null;
      const result = await client.query<{ bytes: Uint8Array }>("SELECT bytes FROM questionnaire_jobs WHERE id = $1", [
        id,
      ]);
      const bytes = result.rows[0]?.bytes;
      return bytes ? new Uint8Array(bytes) : null;
    },
    async setJobStatus(id, status, error) {
      // A cancelled job stays cancelled: a replica that finishes the row it was on must not revive it.
      await client.query(
        `UPDATE questionnaire_jobs SET status = $2, error_code = $3, error_message = $4, updated_at = clock_timestamp(),
           started_at = CASE WHEN $2 = 'running' THEN coalesce(started_at, clock_timestamp()) ELSE started_at END,
           finished_at = CASE WHEN $2 IN ('succeeded', 'failed', 'cancelled') THEN clock_timestamp() ELSE NULL END
         WHERE id = $1 AND status <> 'cancelled'`,
        [id, status, error?.code ?? null, error?.message ?? null],
      );
    },
    async setDestination(id, destination) {
      await client.query("UPDATE questionnaire_jobs SET destination = $2 WHERE id = $1", [
        id,
        destination ? JSON.stringify(destination) : null,
      ]);
    },
    async requestCancel(id, orphanedForMs) {
      if (!isUuid(id)) return false;
      const result = await client.query<{ id: string }>(
        `UPDATE questionnaire_jobs SET cancel_requested_at = coalesce(cancel_requested_at, clock_timestamp()),
           status = CASE WHEN updated_at <= clock_timestamp() - ($2::double precision * interval '1 millisecond')
             THEN 'cancelled' ELSE status END,
           finished_at = CASE WHEN updated_at <= clock_timestamp() - ($2::double precision * interval '1 millisecond')
             THEN clock_timestamp() ELSE finished_at END
         WHERE id = $1 AND status IN ('queued', 'running') RETURNING id`,
        [id, orphanedForMs],
      );
      return result.rows.length > 0;
    },
    async deleteFinishedFiles(finishedForMs) {
      const result = await client.query<{ id: string }>(
        `UPDATE questionnaire_jobs SET bytes = NULL, bytes_deleted_at = clock_timestamp()
         WHERE bytes IS NOT NULL AND status IN ('succeeded', 'failed', 'cancelled')
           AND finished_at <= clock_timestamp() - ($1::double precision * interval '1 millisecond')
         RETURNING id`,
        [finishedForMs],
      );
      return result.rows.map((row) => row.id);
    },
    async markReported(id) {
      await client.query("UPDATE questionnaire_jobs SET reported_at = clock_timestamp() WHERE id = $1", [id]);
    },
    async recordCopyError(id, error) {
      await client.query("UPDATE questionnaire_jobs SET copy_error_code = $2, copy_error_message = $3 WHERE id = $1", [
        id,
        error.code,
        error.message,
      ]);
    },

    async claimUnreportedJobs(adapters, finishedForMs) {
      if (adapters.length === 0) return [];
      const claimed = await client.query<{ id: string }>(
        `UPDATE questionnaire_jobs SET reported_at = clock_timestamp()
         WHERE reported_at IS NULL AND status IN ('succeeded', 'failed', 'cancelled')
           AND destination->>'adapter' = ANY($1::text[])
           AND finished_at <= clock_timestamp() - ($2::double precision * interval '1 millisecond')
         RETURNING id`,
        [adapters, finishedForMs],
      );
      const jobs = await Promise.all(claimed.rows.map((row) => getJob(row.id)));
      return jobs.filter((job) => job !== null).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },
    async isCancelRequested(id) {
      const result = await client.query<{ requested: boolean }>(
        "SELECT (cancel_requested_at IS NOT NULL OR status = 'cancelled') AS requested FROM questionnaire_jobs WHERE id = $1",
        [id],
      );
      return result.rows[0]?.requested === true;
    },
    async touchJob(id) {
      await client.query("UPDATE questionnaire_jobs SET updated_at = clock_timestamp() WHERE id = $1", [id]);
    },
    async claimResumableJobs(staleForMs) {
      const claimed = await client.query<{ id: string }>(
        `UPDATE questionnaire_jobs SET updated_at = clock_timestamp()
         WHERE status IN ('queued', 'running')
           AND updated_at <= clock_timestamp() - ($1::double precision * interval '1 millisecond')
         RETURNING id`,
        [staleForMs],
      );
      const jobs = await Promise.all(claimed.rows.map((row) => getJob(row.id)));
      return jobs.filter((job) => job !== null).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },
    async deleteJob(id) {
      if (!isUuid(id)) return false;
      const result = await client.query<{ id: string }>("DELETE FROM questionnaire_jobs WHERE id = $1 RETURNING id", [
        id,
      ]);
      return result.rows.length > 0;
    },
  };
}
