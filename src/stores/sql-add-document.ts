/**
 * Stores a document with its original bytes, pages, chunks and their term counts in one transaction,
 * and adds the chunks to their space's BM25 statistics in the same transaction.
 */
import { randomUUID } from "node:crypto";
import { FolioError } from "../errors.js";
import type { Catalog, ChunkToStore } from "./catalog.js";
import { DOCUMENT_COLUMNS, type DocumentRow, toDocument } from "./catalog-rows.js";
import type { SqlClient } from "./sql-client.js";
import { addToStatistics } from "./sql-term-statistics.js";
import { isUniqueViolation, toIntegerArrayLiteral } from "./sql-values.js";

export function createSqlAddDocument(client: SqlClient): Catalog["addDocument"] {
  return async function addDocument({ document, pages, chunks, jobId }) {
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
      if (!documentRow) throw new FolioError("document_insert_failed", "The database did not return the new document.");
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
  };
}
