/**
 * Starts a real Folio (embedded PGlite in a temporary data directory) behind a real HTTP server on a
 * free local port, with FOLIO_PUBLIC_URL pointing at that port so signed links can be followed.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createFolio, type Folio } from "../../src/composition-root.js";
import { loadConfig } from "../../src/config/config.js";
import { locateConsoleAssets } from "../../src/http/console-assets.js";
import { createHttpServer, type HttpServer } from "../../src/http/http-server.js";
import { silentLogger } from "../../src/logger.js";
import { freePort } from "./free-port.js";
import { sharedModel } from "./shared-paths.js";

export type TestServer = {
  url: string;
  folio: Folio;
  dataDir: string;
  /** Stops the HTTP server and Folio; keeps the data directory (for restart tests). */
  stop(): Promise<void>;
  /** Stops everything and deletes the data directory. */
  close(): Promise<void>;
};

export type TestServerOptions = {
  /** Reuse a data directory (a "restart"); a fresh temporary one otherwise. */
  dataDir?: string;
  maxUploadBytes?: number;
  environment?: Record<string, string>;
};

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), "folio-http-")));
  // The port is known before the server listens: links are signed with the public URL.
  const port = await freePort();
  const config = loadConfig(
    {
      FOLIO_DATA_DIR: dataDir,
      FOLIO_MODELS_DIR: path.dirname(sharedModel("bge-small-en-v1.5")),
      FOLIO_PUBLIC_URL: `http://127.0.0.1:${port}`,
      FOLIO_LOG_LEVEL: "silent",
      ...options.environment,
    },
    process.cwd(),
  );
  const folio = await createFolio(config, silentLogger);
  let server: HttpServer;
  try {
    server = createHttpServer({
      folio,
      logger: silentLogger,
      consoleAssetsDir: locateConsoleAssets(),
      ...(options.maxUploadBytes === undefined ? {} : { maxUploadBytes: options.maxUploadBytes }),
    });
    await server.listen(port, "127.0.0.1");
  } catch (error) {
    await folio.close();
    throw error;
  }
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.close();
    await folio.close();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    folio,
    dataDir,
    stop,
    async close() {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
