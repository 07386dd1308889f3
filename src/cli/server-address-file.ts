/**
 * The small file a running `folio serve` leaves in its data directory — where it listens on loopback
 * and the token its local API wants — so `folio ingest|ask|search` can work through that server while
 * it holds the embedded store. Readable by the user who runs the server only (mode 0600).
 */
import { randomBytes } from "node:crypto";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

export const SERVER_ADDRESS_FILE_NAME = "serve.json";

export type ServerAddress = {
  /** Base URL on loopback, e.g. http://127.0.0.1:3000. */
  url: string;
  pid: number;
  token: string;
};

export function serverAddressPath(dataDir: string): string {
  return path.join(dataDir, SERVER_ADDRESS_FILE_NAME);
}

export function createLocalApiToken(): string {
  return randomBytes(32).toString("base64url");
}

export async function writeServerAddress(dataDir: string, address: ServerAddress): Promise<() => Promise<void>> {
  const file = serverAddressPath(dataDir);
  await writeFile(file, `${JSON.stringify(address)}\n`, { mode: 0o600 });
  return async () => {
    // Only this server's own file: a newer server on the same directory may have replaced it.
    const current = await readServerAddress(dataDir, { checkProcess: false });
    if (current?.pid === address.pid && current.token === address.token) await rm(file, { force: true });
  };
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The running server's address, or null when there is no file, it is unreadable, or its process is gone. */
export async function readServerAddress(
  dataDir: string,
  options: { checkProcess?: boolean } = {},
): Promise<ServerAddress | null> {
  let parsed: Partial<ServerAddress>;
  try {
    parsed = JSON.parse(await readFile(serverAddressPath(dataDir), "utf8")) as Partial<ServerAddress>;
  } catch {
    return null;
  }
  if (typeof parsed.url !== "string" || typeof parsed.pid !== "number" || typeof parsed.token !== "string") return null;
  if ((options.checkProcess ?? true) && !isProcessAlive(parsed.pid)) return null;
  return { url: parsed.url, pid: parsed.pid, token: parsed.token };
}
