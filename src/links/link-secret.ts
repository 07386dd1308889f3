/**
 * The HMAC key for citation links: FOLIO_LINK_SECRET when configured, else a random key generated
 * once and kept in `<dataDir>/link-secret` (mode 0600), so links survive restarts of the embedded default.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

export async function resolveLinkSecret(options: { configured?: string; dataDir: string }): Promise<string> {
  if (options.configured) return options.configured;
  const file = path.join(options.dataDir, "link-secret");
  try {
    const stored = (await readFile(file, "utf8")).trim();
    if (stored.length >= 32) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(options.dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  // "wx" fails if another process created the file meanwhile; then its secret wins.
  try {
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return (await readFile(file, "utf8")).trim();
  }
}
