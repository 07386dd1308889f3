/**
 * Qdrant dies in the middle of a question: a real Folio (embedded catalog, vectors in Qdrant) behind its
 * real HTTP server, talking to the Qdrant stand-in through a TCP relay this test can cut and restore.
 * The asker gets an honest "search is unavailable, try again" with a reference id, /readyz fails while
 * Qdrant is gone, and once it is back the next question is answered — without restarting Folio.
 */
import { createServer, Socket as NetSocket, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnswerEvent } from "../../src/answer/answer-events.js";
import { ok, type QdrantStandIn, startQdrantStandIn } from "../support/qdrant-stand-in.js";
import { hasSharedData } from "../support/shared-paths.js";
import { startTestServer, type TestServer } from "../support/start-test-server.js";

const COLLECTION = "ops_fault";
const SPACE = "console:default";
const CONSOLE_HEADERS = { "X-Folio-Console": "1" };

if (!hasSharedData) console.warn("ops-vector-store-fault: skipped — no shared models (../shared) for the embedder.");

/** A TCP relay to `targetPort` that can be cut (listener closed, open connections destroyed) and restored on its port. */
async function startRelay(targetPort: number) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = async () => {
    const relay = createServer((client) => {
      const upstream = new NetSocket();
      sockets.add(client).add(upstream);
      const forget = () => {
        sockets.delete(client);
        sockets.delete(upstream);
      };
      upstream.connect(targetPort, "127.0.0.1");
      client.pipe(upstream).pipe(client);
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
      client.on("close", forget);
    });
    await new Promise<void>((resolve) => relay.listen(port, "127.0.0.1", resolve));
    port = (relay.address() as { port: number }).port;
    server = relay;
  };
  await listen();
  return {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    async cut() {
      const relay = server;
      server = null;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await new Promise<void>((resolve) => (relay ? relay.close(() => resolve()) : resolve()));
    },
    restore: listen,
  };
}

/** The stand-in as a Qdrant holding what Folio upserted: queries on the console space return those points. */
function holdUpsertedPoints(standIn: QdrantStandIn, onQuestionQuery: () => void) {
  const points = new Map<string, Record<string, unknown>>();
  const base = `/collections/${COLLECTION}`;
  standIn.answer("PUT", new RegExp(`^${base}/points\\?`), (request) => {
    for (const point of (request.body as { points: Array<{ id: string; payload: Record<string, unknown> }> }).points) {
      points.set(point.id, point.payload);
      standIn.storedIds.add(point.id);
    }
    return ok({ operation_id: 1, status: "completed" });
  });
  standIn.answer("POST", new RegExp(`^${base}/facet$`), () => ok({ hits: [] }));
  standIn.answer("POST", new RegExp(`^${base}/points/count$`), () => ok({ count: 0 }));
  const scored = (body: unknown) => {
    // Readiness probes query an empty probe space; only the console space holds the document.
    if (!JSON.stringify(body).includes(`"${SPACE}"`)) return { points: [] };
    onQuestionQuery();
    return {
      points: [...points].map(([id, payload], index) => ({ id, version: 1, score: 1 / (index + 1), payload })),
    };
  };
  standIn.answer("POST", new RegExp(`^${base}/points/query$`), (request) => ok(scored(request.body)));
  standIn.answer("POST", new RegExp(`^${base}/points/query/batch$`), (request) =>
    ok((request.body as { searches: unknown[] }).searches.map(() => scored(request.body))),
  );
}

async function ask(url: string, question: string): Promise<AnswerEvent[]> {
  const response = await fetch(`${url}/api/ask`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...CONSOLE_HEADERS },
    body: JSON.stringify({ question }),
  });
  expect(response.status).toBe(200);
  return (await response.text())
    .split("\n\n")
    .map((block) => block.split("\n").find((line) => line.startsWith("data: ")))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice("data: ".length)) as AnswerEvent);
}

describe.skipIf(!hasSharedData)("Qdrant killed mid-question", () => {
  let standIn: QdrantStandIn;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let server: TestServer;
  let cutOnNextQuestion = false;

  beforeAll(async () => {
    standIn = await startQdrantStandIn({ collection: COLLECTION, exists: false });
    relay = await startRelay(Number(new URL(standIn.url).port));
    holdUpsertedPoints(standIn, () => {
      if (!cutOnNextQuestion) return;
      cutOnNextQuestion = false;
      void relay.cut();
    });
    server = await startTestServer({ environment: { QDRANT_URL: relay.url, QDRANT_COLLECTION: COLLECTION } });
    const form = new FormData();
    const text = [
      "# Depot rota",
      "",
      "Forklift inspections are recorded by the shift supervisor before the morning briefing.",
      "",
      "Spare batteries for hall 4 are charged overnight in the east bay.",
    ].join("\n");
    form.append("file", new Blob([text]), "rota.md");
    const upload = await fetch(`${server.url}/api/upload`, { method: "POST", body: form, headers: CONSOLE_HEADERS });
    expect(await upload.text()).toContain('"status":"ingested"');
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await relay?.cut();
    await standIn?.close();
  });

  it("tells the asker search is unavailable, fails /readyz, and answers again once Qdrant is back", async () => {
    const before = await ask(server.url, "Who records forklift inspections?");
    expect(before.at(-1)?.type).toBe("done");

    cutOnNextQuestion = true;
    const during = await ask(server.url, "Who records forklift inspections?");
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
    const after = await ask(server.url, "Who records forklift inspections?");
    const done = after.at(-1);
    expect(done?.type).toBe("done");
    if (done?.type !== "done") return;
    expect(done.answer.noContext).toBe(false);
    expect(done.answer.citations.map((citation) => citation.file)).toContain("rota.md");
    expect(done.answer.answer).toContain("shift supervisor");
  }, 120_000);
});
