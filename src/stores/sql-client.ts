/**
 * The smallest SQL surface the catalog and the pgvector index need, implemented for PGlite (embedded)
 * and PostgreSQL (`pg`), so every query is written once and runs on both.
 */
export type SqlRows<Row> = { rows: Row[] };

export interface SqlExecutor {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<SqlRows<Row>>;
}

export interface SqlClient extends SqlExecutor {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (transaction: SqlExecutor) => Promise<T>): Promise<T>;
  /** Which engine is behind the client, for logs and engine-specific SQL. */
  readonly kind: "pglite" | "postgres";
  close(): Promise<void>;
}
