/**
 * A questionnaire job's rows in the catalog: listed, started, failed, answered (only while still
 * pending, so no row is answered twice), and the version of their answers a filled copy is written from.
 * Part of the job store (questionnaire-job-store.ts), which spreads these into its own.
 */
import type { SqlClient } from "../../stores/sql-client.js";
import type { RowAnswer, RowStatus } from "../answer/row-answer.js";
import type { QuestionnaireQuestion } from "../questionnaire.js";

export type QuestionnaireRowRecord = {
  position: number;
  question: QuestionnaireQuestion;
  status: RowStatus | "pending";
  attempts: number;
  failures: number;
  result: RowAnswer | null;
};

export type QuestionnaireRowQueries = {
  pendingRows(jobId: string): Promise<QuestionnaireRowRecord[]>;
  listRows(jobId: string): Promise<QuestionnaireRowRecord[]>;
  /** Counts one more attempt at a row (an attempt a crash cut off is not a failure). */
  markRowStarted(jobId: string, position: number): Promise<void>;
  /** Counts a failed attempt; returns the failures so far. */
  recordRowFailure(jobId: string, position: number): Promise<number>;
  /** Saves the row's answer if it is still pending; false when it already had one. */
  saveRowAnswer(jobId: string, position: number, answer: RowAnswer): Promise<boolean>;
  /**
   * What the filled copy is written from besides the file: its rows' answers. Changes whenever a row is
   * answered (the number of answered rows and the last answer's time), so a copy kept for one version
   * is the copy of that version.
   */
  answerVersion(jobId: string): Promise<string>;
};

export function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

export function json<T>(value: T | string): T {
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}

type RowRow = {
  position: number;
  question: QuestionnaireQuestion | string;
  status: RowStatus | "pending";
  attempts: number;
  failures: number;
  result: RowAnswer | string | null;
};

function toRow(row: RowRow): QuestionnaireRowRecord {
  return {
    position: row.position,
    question: json(row.question),
    status: row.status,
    attempts: row.attempts,
    failures: row.failures,
    result: row.result === null ? null : json(row.result),
  };
}

export function rowQueries(client: SqlClient): QuestionnaireRowQueries {
  return {
    async pendingRows(jobId) {
      const result = await client.query<RowRow>(
        "SELECT position, question, status, attempts, failures, result FROM questionnaire_rows WHERE job_id = $1 AND status = 'pending' ORDER BY position",
        [jobId],
      );
      return result.rows.map(toRow);
    },
    async listRows(jobId) {
      const result = await client.query<RowRow>(
        "SELECT position, question, status, attempts, failures, result FROM questionnaire_rows WHERE job_id = $1 ORDER BY position",
        [jobId],
      );
      return result.rows.map(toRow);
    },
    async markRowStarted(jobId, position) {
      await client.query("UPDATE questionnaire_rows SET attempts = attempts + 1 WHERE job_id = $1 AND position = $2", [
        jobId,
        position,
      ]);
    },
    async recordRowFailure(jobId, position) {
      const result = await client.query<{ failures: number }>(
        "UPDATE questionnaire_rows SET failures = failures + 1 WHERE job_id = $1 AND position = $2 RETURNING failures",
        [jobId, position],
      );
      return result.rows[0]?.failures ?? 0;
    },
    async saveRowAnswer(jobId, position, answer) {
      const result = await client.query<{ position: number }>(
        `UPDATE questionnaire_rows SET status = $3, result = $4, answered_at = clock_timestamp()
         WHERE job_id = $1 AND position = $2 AND status = 'pending' RETURNING position`,
        [jobId, position, answer.status, JSON.stringify(answer)],
      );
      await client.query("UPDATE questionnaire_jobs SET updated_at = clock_timestamp() WHERE id = $1", [jobId]);
      return result.rows.length > 0;
    },
    async answerVersion(jobId) {
      const result = await client.query<{ answered: number | string; last: Date | string | null }>(
        "SELECT count(answered_at) AS answered, max(answered_at) AS last FROM questionnaire_rows WHERE job_id = $1",
        [jobId],
      );
      const row = result.rows[0];
      return `${Number(row?.answered ?? 0)}:${iso(row?.last ?? null) ?? "-"}`;
    },
  };
}
