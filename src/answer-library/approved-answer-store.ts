/**
 * Where approved answers are kept: one row per question/answer pair, per space, with its origin and the
 * embedding of its question (migration 0004_approved_answers). Written once in SQL that runs on both
 * embedded PGlite and PostgreSQL (src/stores/sql-client.ts).
 */
import { randomUUID } from "node:crypto";
import type { SqlClient } from "../stores/sql-client.js";

export type NewApprovedAnswer = {
  question: string;
  answer: string;
  sheet: string | null;
  row: number | null;
};

export type ApprovedAnswerRecord = {
  id: string;
  spaceId: string;
  question: string;
  answer: string;
  file: string;
  sheet: string | null;
  row: number | null;
  addedBy: string | null;
  addedAt: Date;
};

/** A record with its question's embedding, when one was made (and by which model). */
export type ApprovedAnswerForMatching = ApprovedAnswerRecord & {
  embeddingModel: string | null;
  embedding: number[] | null;
};

export type AddApprovedAnswersRequest = {
  spaceId: string;
  file: string;
  addedBy: string | null;
  entries: Array<NewApprovedAnswer & { embedding?: { model: string; vector: number[] } }>;
};

export interface ApprovedAnswerStore {
  /**
   * Stores the pairs of one completed questionnaire. Pairs added earlier from a file of the same name in
   * the same space are replaced (a corrected questionnaire added again supersedes the old one), in the
   * same transaction.
   */
  addFromFile(request: AddApprovedAnswersRequest): Promise<{ added: ApprovedAnswerRecord[]; replaced: number }>;
  /** The space's approved answers, by file, then sheet and row. */
  list(spaceId: string): Promise<ApprovedAnswerRecord[]>;
  listForMatching(spaceId: string): Promise<ApprovedAnswerForMatching[]>;
  /** Records the embeddings made for questions stored without one (or by another model). */
  saveEmbeddings(model: string, embeddings: Array<{ id: string; vector: number[] }>): Promise<void>;
  /** True when an approved answer with this id was in this space and is now gone. */
  remove(spaceId: string, id: string): Promise<boolean>;
}

type Row = {
  id: string;
  space_id: string;
  question: string;
  answer: string;
  source_file: string;
  source_sheet: string | null;
  source_row: number | null;
  added_by: string | null;
  added_at: Date;
};

const COLUMNS = "id, space_id, question, answer, source_file, source_sheet, source_row, added_by, added_at";
const ORDER = "ORDER BY source_file, source_sheet NULLS FIRST, source_row NULLS FIRST, added_at, id";
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toRecord(row: Row): ApprovedAnswerRecord {
  return {
    id: row.id,
    spaceId: row.space_id,
    question: row.question,
    answer: row.answer,
    file: row.source_file,
    sheet: row.source_sheet,
    row: row.source_row,
    addedBy: row.added_by,
    addedAt: row.added_at instanceof Date ? row.added_at : new Date(row.added_at),
  };
}

export function createSqlApprovedAnswerStore(client: SqlClient): ApprovedAnswerStore {
  return {
    addFromFile(request) {
      return client.transaction(async (transaction) => {
        const removed = await transaction.query<{ id: string }>(
          "DELETE FROM approved_answers WHERE space_id = $1 AND source_file = $2 RETURNING id",
          [request.spaceId, request.file],
        );
        const added: ApprovedAnswerRecord[] = [];
        for (const entry of request.entries) {
          const { rows } = await transaction.query<Row>(
            `INSERT INTO approved_answers
               (id, space_id, question, answer, source_file, source_sheet, source_row, added_by, embedding_model, embedding)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::real[])
             RETURNING ${COLUMNS}`,
            [
              randomUUID(),
              request.spaceId,
              entry.question,
              entry.answer,
              request.file,
              entry.sheet,
              entry.row,
              request.addedBy,
              entry.embedding?.model ?? null,
              entry.embedding ? entry.embedding.vector : null,
            ],
          );
          const row = rows[0];
          if (row) added.push(toRecord(row));
        }
        return { added, replaced: removed.rows.length };
      });
    },

    async list(spaceId) {
      const { rows } = await client.query<Row>(`SELECT ${COLUMNS} FROM approved_answers WHERE space_id = $1 ${ORDER}`, [
        spaceId,
      ]);
      return rows.map(toRecord);
    },

    async listForMatching(spaceId) {
      const { rows } = await client.query<Row & { embedding_model: string | null; embedding: number[] | null }>(
        `SELECT ${COLUMNS}, embedding_model, embedding FROM approved_answers WHERE space_id = $1 ${ORDER}`,
        [spaceId],
      );
      return rows.map((row) => ({
        ...toRecord(row),
        embeddingModel: row.embedding_model,
        embedding: row.embedding === null ? null : row.embedding.map(Number),
      }));
    },

    async saveEmbeddings(model, embeddings) {
      if (embeddings.length === 0) return;
      await client.transaction(async (transaction) => {
        for (const { id, vector } of embeddings) {
          await transaction.query(
            "UPDATE approved_answers SET embedding_model = $1, embedding = $2::real[] WHERE id = $3",
            [model, vector, id],
          );
        }
      });
    },

    async remove(spaceId, id) {
      if (!UUID_PATTERN.test(id)) return false;
      const { rows } = await client.query<{ id: string }>(
        "DELETE FROM approved_answers WHERE space_id = $1 AND id = $2 RETURNING id",
        [spaceId, id],
      );
      return rows.length > 0;
    },
  };
}
