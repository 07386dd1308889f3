/**
 * Runs the catalog and vector-index contracts on a real PostgreSQL server (`TEST_DATABASE_URL`, e.g. from
 * `eval "$(bash .ci/start-postgres.sh)"`). Every run works in a database of its own, dropped afterwards,
 * so runs repeat cleanly. The vector suite needs the pgvector extension on the server and is skipped,
 * by name, when it is missing.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { openStores, type Stores } from "../../src/stores/open-stores.js";
import { runCatalogContract } from "./catalog-contract.js";
import { runVectorIndexContract } from "./vector-index-contract.js";

const serverUrl = process.env.TEST_DATABASE_URL;

async function runAdminQuery(sql: string): Promise<pg.QueryResult> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** Creates an empty database on the test server; returns its URL and a function that drops it. */
async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `folio_test_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await runAdminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl ?? "");
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => void (await runAdminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

const serverHasPgvector = serverUrl
  ? (await runAdminQuery("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).rowCount === 1
  : false;

const openOn = (databaseUrl: string): Promise<Stores> =>
  openStores({ mode: "postgres", databaseUrl }, { denseDimensions: 384, logger: silentLogger });

describe.skipIf(!serverUrl)("stores on PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  beforeAll(async () => {
    database = await createScratchDatabase();
    return () => database.drop();
  });

  runCatalogContract("PostgreSQL", async () => {
    const stores = await openOn(database.url);
    return { catalog: stores.catalog, close: () => stores.client.close() };
  });

  if (serverHasPgvector) {
    runVectorIndexContract("pgvector on PostgreSQL", async () => {
      const stores = await openOn(database.url);
      if (!stores.vectorIndex) throw new Error("the server has pgvector but openStores returned no vector index");
      return { vectorIndex: stores.vectorIndex, close: () => stores.client.close() };
    });
  } else {
    console.warn("vector-index contract on PostgreSQL skipped: the test server has no pgvector extension");
    it.skip("vector-index contract: skipped — server has no pgvector extension", () => {});
  }

  describe("start-up", () => {
    let fresh: Awaited<ReturnType<typeof createScratchDatabase>>;
    const opened: Stores[] = [];
    beforeAll(async () => {
      fresh = await createScratchDatabase();
    });
    afterAll(async () => {
      for (const stores of opened) await stores.client.close();
      await fresh.drop();
    });

    it("migrates once when two processes start at the same moment, and reports the vector backend", async () => {
      const both = await Promise.all([openOn(fresh.url), openOn(fresh.url)]);
      opened.push(...both);
      const expectedBackend = serverHasPgvector ? "pgvector" : "none";
      expect(both.map((stores) => stores.vectorBackend)).toEqual([expectedBackend, expectedBackend]);
      expect(both.map((stores) => stores.vectorIndex === null)).toEqual([!serverHasPgvector, !serverHasPgvector]);
      const [first] = both;
      const { rows } = await (first as Stores).client.query<{ name: string }>(
        "SELECT name FROM schema_migrations ORDER BY name",
      );
      expect(rows.map((row) => row.name)).toEqual(
        serverHasPgvector
          ? [
              "0001_catalog",
              "0002_settings",
              "0003_questionnaire_jobs",
              "0004_approved_answers",
              "0005_documents_awaiting_meaning",
              "0006_questionnaire_job_destination",
              "0007_questionnaire_cancel_request",
              "0008_questionnaire_file_retention",
              "0009_questionnaire_job_reported",
              "0010_questionnaire_copy_error",
              "0100_chunk_vectors",
            ]
          : [
              "0001_catalog",
              "0002_settings",
              "0003_questionnaire_jobs",
              "0004_approved_answers",
              "0005_documents_awaiting_meaning",
              "0006_questionnaire_job_destination",
              "0007_questionnaire_cancel_request",
              "0008_questionnaire_file_retention",
              "0009_questionnaire_job_reported",
              "0010_questionnaire_copy_error",
            ],
      );
      // The catalog works whether or not vectors can live here.
      const space = await (first as Stores).catalog.ensureSpace("console:start-up", "Start-up");
      expect(space.title).toBe("Start-up");
    });

    it("de-duplicates one event id across two connection pools (two replicas)", async () => {
      const [left, right] = opened;
      if (!left || !right) throw new Error("the start-up test did not open two stores");
      const eventId = `Ev${randomUUID()}`;
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? left : right).catalog.markEventProcessed(eventId)),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
    });

    it("leaves the shared client open when the catalog is closed", async () => {
      const [stores] = opened;
      if (!stores) throw new Error("the start-up test did not open the stores");
      await stores.catalog.close();
      await stores.vectorIndex?.close();
      expect(await stores.catalog.getSpace("console:start-up")).toMatchObject({ title: "Start-up" });
    });
  });
});

describe("PostgreSQL start-up failures", () => {
  it("reports an unreachable server as database_unreachable, naming DATABASE_URL", async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    await expect(openOn("postgres://postgres@127.0.0.1:1/folio")).rejects.toMatchObject({
      code: "database_unreachable",
      retryable: true,
      message: expect.stringContaining("DATABASE_URL"),
    });
  });
});
