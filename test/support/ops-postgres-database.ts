/**
 * A fresh database per test on the PostgreSQL server TEST_DATABASE_URL points at (`.ci/start-postgres.sh`
 * starts one), dropped afterwards, so tests running side by side never see each other's rows.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";

export const testDatabaseUrl = process.env.TEST_DATABASE_URL ?? null;

export type ScratchDatabase = { url: string; drop(): Promise<void> };

export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  if (!testDatabaseUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `${prefix}_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: testDatabaseUrl });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** The database URL with its port replaced (to go through a relay on 127.0.0.1). */
export function throughPort(databaseUrl: string, port: number): string {
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return url.toString();
}
