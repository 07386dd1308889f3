/**
 * FOLIO_DATA_DIR is private (issue #22): a fresh data directory, with a real embedded database written
 * into it, holds only 0700 directories and 0600 files; an existing directory with looser modes is
 * tightened at start with one log line.
 */
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { LogFields, Logger } from "../../src/logger.js";
import { openPgliteClient } from "../../src/stores/pglite-client.js";
import { securePrivateDataDirectory } from "../../src/stores/private-data-directory.js";

/** Every path under `root` (itself included) with its permission bits. */
async function modesUnder(root: string): Promise<Map<string, { kind: "dir" | "file"; mode: number }>> {
  const modes = new Map<string, { kind: "dir" | "file"; mode: number }>();
  const pending = [root];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    const stats = await stat(current);
    const relative = path.relative(root, current) || ".";
    if (stats.isDirectory()) {
      modes.set(relative, { kind: "dir", mode: stats.mode & 0o777 });
      for (const name of await readdir(current)) pending.push(path.join(current, name));
    } else modes.set(relative, { kind: "file", mode: stats.mode & 0o777 });
  }
  return modes;
}

function recordingLogger(lines: Array<{ level: string; fields: LogFields; message: string }>): Logger {
  const logger: Logger = {
    debug: (fields, message) => lines.push({ level: "debug", fields, message }),
    info: (fields, message) => lines.push({ level: "info", fields, message }),
    warn: (fields, message) => lines.push({ level: "warn", fields, message }),
    error: (fields, message) => lines.push({ level: "error", fields, message }),
    child: () => logger,
  };
  return logger;
}

describe.skipIf(process.platform === "win32")("data directory permissions", () => {
  let parent: string;
  let previousMask: number;

  beforeAll(async () => {
    parent = await mkdtemp(path.join(os.tmpdir(), "folio-permissions-"));
  });

  afterEach(() => {
    // The mask is process-wide: later tests in this process get the usual one back.
    process.umask(previousMask);
  });

  afterAll(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it("creates a fresh data directory 0700 and the embedded database's files 0600", async () => {
    previousMask = process.umask(0o022);
    const dataDir = path.join(parent, "fresh", "data");
    const lines: Array<{ level: string; fields: LogFields; message: string }> = [];
    await securePrivateDataDirectory(dataDir, recordingLogger(lines));
    const client = await openPgliteClient(path.join(dataDir, "db"));
    await client.query("CREATE TABLE notes (body text)");
    await client.query("INSERT INTO notes VALUES ('quarterly revenue')");
    await client.close();
    await writeFile(path.join(dataDir, "link-secret"), "x");

    const modes = await modesUnder(dataDir);
    expect(modes.size).toBeGreaterThan(20);
    const loose = [...modes].filter(([, entry]) => entry.mode !== (entry.kind === "dir" ? 0o700 : 0o600));
    expect(loose).toEqual([]);
    expect(lines).toEqual([]);
  }, 60_000);

  it("tightens an existing looser directory tree at start, with one log line", async () => {
    previousMask = process.umask(0o022);
    const dataDir = path.join(parent, "existing");
    await mkdir(path.join(dataDir, "db", "base"), { recursive: true });
    await writeFile(path.join(dataDir, "db", "base", "1249"), "pages");
    await writeFile(path.join(dataDir, "link-secret"), "x");
    await chmod(dataDir, 0o755);
    await chmod(path.join(dataDir, "db"), 0o777);
    await chmod(path.join(dataDir, "db", "base", "1249"), 0o666);
    await chmod(path.join(dataDir, "link-secret"), 0o600);

    const lines: Array<{ level: string; fields: LogFields; message: string }> = [];
    await securePrivateDataDirectory(dataDir, recordingLogger(lines));

    expect(Object.fromEntries(await modesUnder(dataDir))).toEqual({
      ".": { kind: "dir", mode: 0o700 },
      db: { kind: "dir", mode: 0o700 },
      "db/base": { kind: "dir", mode: 0o700 },
      "db/base/1249": { kind: "file", mode: 0o600 },
      "link-secret": { kind: "file", mode: 0o600 },
    });
    expect(lines).toEqual([
      {
        level: "warn",
        fields: { dataDir, tightened: 4 },
        message:
          "tightened permissions in the data directory: other local users could read or change it (now directories 0700, files 0600)",
      },
    ]);
  });
});
