/**
 * The worker thread PGlite runs in. PGlite is Postgres compiled to WebAssembly, and each statement runs
 * synchronously in the thread that calls it: storing a 500-page document on the main thread held the
 * event loop for seconds, and every Slack, Teams or console request waited. Here the database has a
 * thread of its own and the main thread only passes messages (pglite-client.ts; pglite-protocol.ts).
 */
import { parentPort } from "node:worker_threads";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { type PgliteReply, type PgliteRequest, serializeError } from "./pglite-protocol.js";

if (!parentPort) throw new Error("pglite-worker.ts runs as a worker thread (see pglite-client.ts)");
const port = parentPort;

/** Thrown inside PGlite's transaction callback so that PGlite rolls the transaction back. */
class RollbackRequested extends Error {}

type OpenTransaction = {
  executor: Transaction;
  finish: (commit: boolean) => void;
  /** Settles once PGlite has committed or rolled back; rejects when the commit itself failed. */
  settled: Promise<void>;
};

/**
 * PGlite's page cache: 32 MB instead of Postgres's 128 MB, which PGlite touches in full when it opens —
 * ~90–117 MB of resident memory for nothing, as the embedded store answers searches from memory
 * (in-memory-space-index.ts) and the operating system's page cache still holds the database's files.
 * Loading 50,000 chunks took 64 s with either size (docs/benchmarks.md, "Scale").
 */
const START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"];

let database: PGlite | null = null;
const transactions = new Map<number, OpenTransaction>();
let nextTransaction = 1;

function requireDatabase(): PGlite {
  if (!database) throw new Error("the embedded database is not open");
  return database;
}

/** Opens a transaction and returns its number once PGlite has begun it. */
function begin(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const number = nextTransaction++;
    let begun = false;
    const settled = requireDatabase()
      .transaction(async (executor) => {
        const decision = new Promise<boolean>((finish) => {
          transactions.set(number, { executor, finish, settled });
        });
        begun = true;
        resolve(number);
        if (!(await decision)) throw new RollbackRequested();
      })
      .then(
        () => undefined,
        (error: unknown) => {
          if (!begun) reject(error);
          if (!(error instanceof RollbackRequested)) throw error;
        },
      );
    // Until `end` awaits it, a failed commit must not become an unhandled rejection.
    settled.catch(() => {});
  });
}

async function handle(request: PgliteRequest): Promise<Omit<Extract<PgliteReply, { ok: true }>, "id" | "ok">> {
  switch (request.kind) {
    case "open":
      database = await PGlite.create(request.dataDir, { extensions: { vector }, startParams: START_PARAMS });
      return {};
    case "query": {
      const target = request.transaction === null ? requireDatabase() : transactions.get(request.transaction)?.executor;
      if (!target) throw new Error(`transaction ${request.transaction} is not open`);
      const result = await target.query(request.sql, request.params);
      return { rows: result.rows };
    }
    case "begin":
      return { transaction: await begin() };
    case "end": {
      const open = transactions.get(request.transaction);
      if (!open) throw new Error(`transaction ${request.transaction} is not open`);
      transactions.delete(request.transaction);
      open.finish(request.commit);
      await open.settled;
      return {};
    }
    case "close":
      await database?.close();
      database = null;
      return {};
  }
}

port.on("message", (request: PgliteRequest) => {
  handle(request).then(
    (result) => port.postMessage({ id: request.id, ok: true, ...result } satisfies PgliteReply),
    (error: unknown) =>
      port.postMessage({ id: request.id, ok: false, error: serializeError(error) } satisfies PgliteReply),
  );
});
