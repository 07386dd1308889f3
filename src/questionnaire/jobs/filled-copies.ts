/**
 * A job's filled copy, written as rarely as it can be (#37). Writing one re-opens the uploaded file in
 * the questionnaire worker (questionnaire-worker-pool.ts), under the reading limits and the worker's
 * bounds; so the copy of each job and answer version is kept once written (up to a few copies, by size),
 * requests for a copy being written wait for that one, and at most `maxWriting` copies are written at
 * once — past that a caller that cannot wait (a download) is refused with 429 `questionnaire_copy_busy`,
 * while chat adapters, one copy per finished job, wait their turn. A copy the worker refuses (the file
 * passes a limit, or the worker's time or memory) is recorded with the job (`copyError`) and told again
 * from there: it is never written again, at a download or at a start.
 */
import { FolioError, isFolioError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { FilledCopy, FilledRow } from "../write/write-filled-copy.js";
import type { QuestionnaireJob, QuestionnaireJobStore } from "./questionnaire-job-store.js";

export type WriteFilledCopy = (input: {
  bytes: Uint8Array;
  fileName: string;
  format: QuestionnaireJob["format"];
  layouts: QuestionnaireJob["layouts"];
  rows: FilledRow[];
}) => Promise<FilledCopy>;

export type CopyRequest = {
  /** `refuse`: answer 429 at once when `maxWriting` copies are being written (downloads); `wait`: queue. */
  whenBusy?: "wait" | "refuse";
};

export type FilledCopies = {
  /** The job's file with its answers written in; null when the job or its file is gone. */
  copyOf(id: string, request?: CopyRequest): Promise<FilledCopy | null>;
  /** Copies being written now. */
  readonly writing: number;
};

export type FilledCopyOptions = {
  store: Pick<QuestionnaireJobStore, "getJob" | "getJobBytes" | "listRows" | "answerVersion" | "recordCopyError">;
  write: WriteFilledCopy;
  /** FOLIO_QUESTIONNAIRE_MAX_COPIES: copies written at once. */
  maxWriting: number;
  retentionDays: number;
  /** Bytes of copies kept (the least recently used go first); 64 MB by default. */
  keptBytes?: number;
  logger: Logger;
};

const DEFAULT_KEPT_BYTES = 64 * 1024 * 1024;

/** The refusal of a copy that cannot be written, as recorded with its job. */
function copyRefusal(job: QuestionnaireJob, error: { code: string; message: string }): FolioError {
  return new FolioError(error.code, error.message, { details: { status: 422, jobId: job.id, file: job.fileName } });
}

function fileDeleted(job: QuestionnaireJob, retentionDays: number): FolioError {
  return new FolioError(
    "questionnaire_file_deleted",
    `The file of ${job.fileName} was deleted ${retentionDays} days after the job finished (FOLIO_QUESTIONNAIRE_RETENTION_DAYS) — answer the questionnaire again to get a filled copy.`,
    { details: { status: 410 } },
  );
}

function busy(maxWriting: number): FolioError {
  return new FolioError(
    "questionnaire_copy_busy",
    `Folio is writing ${maxWriting} filled cop${maxWriting === 1 ? "y" : "ies"} already — try again in a few seconds.`,
    { retryable: true, details: { status: 429, retryAfterSeconds: 5 } },
  );
}

export function createFilledCopies(options: FilledCopyOptions): FilledCopies {
  const { store, logger } = options;
  const keptBytes = options.keptBytes ?? DEFAULT_KEPT_BYTES;
  /** Job id -> its last copy; a Map keeps insertion order, so the first entry is the least recently used. */
  const kept = new Map<string, { version: string; copy: FilledCopy }>();
  /** "jobId:version" -> the copy being written. */
  const inFlight = new Map<string, Promise<FilledCopy | null>>();
  let writing = 0;

  const keep = (id: string, version: string, copy: FilledCopy) => {
    kept.delete(id);
    if (copy.bytes.byteLength > keptBytes) return;
    kept.set(id, { version, copy });
    let total = 0;
    for (const entry of kept.values()) total += entry.copy.bytes.byteLength;
    for (const [oldest, entry] of kept) {
      if (total <= keptBytes) break;
      kept.delete(oldest);
      total -= entry.copy.bytes.byteLength;
    }
  };

  const writeCopy = async (job: QuestionnaireJob, version: string): Promise<FilledCopy | null> => {
    const [bytes, rows] = await Promise.all([store.getJobBytes(job.id), store.listRows(job.id)]);
    if (!bytes) return null;
    let copy: FilledCopy;
    try {
      copy = await options.write({
        bytes,
        fileName: job.fileName,
        format: job.format,
        layouts: job.layouts,
        rows: rows.map((row) => ({
          sheetIndex: row.question.sheetIndex,
          rowNumber: row.question.rowNumber,
          answer: row.result,
        })),
      });
    } catch (error) {
      // The worker's verdict on this file (a limit, its time or memory): recorded, so it is not tried again.
      if (!isFolioError(error) || !error.code.startsWith("questionnaire_")) throw error;
      const recorded = { code: error.code, message: error.message };
      await store.recordCopyError(job.id, recorded);
      logger.warn({ jobId: job.id, code: error.code }, "filled copy refused; recorded with the job");
      throw copyRefusal(job, recorded);
    }
    keep(job.id, version, copy);
    return copy;
  };

  return {
    async copyOf(id, request = {}) {
      const job = await store.getJob(id);
      if (!job) return null;
      if (job.fileDeletedAt !== null) throw fileDeleted(job, options.retentionDays);
      if (job.copyError) throw copyRefusal(job, job.copyError);
      const version = await store.answerVersion(id);
      const found = kept.get(id);
      if (found?.version === version) {
        // Most recently used now.
        kept.delete(id);
        kept.set(id, found);
        return found.copy;
      }
      const key = `${id}:${version}`;
      const running = inFlight.get(key);
      if (running) return running;
      if (writing >= options.maxWriting && request.whenBusy === "refuse") throw busy(options.maxWriting);
      writing += 1;
      const written = writeCopy(job, version).finally(() => {
        writing -= 1;
        inFlight.delete(key);
      });
      inFlight.set(key, written);
      return written;
    },
    get writing() {
      return writing;
    },
  };
}
