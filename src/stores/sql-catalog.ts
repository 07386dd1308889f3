/**
 * The catalog in SQL, written once for PGlite and PostgreSQL, assembled from one module per concern:
 * spaces (sql-spaces.ts), storing a document (sql-add-document.ts), reading and removing documents,
 * pages and chunks (sql-documents.ts), BM25 corpus statistics kept in the same transaction as the
 * chunks so IDF is always exact for the live corpus (sql-term-statistics.ts), ingestion jobs
 * (sql-ingestion-jobs.ts), and the small records replicas share — processed events, feedback,
 * settings (sql-shared-records.ts).
 */
import type { Catalog } from "./catalog.js";
import { createSqlAddDocument } from "./sql-add-document.js";
import type { SqlClient } from "./sql-client.js";
import { createSqlDocuments } from "./sql-documents.js";
import { createSqlIngestionJobs } from "./sql-ingestion-jobs.js";
import { createSqlFeedback, createSqlProcessedEvents, createSqlSettings } from "./sql-shared-records.js";
import { createSqlSpaces } from "./sql-spaces.js";
import { createSqlTermStatistics } from "./sql-term-statistics.js";

export function createSqlCatalog(client: SqlClient): Catalog {
  return {
    ...createSqlSpaces(client),
    addDocument: createSqlAddDocument(client),
    ...createSqlDocuments(client),
    ...createSqlTermStatistics(client),
    ...createSqlIngestionJobs(client),
    ...createSqlProcessedEvents(client),
    ...createSqlFeedback(client),
    ...createSqlSettings(client),
    async close() {
      // The shared SQL client belongs to open-stores.ts, which closes it.
    },
  };
}
