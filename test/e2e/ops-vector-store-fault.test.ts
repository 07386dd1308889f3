/**
 * Qdrant dies in the middle of a question: a real Folio (embedded catalog, vectors in Qdrant) behind its
 * real HTTP server, talking to the Qdrant stand-in through a TCP relay this test can cut and restore.
 * The asker gets an honest "search is unavailable, try again" with a reference id, /readyz fails while
 * Qdrant is gone, and once it is back the next question is answered — without restarting Folio.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askConsole, uploadToConsole } from "../support/console-client.js";
import { keepUpsertedPoints } from "../support/ops-qdrant-points.js";
import { startTcpRelay, type TcpRelay } from "../support/ops-tcp-relay.js";
import { type QdrantStandIn, startQdrantStandIn } from "../support/qdrant-stand-in.js";
import { hasSharedData } from "../support/shared-paths.js";
import { startTestServer, type TestServer } from "../support/start-test-server.js";

const COLLECTION = "ops_fault";
const SPACE = "console:default";

if (!hasSharedData) console.warn("ops-vector-store-fault: skipped — no shared models (../shared) for the embedder.");

describe.skipIf(!hasSharedData)("Qdrant killed mid-question", () => {
  let standIn: QdrantStandIn;
  let relay: TcpRelay;
  let server: TestServer;
  let cutOnNextQuestion = false;

  beforeAll(async () => {
    standIn = await startQdrantStandIn({ collection: COLLECTION, exists: false });
    relay = await startTcpRelay(Number(new URL(standIn.url).port));
    keepUpsertedPoints(standIn, COLLECTION, {
      spaceId: SPACE,
      onQuestionQuery: () => {
        if (!cutOnNextQuestion) return;
        cutOnNextQuestion = false;
        void relay.cut();
      },
    });
    server = await startTestServer({
      environment: { QDRANT_URL: `http://127.0.0.1:${relay.port}`, QDRANT_COLLECTION: COLLECTION },
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
  });

  it("tells the asker search is unavailable, fails /readyz, and answers again once Qdrant is back", async () => {
    const before = await askConsole(server.url, "Who records forklift inspections?");
    expect(before.at(-1)?.type).toBe("done");

    cutOnNextQuestion = true;
    const during = await askConsole(server.url, "Who records forklift inspections?");
    const failure = during.at(-1);
    expect(failure).toMatchObject({
      type: "error",
      code: "vector_store_unavailable",
      message:
        "Search is unavailable right now, so I cannot look through the documents. Please try again in a minute; if it keeps happening, share the reference with your admin.",
    });
    expect((failure as { requestId: string }).requestId).toMatch(/^[0-9a-f-]{36}$/);

    const down = await fetch(`${server.url}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({
      ready: false,
      status: "not_ready",
      dependencies: {
        catalog: { status: "up" },
        vectorStore: { status: "down", error: { code: "vector_store_unavailable" } },
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
