/**
 * The main thread's side of the PGlite worker (pglite-worker.ts): numbers requests, matches replies,
 * and gives back PGlite's errors with their Postgres fields. The worker is referenced only while a
 * request is in flight, so an idle database never keeps the process alive and a pending one always
 * does. If the worker dies, every request in flight fails with `database_worker_failed` and so does
 * every later one: the database's state is unknown, and the process should be restarted. After
 * `close()` every request fails with `database_closed`.
 */
import type { Worker } from "node:worker_threads";
import { FolioError } from "../errors.js";
import { startWorker } from "../workers/start-worker.js";
import { deserializeError, type PgliteReply, type PgliteRequest } from "./pglite-protocol.js";
import type { SqlExecutor, SqlRows } from "./sql-client.js";

type Pending = { resolve: (reply: Extract<PgliteReply, { ok: true }>) => void; reject: (error: Error) => void };
type RequestWithoutId = PgliteRequest extends infer Request
  ? Request extends PgliteRequest
    ? Omit<Request, "id">
    : never
  : never;

export type PgliteWorkerConnection = SqlExecutor & {
  transaction<T>(work: (transaction: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

export async function openPgliteWorker(dataDir: string): Promise<PgliteWorkerConnection> {
  const worker: Worker = startWorker(import.meta.url, "./pglite-worker", {});
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let failure: FolioError | null = null;
  let closing = false;
  worker.unref();

  function failAll(error: FolioError): void {
    failure = error;
    for (const request of pending.values()) request.reject(error);
    pending.clear();
  }

  worker.on("message", (reply: PgliteReply) => {
    const request = pending.get(reply.id);
    if (!request) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (reply.ok) request.resolve(reply);
    else request.reject(deserializeError(reply.error));
  });
  worker.on("error", (error) => {
    failAll(
      new FolioError(
        "database_worker_failed",
        `The embedded database's worker thread failed (${error.message}); restart Folio. If it happens again, check free memory and the data directory ${dataDir}.`,
        { cause: error, details: { dataDir } },
      ),
    );
  });
  worker.on("exit", (code) => {
    if (closing && pending.size === 0) return;
    failAll(
      new FolioError(
        "database_worker_failed",
        `The embedded database's worker thread stopped (exit code ${code}); restart Folio.`,
        { details: { dataDir, exitCode: code } },
      ),
    );
  });

  function send(request: RequestWithoutId): Promise<Extract<PgliteReply, { ok: true }>> {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      if (pending.size === 1) worker.ref();
      worker.postMessage({ ...request, id } as PgliteRequest);
    });
  }

  function executorFor(transaction: number | null): SqlExecutor {
    return {
      async query<Row>(sql: string, params: unknown[] = []): Promise<SqlRows<Row>> {
        const reply = await send({ kind: "query", sql, params, transaction });
        return { rows: (reply.rows ?? []) as Row[] };
      },
    };
  }

  try {
    await send({ kind: "open", dataDir });
  } catch (error) {
    closing = true;
    await worker.terminate();
    throw error;
  }

  return {
    ...executorFor(null),
    async transaction(work) {
      const { transaction } = await send({ kind: "begin" });
      if (transaction === undefined) throw new Error("the database worker began no transaction");
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await work(executorFor(transaction));
      } catch (error) {
        await send({ kind: "end", transaction, commit: false }).catch(() => {
          // The work's own error says more than a failed rollback (the worker then failed too).
        });
        throw error;
      }
      await send({ kind: "end", transaction, commit: true });
      return result;
    },
    async close() {
      if (failure) {
        await worker.terminate();
        return;
      }
      closing = true;
      try {
        await send({ kind: "close" });
      } finally {
        failure = new FolioError(
          "database_closed",
          `The embedded database in ${dataDir} was closed; this request came after Folio began shutting down.`,
          { details: { dataDir } },
        );
        await worker.terminate();
      }
    },
  };
}
