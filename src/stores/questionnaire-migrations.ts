/**
 * The catalog tables a questionnaire job lives in: the job (its file, kept to write the filled copy,
 * and its state) and one row per question with its answer once it has one. Appended to the catalog's
 * migrations (migrations.ts beside it), which imports this list; kept in a file of its own to keep the
 * questionnaire's tables together.
 */

export const QUESTIONNAIRE_MIGRATIONS: Array<{ name: string; statements: string[] }> = [
  {
    name: "0003_questionnaire_jobs",
    statements: [
      `CREATE TABLE questionnaire_jobs (
        id uuid PRIMARY KEY,
        space_id text NOT NULL,
        file_name text NOT NULL,
        format text NOT NULL,
        bytes bytea NOT NULL,
        read_options jsonb NOT NULL,
        layouts jsonb NOT NULL,
        status text NOT NULL,
        total integer NOT NULL,
        requested_by text,
        error_code text,
        error_message text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        started_at timestamptz,
        finished_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`,
      "CREATE INDEX questionnaire_jobs_space ON questionnaire_jobs (space_id, created_at)",
      "CREATE INDEX questionnaire_jobs_open ON questionnaire_jobs (status, updated_at)",
      `CREATE TABLE questionnaire_rows (
        job_id uuid NOT NULL REFERENCES questionnaire_jobs(id) ON DELETE CASCADE,
        position integer NOT NULL,
        question jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        failures integer NOT NULL DEFAULT 0,
        result jsonb,
        answered_at timestamptz,
        PRIMARY KEY (job_id, position)
      )`,
    ],
  },
];

/**
 * Where a chat job reports: an opaque JSON its adapter owns (Slack: channel, thread, progress message;
 * Teams: the conversation reference), so a job resumed after a restart — by whichever replica claims it —
 * still edits its progress message and posts the filled copy in the thread it came from; and a cancel
 * request any replica can record; and the retention of a finished job's file. Applied after 0005 (src/stores/migrations.ts).
 */
export const QUESTIONNAIRE_FOLLOW_UP_MIGRATIONS: Array<{ name: string; statements: string[] }> = [
  {
    name: "0006_questionnaire_job_destination",
    statements: ["ALTER TABLE questionnaire_jobs ADD COLUMN destination jsonb"],
  },
  {
    // A cancel asked through one replica for a job another one answers: recorded here, read by the
    // answering process between rows (questionnaire-service.ts).
    name: "0007_questionnaire_cancel_request",
    statements: ["ALTER TABLE questionnaire_jobs ADD COLUMN cancel_requested_at timestamptz"],
  },
  {
    // A finished job's uploaded file (and so its filled copy, written from it) is deleted after the
    // retention period (FOLIO_QUESTIONNAIRE_RETENTION_DAYS); its rows and counts stay.
    name: "0008_questionnaire_file_retention",
    statements: [
      "ALTER TABLE questionnaire_jobs ALTER COLUMN bytes DROP NOT NULL",
      "ALTER TABLE questionnaire_jobs ADD COLUMN bytes_deleted_at timestamptz",
    ],
  },
  {
    // When the chat that asked was told the job's outcome (filled copy and summary, or why it stopped):
    // a job that finished while no adapter could tell it (a crash in between) is told at the next start.
    // Jobs finished before this migration count as told.
    name: "0009_questionnaire_job_reported",
    statements: [
      "ALTER TABLE questionnaire_jobs ADD COLUMN reported_at timestamptz",
      "UPDATE questionnaire_jobs SET reported_at = coalesce(finished_at, clock_timestamp()) WHERE status IN ('succeeded', 'failed', 'cancelled')",
    ],
  },
  {
    // Why the job's filled copy could not be written (#37): recorded the first time, so the copy is not
    // written again on every download or start — the answers stay, the copy's refusal is told instead.
    name: "0010_questionnaire_copy_error",
    statements: [
      "ALTER TABLE questionnaire_jobs ADD COLUMN copy_error_code text",
      "ALTER TABLE questionnaire_jobs ADD COLUMN copy_error_message text",
    ],
  },
];
