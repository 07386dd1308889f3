/**
 * Where a real `folio serve` listens (#37): with only the local console, on loopback alone — the
 * machine's network address gets no answer at all — and on every interface when HOST=0.0.0.0 asks
 * for it (as the Docker image does), where the console still refuses callers that are not this machine.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FolioProcess, startFolioServe } from "../support/ops-folio-process.js";

/** This machine's first IPv4 address that is not loopback, if it has one. */
const networkAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((entry) => entry !== undefined && entry.family === "IPv4" && !entry.internal)?.address;

if (!networkAddress) console.warn("serve-listen-host: skipped — this machine has no network address besides loopback.");

describe.skipIf(!networkAddress)("folio serve's listening address", () => {
  let dataDir: string | null = null;
  let served: FolioProcess | null = null;

  afterEach(async () => {
    await served?.kill();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    served = null;
    dataDir = null;
  });

  const start = async (environment: Record<string, string>) => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "folio-listen-"));
    served = await startFolioServe({ FOLIO_DATA_DIR: dataDir, FOLIO_EMBED_MODEL: "none", ...environment });
    return { served, onNetwork: `http://${networkAddress}:${new URL(served.url).port}` };
  };

  it("listens on loopback alone while only the local console is served", async () => {
    const { served, onNetwork } = await start({});
    expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
    const fromNetwork = await fetch(`${onNetwork}/healthz`).then(
      (response) => response.status,
      (error: { cause?: { code?: string } }) => error.cause?.code,
    );
    expect(fromNetwork).toBe("ECONNREFUSED");
    expect(served.stderr()).toContain('"host":"127.0.0.1"');
  }, 180_000);

  it("listens on every interface when HOST asks, the console still this machine's only", async () => {
    const { served, onNetwork } = await start({ HOST: "0.0.0.0" });
    expect((await fetch(`${onNetwork}/healthz`)).status).toBe(200);
    const consoleFromNetwork = await fetch(`${onNetwork}/api/documents`);
    expect(consoleFromNetwork.status).toBe(403);
    expect(((await consoleFromNetwork.json()) as { error: { code: string } }).error.code).toBe("console_local_only");
    expect(served.stderr()).toContain('"host":"0.0.0.0"');
  }, 180_000);
});
