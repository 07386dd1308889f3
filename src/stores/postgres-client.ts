/**
 * SqlClient on a PostgreSQL server through a `pg` connection pool (production catalog, and pgvector
 * when the server has the extension). Queries outside a transaction may run on different connections,
 * so concurrent callers really are concurrent, as they are across Folio replicas.
 */
import pg from "pg";
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import { toCatalogError } from "./postgres-errors.js";
import type { SqlClient, SqlExecutor } from "./sql-client.js";

export type PostgresClientOptions = {
  /** Pool size; the default suits one Folio process. */
  maxConnections?: number;
  logger?: Logger;
};

function executorOf(target: pg.Pool | pg.PoolClient): SqlExecutor {
  return {
    async query<Row>(sql: string, params: unknown[] = []) {
      const result = await target.query(sql, params).catch((error: unknown) => {
        throw toCatalogError(error);
      });
      return { rows: result.rows as Row[] };
    },
  };
}

export async function openPostgresClient(databaseUrl: string, options: PostgresClientOptions = {}): Promise<SqlClient> {
  // A server that stops answering fails a query within seconds instead of holding the asker forever.
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: 5_000,
  });
  // An idle connection dropped by the server must not crash the process; the pool replaces it.
  pool.on("error", (error) => options.logger?.warn({ error: error.message }, "idle PostgreSQL connection failed"));
  // Fail at start-up, with the server's reason, rather than on the first question.
  try {
    const probe = await pool.connect();
    probe.release();
  } catch (error) {
    await pool.end();
    throw new FolioError(
      "database_unreachable",
      `Cannot connect to PostgreSQL (${error instanceof Error ? error.message : String(error)}); check DATABASE_URL and that the server is running.`,
      { cause: error, retryable: true },
    );
  }
  return {
    kind: "postgres",
    ...executorOf(pool),
    async transaction(work) {
      const connection = await pool.connect().catch((error: unknown) => {
        throw toCatalogError(error);
      });
      let broken: Error | undefined;
      try {
        await connection.query("BEGIN");
        const result = await work(executorOf(connection));
        await connection.query("COMMIT");
        return result;
      } catch (error) {
        await connection.query("ROLLBACK").catch((rollbackError: Error) => {
          // A connection that cannot roll back is in an unknown state; the pool must discard it.
          broken = rollbackError;
        });
        throw error;
      } finally {
        connection.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
