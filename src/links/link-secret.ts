/**
 * The HMAC key for citation links: FOLIO_LINK_SECRET when configured, else a random key generated
 * once and kept in `<dataDir>/link-secret` (mode 0600), so links survive restarts of the embedded default.
 *
 * The file is written under a temporary name and then hard-linked into place, which fails if the file
 * exists: the key appears whole or not at all, so a process starting beside another never reads a
 * half-written (empty) key, and the first writer's key wins. A key file that exists but is too short
 * is an error to fix, never a weak key to use.
 */
import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { FolioError } from "../errors.js";

/** The same floor the configuration applies to FOLIO_LINK_SECRET. */
const MINIMUM_SECRET_LENGTH = 32;

async function readStoredSecret(file: string): Promise<string | null> {
  let stored: string;
  try {
    stored = (await readFile(file, "utf8")).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  if (stored.length < MINIMUM_SECRET_LENGTH) {
    throw new FolioError(
      "link_secret_invalid",
      `The link secret in ${file} is shorter than ${MINIMUM_SECRET_LENGTH} characters — delete the file to generate a new one (existing citation links stop working), or set FOLIO_LINK_SECRET.`,
      { details: { file } },
    );
  }
  return stored;
}

/** Filesystems without hard links (some network and FAT mounts) answer link() with these. */
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "ENOSYS", "EOPNOTSUPP"]);

/** Creates `file` with `content` unless it exists; false when it already did. */
async function createExclusively(file: string, content: string): Promise<boolean> {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}`;
  await writeFile(temporary, content, { mode: 0o600, flag: "wx" });
  try {
    await link(temporary, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code === "EEXIST") return false;
    if (!NO_HARD_LINKS.has(code)) throw error;
  } finally {
    await rm(temporary, { force: true });
  }
  // No hard links here: an exclusive create still lets only one writer win.
  try {
    await writeFile(file, content, { mode: 0o600, flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

export async function resolveLinkSecret(options: { configured?: string; dataDir: string }): Promise<string> {
  if (options.configured) return options.configured;
  const file = path.join(options.dataDir, "link-secret");
  const stored = await readStoredSecret(file);
  if (stored !== null) return stored;

  await mkdir(options.dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  if (await createExclusively(file, `${secret}\n`)) return secret;
  // Another process created the key meanwhile; its key wins.
  const winner = await readStoredSecret(file);
  if (winner === null)
    throw new FolioError(
      "link_secret_unreadable",
      `The link secret ${file} vanished while it was being created — start Folio again.`,
    );
  return winner;
}
