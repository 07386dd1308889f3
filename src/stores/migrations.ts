/**
 * Schema migrations, applied in order and recorded in `schema_migrations`. A transaction-scoped
 * advisory lock makes concurrent start-ups (several Folio replicas) apply each migration once.
 * Vector tables are a separate migration that runs only where the pgvector extension exists.
 */
import type { Logger } from "../logger.js";
import { QUESTIONNAIRE_FOLLOW_UP_MIGRATIONS, QUESTIONNAIRE_MIGRATIONS } from "./questionnaire-migrations.js";
import { SPARSE_DIMENSIONS } from "./sparse-dimensions.js";
import type { SqlClient, SqlExecutor } from "./sql-client.js";

/** A named, ordered list of statements; once recorded in `schema_migrations` it never runs again. */
export type Migration = { name: string; statements: string[] };

/** Arbitrary constant identifying Folio's migration lock among other advisory locks. */
const MIGRATION_LOCK_ID = 4_711_2026;

export const CATALOG_MIGRATIONS: Migration[] = [
  {
    name: "0001_catalog",
    statements: [
      `CREATE TABLE spaces (
        id text PRIMARY KEY,
        title text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        chunk_count integer NOT NULL DEFAULT 0,
        total_length bigint NOT NULL DEFAULT 0
      )`,
      `CREATE TABLE documents (
        id uuid PRIMARY KEY,
        space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        title text NOT NULL,
        file_name text NOT NULL,
        media_type text NOT NULL,
        sha256 text NOT NULL,
        byte_size integer NOT NULL,
        page_count integer,
        uploader text,
        status text NOT NULL DEFAULT 'ready',
        bytes bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (space_id, sha256)
      )`,
      "CREATE INDEX documents_space_file ON documents (space_id, file_name)",
      `CREATE TABLE pages (
        document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        page_number integer NOT NULL,
        text text NOT NULL,
        PRIMARY KEY (document_id, page_number)
      )`,
      `CREATE TABLE chunks (
        id uuid PRIMARY KEY,
        document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        space_id text NOT NULL,
        kind text NOT NULL,
        text text NOT NULL,
        token_count integer NOT NULL,
        position integer NOT NULL,
        provenance jsonb NOT NULL
      )`,
      "CREATE INDEX chunks_document ON chunks (document_id, position)",
      "CREATE INDEX chunks_space ON chunks (space_id)",
      // Raw BM25 term counts per chunk, kept so sparse vectors can be rebuilt when corpus statistics drift.
      `CREATE TABLE chunk_terms (
        chunk_id uuid PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
        document_id uuid NOT NULL,
        space_id text NOT NULL,
        term_ids integer[] NOT NULL,
        counts integer[] NOT NULL,
        length integer NOT NULL
      )`,
      "CREATE INDEX chunk_terms_document ON chunk_terms (document_id)",
      "CREATE INDEX chunk_terms_space ON chunk_terms (space_id)",
      // Document frequency per (space, term), maintained with the chunks, so IDF needs one indexed lookup.
      `CREATE TABLE term_document_frequencies (
        space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        term_id integer NOT NULL,
        document_frequency integer NOT NULL,
        PRIMARY KEY (space_id, term_id)
      )`,
      `CREATE TABLE ingestion_jobs (
        id uuid PRIMARY KEY,
        space_id text NOT NULL,
        file_name text NOT NULL,
        status text NOT NULL,
        document_id uuid,
        error_code text,
        error_message text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`,
      `CREATE TABLE processed_events (
        event_id text PRIMARY KEY,
        processed_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE feedback (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        answer_id text NOT NULL,
        space_id text NOT NULL,
        user_id text NOT NULL,
        rating text NOT NULL,
        comment text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`,
      "CREATE INDEX feedback_answer ON feedback (answer_id)",
    ],
  },
  {
    name: "0002_settings",
    statements: [
      `CREATE TABLE settings (
        key text PRIMARY KEY,
        value text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
    ],
  },
  // Questionnaire jobs and their rows (src/questionnaire/jobs/questionnaire-job-store.ts).
  ...QUESTIONNAIRE_MIGRATIONS,
  {
    // Approved answers (src/answer-library/): question/answer pairs a team added from a completed
    // questionnaire, with where each came from. No foreign key to spaces: a space may hold approved
    // answers before it holds any document. The question's embedding is kept with the model that made it,
    // so matching embeds each stored question once and again only after a change of model.
    name: "0004_approved_answers",
    statements: [
      `CREATE TABLE approved_answers (
        id uuid PRIMARY KEY,
        space_id text NOT NULL,
        question text NOT NULL,
        answer text NOT NULL,
        source_file text NOT NULL,
        source_sheet text,
        source_row integer,
        added_by text,
        added_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        embedding_model text,
        embedding real[]
      )`,
      "CREATE INDEX approved_answers_space ON approved_answers (space_id, source_file)",
    ],
  },
  {
    name: "0005_documents_awaiting_meaning",
    statements: [
      // Searchable by keywords once stored; true until its dense vectors are written in the background.
      "ALTER TABLE documents ADD COLUMN awaiting_meaning boolean NOT NULL DEFAULT false",
    ],
  },
  // Where a chat questionnaire job reports (src/questionnaire/jobs/questionnaire-destination.ts), and cancel requests.
  ...QUESTIONNAIRE_FOLLOW_UP_MIGRATIONS,
];

/**
 * Vector tables, only where pgvector exists. The dense dimension is fixed when the table is created;
 * open-stores.ts checks it against the configured embedder on every start.
 */
export function vectorMigrations(denseDimensions: number, engine: "pglite" | "postgres"): Migration[] {
  return [
    {
      name: "0100_chunk_vectors",
      statements: [
        // No foreign key to chunks: the index is a separate store (Qdrant implements the same port).
        `CREATE TABLE chunk_vectors (
          chunk_id uuid PRIMARY KEY,
          document_id uuid NOT NULL,
          space_id text NOT NULL,
          dense vector(${denseDimensions}),
          sparse sparsevec(${SPARSE_DIMENSIONS})
        )`,
        "CREATE INDEX chunk_vectors_space ON chunk_vectors (space_id)",
        "CREATE INDEX chunk_vectors_document ON chunk_vectors (document_id)",
      ],
    },
    {
      name: "0101_dense_model",
      statements: [
        // Which embedding model made each dense vector, so a change of model is caught at start-up.
        "ALTER TABLE chunk_vectors ADD COLUMN dense_model text",
      ],
    },
    {
      name: "0102_dense_hnsw",
      statements: [
        // Approximate nearest neighbours by cosine for PostgreSQL servers; queries keep the space
        // filter inside the scan (pgvector's iterative index scan, see pgvector-index.ts). Embedded
        // PGlite answers from memory instead, and there an HNSW insert costs ~12 ms (WebAssembly).
        ...(engine === "postgres"
          ? ["CREATE INDEX chunk_vectors_dense_hnsw ON chunk_vectors USING hnsw (dense vector_cosine_ops)"]
          : []),
      ],
    },
    {
      name: "0103_chunk_vector_space_versions",
      // Embedded PGlite only: a version per space that every write to its rows bumps, in the writing
      // statement's own transaction. A saved copy of a space's search structures records the version
      // it matches, so a restart can tell it is current without reading the rows
      // (dense-index-snapshots.ts). Statement-level triggers: one bump per space per statement.
      statements:
        engine === "pglite"
          ? [
              `CREATE TABLE chunk_vector_space_versions (
                space_id text PRIMARY KEY,
                version bigint NOT NULL
              )`,
              `CREATE FUNCTION bump_chunk_vector_space_versions() RETURNS trigger LANGUAGE plpgsql AS $$
              BEGIN
                IF TG_OP = 'TRUNCATE' THEN
                  UPDATE chunk_vector_space_versions SET version = version + 1;
                  RETURN NULL;
                END IF;
                IF TG_OP IN ('INSERT', 'UPDATE') THEN
                  INSERT INTO chunk_vector_space_versions AS v (space_id, version)
                    SELECT DISTINCT space_id, 1 FROM new_rows
                    ON CONFLICT (space_id) DO UPDATE SET version = v.version + 1;
                END IF;
                IF TG_OP IN ('DELETE', 'UPDATE') THEN
                  INSERT INTO chunk_vector_space_versions AS v (space_id, version)
                    SELECT DISTINCT space_id, 1 FROM old_rows
                    ON CONFLICT (space_id) DO UPDATE SET version = v.version + 1;
                END IF;
                RETURN NULL;
              END $$`,
              `CREATE TRIGGER chunk_vectors_inserted AFTER INSERT ON chunk_vectors
                REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_chunk_vector_space_versions()`,
              `CREATE TRIGGER chunk_vectors_updated AFTER UPDATE ON chunk_vectors
                REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
                FOR EACH STATEMENT EXECUTE FUNCTION bump_chunk_vector_space_versions()`,
              `CREATE TRIGGER chunk_vectors_deleted AFTER DELETE ON chunk_vectors
                REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_chunk_vector_space_versions()`,
              `CREATE TRIGGER chunk_vectors_truncated AFTER TRUNCATE ON chunk_vectors
                FOR EACH STATEMENT EXECUTE FUNCTION bump_chunk_vector_space_versions()`,
            ]
          : [],
    },
  ];
}

export type MigrationOutcome = {
  /** Names of the migrations this call applied (empty when the schema was already current). */
  applied: string[];
  /** Whether the pgvector extension is installed in this database (and the vector tables exist). */
  hasVectorExtension: boolean;
};

/**
 * Brings the schema up to date: the catalog always, the vector tables when pgvector can be enabled.
 * Everything runs in one transaction holding an advisory lock, so a second process starting at the
 * same moment waits, then finds the migrations recorded and applies nothing.
 */
export async function migrateDatabase(
  client: SqlClient,
  options: { denseDimensions: number; logger: Logger },
): Promise<MigrationOutcome> {
  return client.transaction(async (transaction) => {
    await transaction.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_ID]);
    await transaction.query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const hasVectorExtension = await enableVectorExtension(transaction, options.logger);
    const applied = new Set(
      (await transaction.query<{ name: string }>("SELECT name FROM schema_migrations")).rows.map((row) => row.name),
    );
    const migrations = [
      ...CATALOG_MIGRATIONS,
      ...(hasVectorExtension ? vectorMigrations(options.denseDimensions, client.kind) : []),
    ];
    const appliedNow: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.name)) continue;
      for (const statement of migration.statements) await transaction.query(statement);
      await transaction.query("INSERT INTO schema_migrations (name) VALUES ($1)", [migration.name]);
      appliedNow.push(migration.name);
    }
    if (appliedNow.length > 0) options.logger.info({ migrations: appliedNow }, "database schema migrated");
    return { applied: appliedNow, hasVectorExtension };
  });
}

/**
 * Tries `CREATE EXTENSION vector` inside a savepoint: a server without pgvector (or a role not allowed
 * to create it) leaves the transaction usable and Folio runs with the catalog only.
 */
/** sparsevec, which holds the BM25 vectors, arrived in pgvector 0.7.0. */
const MINIMUM_PGVECTOR = [0, 7, 0];

export function isPgvectorRecentEnough(version: string): boolean {
  const parts = version.split(".").map((part) => Number.parseInt(part, 10) || 0);
  for (let index = 0; index < MINIMUM_PGVECTOR.length; index += 1) {
    const difference = (parts[index] ?? 0) - (MINIMUM_PGVECTOR[index] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  return true;
}

async function enableVectorExtension(transaction: SqlExecutor, logger: Logger): Promise<boolean> {
  const installed = await transaction.query<{ version: string }>(
    "SELECT extversion AS version FROM pg_extension WHERE extname = 'vector'",
  );
  const installedVersion = installed.rows[0]?.version;
  if (installedVersion !== undefined) {
    if (isPgvectorRecentEnough(installedVersion)) return true;
    // Without this check the vector migration fails on `sparsevec` and takes the catalog down with it.
    logger.warn(
      { pgvector: installedVersion },
      "pgvector is older than 0.7.0 (no sparsevec); run ALTER EXTENSION vector UPDATE to keep vectors in this database",
    );
    return false;
  }
  const available = await transaction.query<{ version: string }>(
    "SELECT default_version AS version FROM pg_available_extensions WHERE name = 'vector'",
  );
  const availableVersion = available.rows[0]?.version;
  if (availableVersion === undefined) {
    logger.warn({}, "the database server has no pgvector extension; vectors cannot be stored in it");
    return false;
  }
  if (!isPgvectorRecentEnough(availableVersion)) {
    logger.warn(
      { pgvector: availableVersion },
      "the server's pgvector is older than 0.7.0 (no sparsevec); upgrade it to keep vectors here",
    );
    return false;
  }
  await transaction.query("SAVEPOINT folio_vector_extension");
  try {
    await transaction.query("CREATE EXTENSION IF NOT EXISTS vector");
    await transaction.query("RELEASE SAVEPOINT folio_vector_extension");
    return true;
  } catch (error) {
    await transaction.query("ROLLBACK TO SAVEPOINT folio_vector_extension");
    logger.warn(
      { error: error instanceof Error ? error.message : String(error) },
      "could not enable the pgvector extension; vectors cannot be stored in this database",
    );
    return false;
  }
}
