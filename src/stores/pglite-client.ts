/**
 * SqlClient on PGlite (Postgres compiled to WebAssembly) with the pgvector extension loaded, for the
 * embedded default. `dataDir` "memory://" keeps everything in memory (tests). PGlite runs in a worker
 * thread of its own (pglite-worker.ts, through pglite-worker-connection.ts), because each statement
 * runs synchronously in its thread: on the main thread, storing a large document held every request.
 * PGlite runs one statement at a time and never interleaves a transaction with other queries, so the
 * embedded database is for one Folio process; several replicas need PostgreSQL.
 */
import { mkdir, open, readFile, rm } from "node:fs/promises";
import { FolioError } from "../errors.js";
import { openPgliteWorker } from "./pglite-worker-connection.js";
import { tightenPrivateTree } from "./private-data-directory.js";
import type { SqlClient } from "./sql-client.js";

/** Lock files this process holds, so a stale lock carrying our own pid (a restarted container) is told apart. */
const heldLocks = new Set<string>();

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite has no lock of its own: two processes on one data directory each work on their own copy in
 * memory and the last to write wins, silently losing the other's changes. An exclusive lock file next
 * to the directory turns that into a clear error. Returns the function that releases it.
 */
async function lockDataDirectory(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = `${dataDir.replace(/[/\\]+$/, "")}.lock`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(lockPath, "wx");
      await handle.writeFile(String(process.pid));
      await handle.close();
      heldLocks.add(lockPath);
      return async () => {
        heldLocks.delete(lockPath);
        await rm(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number.parseInt(await readFile(lockPath, "utf8").catch(() => ""), 10);
      const ownedHere = owner === process.pid && heldLocks.has(lockPath);
      if (ownedHere || (Number.isInteger(owner) && owner !== process.pid && isProcessAlive(owner))) {
        throw new FolioError(
          "data_dir_in_use",
          `The embedded database in ${dataDir} is open in another Folio process (pid ${owner}); stop it first, or set DATABASE_URL to share a PostgreSQL server between processes.`,
          { details: { dataDir, pid: owner } },
        );
      }
      // Left behind by a process that is gone: take it over.
      await rm(lockPath, { force: true });
    }
  }
  throw new FolioError("data_dir_in_use", `Could not take the lock ${lockPath} for the embedded database.`);
}

export async function openPgliteClient(dataDir: string): Promise<SqlClient> {
  const inMemory = dataDir.startsWith("memory://");
  if (!inMemory) {
    await mkdir(dataDir, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
      throw new FolioError(
        "database_open_failed",
        `Cannot create the embedded database directory ${dataDir}; check that FOLIO_DATA_DIR is writable.`,
        { cause: error },
      );
    });
  }
  const releaseLock = inMemory ? async () => {} : await lockDataDirectory(dataDir);
  let connection: Awaited<ReturnType<typeof openPgliteWorker>> | null = null;
  try {
    connection = await openPgliteWorker(dataDir);
    // PGlite unpacks a fresh database with modes of its own (0666), past the process's umask.
    if (!inMemory) await tightenPrivateTree(dataDir);
  } catch (error) {
    await connection?.close().catch(() => {});
    await releaseLock();
    throw new FolioError(
      "database_open_failed",
      `Cannot open the embedded database in ${dataDir} (${error instanceof Error ? error.message : String(error)}); check that FOLIO_DATA_DIR is writable and not used by another Folio process.`,
      { cause: error },
    );
  }
  const database = connection;
  return {
    kind: "pglite",
    query: (sql, params) => database.query(sql, params),
    transaction: (work) => database.transaction(work),
    async close() {
      try {
        await database.close();
      } finally {
        await releaseLock();
      }
    },
  };
}
