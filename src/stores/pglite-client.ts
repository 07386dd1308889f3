/**
 * SqlClient on PGlite (Postgres compiled to WebAssembly, in this process) with the pgvector extension
 * loaded, for the embedded default. `dataDir` "memory://" keeps everything in memory (tests).
 * PGlite runs one statement at a time and never interleaves a transaction with other queries, so the
 * embedded database is for one Folio process; several replicas need PostgreSQL.
 */
import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { FolioError } from "../errors.js";
import type { SqlClient, SqlExecutor } from "./sql-client.js";

function executorOf(target: Pick<PGlite, "query">): SqlExecutor {
  return {
    async query<Row>(sql: string, params: unknown[] = []) {
      const result = await target.query<Row>(sql, params);
      return { rows: result.rows };
    },
  };
}

export async function openPgliteClient(dataDir: string): Promise<SqlClient> {
  let database: PGlite;
  try {
    if (!dataDir.startsWith("memory://")) await mkdir(dataDir, { recursive: true });
    database = await PGlite.create(dataDir, { extensions: { vector } });
  } catch (error) {
    throw new FolioError(
      "database_open_failed",
      `Cannot open the embedded database in ${dataDir} (${error instanceof Error ? error.message : String(error)}); check that FOLIO_DATA_DIR is writable and not used by another Folio process.`,
      { cause: error },
    );
  }
  return {
    kind: "pglite",
    ...executorOf(database),
    transaction: (work) => database.transaction((transaction) => work(executorOf(transaction))),
    close: () => database.close(),
  };
}
