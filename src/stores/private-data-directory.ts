/**
 * Keeps FOLIO_DATA_DIR private to the account Folio runs as. It holds every space's documents (the
 * original files, and their text in the embedded database and its WAL), the link secret and the
 * console's history; with the usual umask of 022 the embedded database left them world-readable and its
 * files world-writable (755/666), so any local user could read or tamper with them. Here the process's
 * file-creation mask is set to 077 before anything is written (PGlite creates its files through Node's
 * fs, which applies it), the directory is created 0700, and an existing tree with looser modes is
 * tightened (directories 0700, files 0600) with one log line saying how many entries changed.
 * PGlite unpacks its initial database with modes of its own (0666/0644, set explicitly, so the mask does
 * not apply), so pglite-client.ts tightens its directory again once it is open; files it creates after
 * that get the mask.
 */
import { chmod, lstat, mkdir, readdir } from "node:fs/promises";
import path from "node:path";
import { isMainThread } from "node:worker_threads";
import type { Logger } from "../logger.js";

const PRIVATE_DIRECTORY_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;
/** Group and other bits: any of them set means someone else can read, write or enter. */
const SHARED_BITS = 0o077;

/**
 * Makes files this process creates from now on private (umask 077). Process-wide, so only the
 * composition root calls it; worker threads cannot change the mask and inherit the process's.
 */
export function restrictFileCreationMask(): void {
  if (isMainThread && process.platform !== "win32") process.umask(0o077);
}

/** Tightens every directory and file under `root` (itself included) that others could use; returns how many. */
export async function tightenPrivateTree(root: string): Promise<number> {
  if (process.platform === "win32") return 0;
  let tightened = 0;
  const pending = [root];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    const stats = await lstat(current);
    // A symbolic link is not followed: what it points to is not Folio's to change.
    if (stats.isSymbolicLink()) continue;
    if (stats.isDirectory()) {
      if ((stats.mode & SHARED_BITS) !== 0) {
        await chmod(current, PRIVATE_DIRECTORY_MODE);
        tightened += 1;
      }
      for (const name of await readdir(current)) pending.push(path.join(current, name));
    } else if (stats.isFile() && (stats.mode & SHARED_BITS) !== 0) {
      await chmod(current, (stats.mode & 0o700) | PRIVATE_FILE_MODE);
      tightened += 1;
    }
  }
  return tightened;
}

/** Creates `dataDir` private, or makes an existing one private, logging what it had to tighten. */
export async function securePrivateDataDirectory(dataDir: string, logger: Logger): Promise<void> {
  restrictFileCreationMask();
  if (process.platform === "win32") return;
  await mkdir(dataDir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  const tightened = await tightenPrivateTree(dataDir);
  if (tightened > 0) {
    logger.warn(
      { dataDir, tightened },
      "tightened permissions in the data directory: other local users could read or change it (now directories 0700, files 0600)",
    );
  }
}
