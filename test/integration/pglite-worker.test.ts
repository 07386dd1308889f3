/**
 * The embedded database in its worker thread (src/stores/pglite-worker.ts): the main thread's event
 * loop keeps turning while PGlite works, transactions commit and roll back as in-process ones did,
 * PGlite's errors arrive with their Postgres fields, binary values and dates come through intact, and
 * a closed client refuses work with an error that names the problem. Real PGlite, in memory.
 */
import { afterEach, describe, expect, it } from "vitest";
import { openPgliteClient } from "../../src/stores/pglite-client.js";
import type { SqlClient } from "../../src/stores/sql-client.js";
import { countEventLoopTurns } from "../support/event-loop-turns.js";

let client: SqlClient | null = null;
afterEach(async () => {
  await client?.close();
  client = null;
});

async function open(): Promise<SqlClient> {
  client = await openPgliteClient("memory://");
  return client;
}

describe("PGlite in a worker thread", () => {
  it("leaves the event loop free while a long statement runs", async () => {
    const database = await open();
    const loop = countEventLoopTurns();
    // Hundreds of ms of work inside Postgres; on the main thread no turn of the loop could happen meanwhile.
    const { rows } = await database.query<{ total: string }>(
      "SELECT sum(x)::text AS total FROM generate_series(1, 1000000) AS x",
    );
    const turns = loop.stop();
    expect(rows).toEqual([{ total: "500000500000" }]);
    expect(turns).toBeGreaterThan(10);
  });

  it("commits a transaction's work and rolls it back when the work throws, keeping the work's error", async () => {
    const database = await open();
    await database.query("CREATE TABLE notes (id integer PRIMARY KEY, body text)");
    const committed = await database.transaction(async (transaction) => {
      await transaction.query("INSERT INTO notes VALUES (1, 'kept')");
      const { rows } = await transaction.query<{ count: number }>("SELECT count(*)::int AS count FROM notes");
      return rows[0]?.count;
    });
    expect(committed).toBe(1);
    const refused = database.transaction(async (transaction) => {
      await transaction.query("INSERT INTO notes VALUES (2, 'dropped')");
      throw new Error("the work changed its mind");
    });
    await expect(refused).rejects.toThrow("the work changed its mind");
    // A failed statement inside a transaction: the transaction rolls back and the error keeps its code.
    const duplicate = database.transaction(async (transaction) => {
      await transaction.query("INSERT INTO notes VALUES (3, 'dropped too')");
      await transaction.query("INSERT INTO notes VALUES (1, 'duplicate')");
    });
    await expect(duplicate).rejects.toMatchObject({ code: "23505", message: expect.stringContaining("notes_pkey") });
    const { rows } = await database.query<{ id: number; body: string }>("SELECT id, body FROM notes ORDER BY id");
    expect(rows).toEqual([{ id: 1, body: "kept" }]);
  });

  it("keeps other queries out of an open transaction, as PGlite does in-process", async () => {
    const database = await open();
    await database.query("CREATE TABLE counter (value integer)");
    await database.query("INSERT INTO counter VALUES (0)");
    let releaseTransaction: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      releaseTransaction = resolve;
    });
    let transactionStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      transactionStarted = resolve;
    });
    const transaction = database.transaction(async (executor) => {
      await executor.query("UPDATE counter SET value = 1");
      transactionStarted();
      await held;
      await executor.query("UPDATE counter SET value = 2");
    });
    await started;
    // Sent while the transaction is open: it runs after the commit and sees the committed value.
    const outside = database.query<{ value: number }>("SELECT value FROM counter");
    releaseTransaction();
    await transaction;
    expect((await outside).rows).toEqual([{ value: 2 }]);
  });

  it("passes bytes, arrays, json and timestamps through unchanged", async () => {
    const database = await open();
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const { rows } = await database.query<{ bytes: Uint8Array; ids: number[]; doc: unknown; at: Date }>(
      "SELECT $1::bytea AS bytes, $2::integer[] AS ids, $3::jsonb AS doc, '2024-02-29T12:00:00Z'::timestamptz AS at",
      [bytes, [3, 1, 2], JSON.stringify({ pageStart: 4, headingPath: ["Risk"] })],
    );
    expect([...(rows[0]?.bytes ?? [])]).toEqual([0, 1, 2, 250, 255]);
    expect(rows[0]?.ids).toEqual([3, 1, 2]);
    expect(rows[0]?.doc).toEqual({ pageStart: 4, headingPath: ["Risk"] });
    expect(rows[0]?.at).toEqual(new Date("2024-02-29T12:00:00Z"));
  });

  it("reports a syntax error with Postgres's code and refuses work once closed", async () => {
    const database = await open();
    await expect(database.query("SELEC 1")).rejects.toMatchObject({
      code: "42601",
      message: expect.stringContaining("syntax error"),
    });
    await database.close();
    client = null;
    await expect(database.query("SELECT 1")).rejects.toMatchObject({ code: "database_closed" });
  });
});
