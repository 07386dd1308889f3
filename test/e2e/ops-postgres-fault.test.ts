/**
 * PostgreSQL drops off the network in the middle of a question: a real Folio (catalog on PostgreSQL
 * reached through a TCP relay this test cuts and restores, vectors in the Qdrant stand-in) behind its
 * real HTTP server. The asker gets an honest "unavailable, try again" with a reference id, /readyz
 * names the catalog as down, and once PostgreSQL is back the next question is answered — without
 * restarting Folio.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askConsole, uploadToConsole } from "../support/console-client.js";
import {
  createScratchDatabase,
  type ScratchDatabase,
  testDatabaseUrl,
  throughPort,
} from "../support/ops-postgres-database.js";
import { keepUpsertedPoints } from "../support/ops-qdrant-points.js";
import { startTcpRelay, type TcpRelay } from "../support/ops-tcp-relay.js";
import { type QdrantStandIn, startQdrantStandIn } from "../support/qdrant-stand-in.js";
import { hasSharedData } from "../support/shared-paths.js";
import { startTestServer, type TestServer } from "../support/start-test-server.js";

const COLLECTION = "ops_postgres_fault";
const SPACE = "console:default";

if (!testDatabaseUrl)
  console.warn("ops-postgres-fault: skipped — TEST_DATABASE_URL is not set (see .ci/start-postgres.sh).");
else if (!hasSharedData) console.warn("ops-postgres-fault: skipped — no shared models (../shared) for the tokenizer.");

describe.skipIf(!testDatabaseUrl || !hasSharedData)("PostgreSQL cut off mid-question", () => {
  let database: ScratchDatabase;
  let standIn: QdrantStandIn;
  let relay: TcpRelay;
  let server: TestServer;
  let cutOnNextQuestion = false;
  let cutting: Promise<void> = Promise.resolve();

  beforeAll(async () => {
    database = await createScratchDatabase("folio_ops_pg_fault");
    relay = await startTcpRelay(Number(new URL(database.url).port));
    standIn = await startQdrantStandIn({ collection: COLLECTION, exists: false });
    keepUpsertedPoints(standIn, COLLECTION, {
      spaceId: SPACE,
      onQuestionQuery: () => {
        if (!cutOnNextQuestion) return;
        cutOnNextQuestion = false;
        // Search has run; the chunks and their documents are read from PostgreSQL next — and it is gone.
        cutting = relay.cut();
      },
    });
    server = await startTestServer({
      environment: {
        DATABASE_URL: throughPort(database.url, relay.port),
        QDRANT_URL: standIn.url,
        QDRANT_COLLECTION: COLLECTION,
        FOLIO_EMBED_MODEL: "none",
      },
    });
    const text = [
      "# Depot rota",
      "",
      "Forklift inspections are recorded by the shift supervisor before the morning briefing.",
      "",
      "Spare batteries for hall 4 are charged overnight in the east bay.",
    ].join("\n");
    const upload = await uploadToConsole(server.url, "rota.md", text);
    expect(await upload.text()).toContain('"status":"ingested"');
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await relay?.cut();
    await standIn?.close();
    await database?.drop();
  });

  it("says the database is unavailable with a reference, fails /readyz, and answers again once it is back", async () => {
    const before = await askConsole(server.url, "Who records forklift inspections?");
    expect(before.at(-1)?.type).toBe("done");

    cutOnNextQuestion = true;
    const during = await askConsole(server.url, "Who records forklift inspections?");
    await cutting;
    const failure = during.at(-1);
    expect(failure).toMatchObject({
      type: "error",
      code: "catalog_unavailable",
      message:
        "Folio's database is unavailable right now, so I cannot look through the documents. Please try again in a minute; if it keeps happening, share the reference with your admin.",
    });
    expect((failure as { requestId: string }).requestId).toMatch(/^[0-9a-f-]{36}$/);

    const down = await fetch(`${server.url}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({
      ready: false,
      dependencies: {
        catalog: { status: "down", error: { code: "catalog_unavailable" } },
        vectorStore: { status: "up" },
      },
    });

    await relay.restore();
    const up = await fetch(`${server.url}/readyz`);
    expect(up.status).toBe(200);
    const after = await askConsole(server.url, "Who records forklift inspections?");
    const done = after.at(-1);
    expect(done?.type).toBe("done");
    if (done?.type !== "done") return;
    expect(done.answer.noContext).toBe(false);
    expect(done.answer.citations.map((citation) => citation.file)).toContain("rota.md");
    expect(done.answer.answer).toContain("shift supervisor");
  }, 120_000);
});
