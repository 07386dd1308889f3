/**
 * The catalog in SQL, written once for PGlite and PostgreSQL. Besides documents, pages and chunks it
 * keeps BM25 corpus statistics per space (chunk count, total length, document frequency per term),
 * updated in the same transaction as the chunks, so IDF is always exact for the live corpus.
 */
import { randomUUID } from "node:crypto";
import type {
  ChunkRecord,
  DocumentRecord,
  Feedback,
  IngestionJob,
  IngestionJobStatus,
  MediaType,
  PageText,
  Provenance,
  Space,
} from "../domain/types.js";
import { FolioError } from "../errors.js";
import type { Catalog, ChunkToStore, JobUpdate, TermCounts, TermStatistics } from "./catalog.js";
import type { SqlClient, SqlExecutor } from "./sql-client.js";

type DocumentRow = {
  id: string;
  space_id: string;
  title: string;
  file_name: string;
  media_type: string;
  sha256: string;
  byte_size: number;
  page_count: number | null;
  uploader: string | null;
  status: string;
  awaiting_meaning: boolean;
  created_at: Date;
};

type ChunkRow = {
  id: string;
  document_id: string;
  space_id: string;
  kind: string;
  text: string;
  token_count: number;
  position: number;
  provenance: Provenance;
};

type JobRow = {
  id: string;
  space_id: string;
  file_name: string;
  status: string;
  document_id: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  updated_at: Date;
};

type FeedbackRow = {
  id: string;
  answer_id: string;
  space_id: string;
  user_id: string;
  rating: string;
  comment: string | null;
  created_at: Date;
};

const DOCUMENT_COLUMNS =
  "id, space_id, title, file_name, media_type, sha256, byte_size, page_count, uploader, status, awaiting_meaning, created_at";
const CHUNK_COLUMNS = "id, document_id, space_id, kind, text, token_count, position, provenance";
/** CHUNK_COLUMNS of `chunks AS c`, for queries that join the chunk's document. */
const JOINED_CHUNK_COLUMNS = CHUNK_COLUMNS.split(", ")
  .map((column) => `c.${column}`)
  .join(", ");

const ALLOWED_JOB_TRANSITIONS: Record<IngestionJobStatus, IngestionJobStatus[]> = {
  queued: ["running"],
  running: ["succeeded", "failed"],
  succeeded: [],
  failed: [],
};

function toDocument(row: DocumentRow): DocumentRecord {
  return {
    id: row.id,
    spaceId: row.space_id,
    title: row.title,
    fileName: row.file_name,
    mediaType: row.media_type as MediaType,
    sha256: row.sha256,
    byteSize: row.byte_size,
    pageCount: row.page_count,
    uploader: row.uploader,
    status: row.status as DocumentRecord["status"],
    awaitingMeaning: row.awaiting_meaning,
    createdAt: row.created_at,
  };
}

function toChunk(row: ChunkRow): ChunkRecord {
  return {
    id: row.id,
    documentId: row.document_id,
    spaceId: row.space_id,
    kind: row.kind as ChunkRecord["kind"],
    text: row.text,
    tokenCount: row.token_count,
    position: row.position,
    provenance: row.provenance,
  };
}

function toJob(row: JobRow): IngestionJob {
  return {
    id: row.id,
    spaceId: row.space_id,
    fileName: row.file_name,
    status: row.status as IngestionJobStatus,
    documentId: row.document_id,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toFeedback(row: FeedbackRow): Feedback {
  return {
    id: row.id,
    answerId: row.answer_id,
    spaceId: row.space_id,
    user: row.user_id,
    rating: row.rating as Feedback["rating"],
    comment: row.comment,
    createdAt: row.created_at,
  };
}

/** Chunks containing each term, summed over the given chunks; ids ascending so row locks are taken in one order. */
function countDocumentFrequencies(termLists: TermCounts[]): { termIds: number[]; frequencies: number[] } {
  const frequencies = new Map<number, number>();
  for (const terms of termLists) {
    // A term listed twice in one chunk still makes one chunk that contains it.
    for (const termId of new Set(terms.termIds)) frequencies.set(termId, (frequencies.get(termId) ?? 0) + 1);
  }
  const termIds = [...frequencies.keys()].sort((left, right) => left - right);
  return { termIds, frequencies: termIds.map((termId) => frequencies.get(termId) ?? 0) };
}

/** Adds the chunks' terms to their space's BM25 statistics. The space row is locked first, always. */
async function addToStatistics(executor: SqlExecutor, spaceId: string, termLists: TermCounts[]): Promise<void> {
  const { termIds, frequencies } = countDocumentFrequencies(termLists);
  const totalLength = termLists.reduce((sum, terms) => sum + terms.length, 0);
  await executor.query(
    "UPDATE spaces SET chunk_count = chunk_count + $2, total_length = total_length + $3 WHERE id = $1",
    [spaceId, termLists.length, totalLength],
  );
  if (termIds.length === 0) return;
  await executor.query(
    `INSERT INTO term_document_frequencies (space_id, term_id, document_frequency)
     SELECT $1, term_id, frequency FROM unnest($2::integer[], $3::integer[]) AS t(term_id, frequency)
     ON CONFLICT (space_id, term_id)
     DO UPDATE SET document_frequency = term_document_frequencies.document_frequency + excluded.document_frequency`,
    [spaceId, termIds, frequencies],
  );
}

/** Takes a document's chunks out of its space's BM25 statistics, computed from the stored term rows. */
async function removeFromStatistics(executor: SqlExecutor, spaceId: string, documentId: string): Promise<void> {
  await executor.query(
    `UPDATE spaces AS s SET chunk_count = s.chunk_count - d.chunk_count, total_length = s.total_length - d.total_length
     FROM (SELECT count(*) AS chunk_count, coalesce(sum(length), 0) AS total_length
           FROM chunk_terms WHERE document_id = $2) AS d
     WHERE s.id = $1`,
    [spaceId, documentId],
  );
  await executor.query(
    `UPDATE term_document_frequencies AS f SET document_frequency = f.document_frequency - d.frequency
     FROM (SELECT term_id, count(*) AS frequency
           FROM (SELECT DISTINCT chunk_id, unnest(term_ids) AS term_id FROM chunk_terms WHERE document_id = $2) AS u
           GROUP BY term_id) AS d
     WHERE f.space_id = $1 AND f.term_id = d.term_id`,
    [spaceId, documentId],
  );
  await executor.query("DELETE FROM term_document_frequencies WHERE space_id = $1 AND document_frequency <= 0", [
    spaceId,
  ]);
}

/** Postgres array literal for one row of an `integer[]` column passed through `unnest($n::text[])`. */
function toIntegerArrayLiteral(values: number[]): string {
  return `{${values.map((value) => Math.trunc(value)).join(",")}}`;
}

/**
 * Ids are uuid columns, and Postgres rejects a malformed uuid with an error; an id that is not a uuid
 * (a hand-edited viewer link, another platform's id) simply names nothing.
 */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isUuid(id: string): boolean {
  return UUID_PATTERN.test(id);
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "23505";
}

/** bytea comes back as Buffer from `pg` and Uint8Array from PGlite; callers get a plain Uint8Array. */
function toPlainBytes(value: Uint8Array): Uint8Array {
  return new Uint8Array(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
}

export function createSqlCatalog(client: SqlClient): Catalog {
  async function getSpace(id: string): Promise<Space | null> {
    const { rows } = await client.query<{ id: string; title: string; created_at: Date }>(
      "SELECT id, title, created_at FROM spaces WHERE id = $1",
      [id],
    );
    const row = rows[0];
    return row ? { id: row.id, title: row.title, createdAt: row.created_at } : null;
  }

  async function getDocument(id: string): Promise<DocumentRecord | null> {
    if (!isUuid(id)) return null;
    const { rows } = await client.query<DocumentRow>(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = $1`, [id]);
    return rows[0] ? toDocument(rows[0]) : null;
  }

  async function getJob(id: string): Promise<IngestionJob | null> {
    if (!isUuid(id)) return null;
    const { rows } = await client.query<JobRow>("SELECT * FROM ingestion_jobs WHERE id = $1", [id]);
    return rows[0] ? toJob(rows[0]) : null;
  }

  return {
    async ensureSpace(id, title) {
      await client.query("INSERT INTO spaces (id, title) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", [
        id,
        title ?? id,
      ]);
      const space = await getSpace(id);
      if (!space) throw new FolioError("space_missing", `Space ${id} vanished right after it was created.`);
      return space;
    },
    getSpace,

    async listSpaces() {
      const { rows } = await client.query<{ id: string; title: string; created_at: Date }>(
        "SELECT id, title, created_at FROM spaces ORDER BY created_at, id",
      );
      return rows.map((row) => ({ id: row.id, title: row.title, createdAt: row.created_at }));
    },

    async findDocumentBySha256(spaceId, sha256) {
      const { rows } = await client.query<DocumentRow>(
        `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE space_id = $1 AND sha256 = $2`,
        [spaceId, sha256],
      );
      return rows[0] ? toDocument(rows[0]) : null;
    },

    async addDocument({ document, pages, chunks, jobId }) {
      const documentId = randomUUID();
      const chunkIds = chunks.map(() => randomUUID());
      const stored = client.transaction(async (transaction) => {
        await transaction.query("INSERT INTO spaces (id, title) VALUES ($1, $1) ON CONFLICT (id) DO NOTHING", [
          document.spaceId,
        ]);
        const { rows } = await transaction.query<DocumentRow>(
          `INSERT INTO documents (id, space_id, title, file_name, media_type, sha256, byte_size, page_count, uploader, bytes, status, awaiting_meaning)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${DOCUMENT_COLUMNS}`,
          [
            documentId,
            document.spaceId,
            document.title,
            document.fileName,
            document.mediaType,
            document.sha256,
            document.byteSize,
            document.pageCount,
            document.uploader,
            Buffer.from(document.bytes),
            jobId === undefined ? "ready" : "indexing",
            document.awaitingMeaning ?? false,
          ],
        );
        // Linked in the same transaction: a crash after the commit always leaves a job that names the document.
        if (jobId !== undefined) {
          await transaction.query(
            "UPDATE ingestion_jobs SET document_id = $2, updated_at = clock_timestamp() WHERE id = $1",
            [jobId, documentId],
          );
        }
        if (pages.length > 0) {
          await transaction.query(
            `INSERT INTO pages (document_id, page_number, text)
             SELECT $1, page_number, text FROM unnest($2::integer[], $3::text[]) AS p(page_number, text)`,
            [documentId, pages.map((page) => page.pageNumber), pages.map((page) => page.text)],
          );
        }
        if (chunks.length > 0) {
          await transaction.query(
            `INSERT INTO chunks (id, document_id, space_id, kind, text, token_count, position, provenance)
             SELECT id, $1, $2, kind, text, token_count, position, provenance::jsonb
             FROM unnest($3::uuid[], $4::text[], $5::text[], $6::integer[], $7::integer[], $8::text[])
               AS c(id, kind, text, token_count, position, provenance)`,
            [
              documentId,
              document.spaceId,
              chunkIds,
              chunks.map((chunk) => chunk.kind),
              chunks.map((chunk) => chunk.text),
              chunks.map((chunk) => chunk.tokenCount),
              chunks.map((chunk) => chunk.position),
              chunks.map((chunk) => JSON.stringify(chunk.provenance)),
            ],
          );
          await transaction.query(
            `INSERT INTO chunk_terms (chunk_id, document_id, space_id, term_ids, counts, length)
             SELECT chunk_id, $1, $2, term_ids::integer[], counts::integer[], length
             FROM unnest($3::uuid[], $4::text[], $5::text[], $6::integer[]) AS t(chunk_id, term_ids, counts, length)`,
            [
              documentId,
              document.spaceId,
              chunkIds,
              chunks.map((chunk) => toIntegerArrayLiteral(chunk.terms.termIds)),
              chunks.map((chunk) => toIntegerArrayLiteral(chunk.terms.counts)),
              chunks.map((chunk) => chunk.terms.length),
            ],
          );
          await addToStatistics(
            transaction,
            document.spaceId,
            chunks.map((chunk: ChunkToStore) => chunk.terms),
          );
        }
        const documentRow = rows[0];
        if (!documentRow)
          throw new FolioError("document_insert_failed", "The database did not return the new document.");
        return {
          document: toDocument(documentRow),
          chunks: chunks.map((chunk, index) => ({
            id: chunkIds[index] ?? "",
            documentId,
            spaceId: document.spaceId,
            kind: chunk.kind,
            text: chunk.text,
            tokenCount: chunk.tokenCount,
            position: chunk.position,
            provenance: chunk.provenance,
          })),
        };
      });
      return stored.catch((error: unknown) => {
        if (!isUniqueViolation(error)) throw error;
        throw new FolioError(
          "duplicate_document",
          `A document with sha256 ${document.sha256} is already in space ${document.spaceId}.`,
          { cause: error, details: { spaceId: document.spaceId, sha256: document.sha256 } },
        );
      });
    },

    getDocument,

    async markDocumentReady(id) {
      const { rows } = await client.query(
        "UPDATE documents SET status = 'ready' WHERE id = $1 AND status = 'indexing' RETURNING id",
        [isUuid(id) ? id : null],
      );
      if (rows.length === 0) {
        throw new FolioError(
          "document_not_indexing",
          `Document ${id} is no longer being indexed (removed as an interrupted ingestion?) — upload the file again.`,
        );
      }
    },

    async markDocumentMeaningReady(id) {
      if (!isUuid(id)) return false;
      const { rows } = await client.query(
        "UPDATE documents SET awaiting_meaning = false WHERE id = $1 AND awaiting_meaning RETURNING id",
        [id],
      );
      return rows.length > 0;
    },

    async listDocumentsAwaitingMeaning() {
      const { rows } = await client.query<DocumentRow>(
        `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE awaiting_meaning AND status = 'ready' ORDER BY created_at, id`,
      );
      return rows.map(toDocument);
    },

    async getDocumentBytes(id) {
      if (!isUuid(id)) return null;
      const { rows } = await client.query<{ bytes: Uint8Array }>("SELECT bytes FROM documents WHERE id = $1", [id]);
      return rows[0] ? toPlainBytes(rows[0].bytes) : null;
    },

    async listDocuments(spaceId) {
      const { rows } = await client.query<DocumentRow>(
        `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE space_id = $1 ORDER BY created_at, id`,
        [spaceId],
      );
      return rows.map(toDocument);
    },

    async deleteDocument(id) {
      if (!isUuid(id)) return false;
      return client.transaction(async (transaction) => {
        const { rows } = await transaction.query<{ space_id: string }>(
          "SELECT space_id FROM documents WHERE id = $1 FOR UPDATE",
          [id],
        );
        const document = rows[0];
        if (!document) return false;
        await removeFromStatistics(transaction, document.space_id, id);
        await transaction.query("DELETE FROM documents WHERE id = $1", [id]);
        return true;
      });
    },

    async getPages(documentId) {
      if (!isUuid(documentId)) return [];
      const { rows } = await client.query<{ page_number: number; text: string }>(
        "SELECT page_number, text FROM pages WHERE document_id = $1 ORDER BY page_number",
        [documentId],
      );
      return rows.map((row): PageText => ({ pageNumber: row.page_number, text: row.text }));
    },

    async listChunks(documentId) {
      if (!isUuid(documentId)) return [];
      const { rows } = await client.query<ChunkRow>(
        `SELECT ${CHUNK_COLUMNS} FROM chunks WHERE document_id = $1 ORDER BY position`,
        [documentId],
      );
      return rows.map(toChunk);
    },

    async getDocuments(ids) {
      const knownShape = [...new Set(ids.filter(isUuid))];
      if (knownShape.length === 0) return [];
      const { rows } = await client.query<DocumentRow>(
        `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = ANY($1::uuid[])`,
        [knownShape],
      );
      return rows.map(toDocument);
    },

    async getChunks(ids) {
      const knownShape = ids.filter(isUuid);
      if (knownShape.length === 0) return [];
      // Chunks of a document still indexing (or left by an interrupted ingestion) are never search results.
      const { rows } = await client.query<ChunkRow>(
        `SELECT ${JOINED_CHUNK_COLUMNS} FROM chunks AS c JOIN documents AS d ON d.id = c.document_id
         WHERE c.id = ANY($1::uuid[]) AND d.status = 'ready'`,
        [knownShape],
      );
      const byId = new Map(rows.map((row) => [row.id, toChunk(row)]));
      return ids.flatMap((id) => {
        const chunk = byId.get(id);
        return chunk ? [chunk] : [];
      });
    },

    async listChunkTerms(spaceId) {
      const { rows } = await client.query<{
        chunk_id: string;
        document_id: string;
        term_ids: number[];
        counts: number[];
        length: number;
      }>(
        `SELECT t.chunk_id, t.document_id, t.term_ids, t.counts, t.length
         FROM chunk_terms AS t JOIN chunks AS c ON c.id = t.chunk_id JOIN documents AS d ON d.id = t.document_id
         WHERE t.space_id = $1 AND d.status = 'ready' ORDER BY t.document_id, c.position`,
        [spaceId],
      );
      return rows.map((row) => ({
        chunkId: row.chunk_id,
        documentId: row.document_id,
        terms: { termIds: row.term_ids, counts: row.counts, length: row.length },
      }));
    },

    async getTermStatistics(spaceIds, termIds): Promise<TermStatistics> {
      const totals = await client.query<{ chunk_count: number; total_length: number }>(
        `SELECT coalesce(sum(chunk_count), 0)::float8 AS chunk_count, coalesce(sum(total_length), 0)::float8 AS total_length
         FROM spaces WHERE id = ANY($1::text[])`,
        [spaceIds],
      );
      const documentFrequencies = new Map<number, number>();
      if (termIds.length > 0) {
        const { rows } = await client.query<{ term_id: number; frequency: number }>(
          `SELECT term_id, sum(document_frequency)::float8 AS frequency FROM term_document_frequencies
           WHERE space_id = ANY($1::text[]) AND term_id = ANY($2::integer[]) GROUP BY term_id`,
          [spaceIds, termIds],
        );
        for (const row of rows) documentFrequencies.set(row.term_id, row.frequency);
      }
      return {
        chunkCount: totals.rows[0]?.chunk_count ?? 0,
        totalLength: totals.rows[0]?.total_length ?? 0,
        documentFrequencies,
      };
    },

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

    getJob,

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

    async markEventProcessed(eventId) {
      const { rows } = await client.query(
        "INSERT INTO processed_events (event_id) VALUES ($1) ON CONFLICT (event_id) DO NOTHING RETURNING event_id",
        [eventId],
      );
      return rows.length === 1;
    },

    async releaseEvent(eventId) {
      await client.query("DELETE FROM processed_events WHERE event_id = $1", [eventId]);
    },

    async addFeedback({ answerId, spaceId, user, rating, comment }) {
      const { rows } = await client.query<FeedbackRow>(
        `INSERT INTO feedback (id, answer_id, space_id, user_id, rating, comment)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
        [randomUUID(), answerId, spaceId, user, rating, comment ?? null],
      );
      if (!rows[0]) throw new FolioError("feedback_insert_failed", "The database did not return the new feedback.");
      return toFeedback(rows[0]);
    },

    async listFeedback(answerId) {
      const { rows } = await client.query<FeedbackRow>("SELECT * FROM feedback WHERE answer_id = $1 ORDER BY seq", [
        answerId,
      ]);
      return rows.map(toFeedback);
    },

    async getSetting(key) {
      const { rows } = await client.query<{ value: string }>("SELECT value FROM settings WHERE key = $1", [key]);
      return rows[0]?.value ?? null;
    },

    async setSetting(key, value) {
      if (value === null) {
        await client.query("DELETE FROM settings WHERE key = $1", [key]);
        return;
      }
      await client.query(
        `INSERT INTO settings (key, value) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = now()`,
        [key, value],
      );
    },

    async close() {
      // The shared SQL client belongs to open-stores.ts, which closes it.
    },
  };
}
