/**
 * The catalog's documents in SQL once stored (see sql-add-document.ts): reading them, their bytes,
 * pages and chunks, marking one ready once its vectors are written, and removing one with its term
 * statistics.
 */
import type { DocumentRecord, PageText } from "../domain/types.js";
import { FolioError } from "../errors.js";
import type { Catalog } from "./catalog.js";
import {
  CHUNK_COLUMNS,
  type ChunkRow,
  DOCUMENT_COLUMNS,
  type DocumentRow,
  JOINED_CHUNK_COLUMNS,
  toChunk,
  toDocument,
} from "./catalog-rows.js";
import type { SqlClient } from "./sql-client.js";
import { removeFromStatistics } from "./sql-term-statistics.js";
import { isUuid, toPlainBytes } from "./sql-values.js";

export type SqlDocuments = Pick<
  Catalog,
  | "findDocumentBySha256"
  | "getDocument"
  | "markDocumentReady"
  | "markDocumentMeaningReady"
  | "listDocumentsAwaitingMeaning"
  | "getDocumentBytes"
  | "listDocuments"
  | "deleteDocument"
  | "getPages"
  | "listChunks"
  | "getDocuments"
  | "getChunks"
>;

export function createSqlDocuments(client: SqlClient): SqlDocuments {
  return {
    async findDocumentBySha256(spaceId, sha256) {
      const { rows } = await client.query<DocumentRow>(
        `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE space_id = $1 AND sha256 = $2`,
        [spaceId, sha256],
      );
      return rows[0] ? toDocument(rows[0]) : null;
    },

    async getDocument(id): Promise<DocumentRecord | null> {
      if (!isUuid(id)) return null;
      const { rows } = await client.query<DocumentRow>(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = $1`, [id]);
      return rows[0] ? toDocument(rows[0]) : null;
    },

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
  };
}
