/**
 * A real Folio behind the real Slack adapter (Bolt's HTTP receiver on a local port) talking to the local
 * Web API stand-in, keyword-only, in a fresh data directory: the set-up the Slack end-to-end tests share.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSlackAdapter, type SlackAdapter, type SlackAdapterTuning } from "../../adapters/slack/slack-adapter.js";
import { createFolio, type Folio } from "../../src/composition-root.js";
import { loadConfig } from "../../src/config/config.js";
import { silentLogger } from "../../src/logger.js";
import { type RouteServer, serveRoutes } from "../support/route-server.js";
import { sharedModelsDir } from "../support/shared-paths.js";
import { type FakeSlackWebApi, startFakeSlackWebApi } from "./slack-fake-web-api.js";

export type SlackTestFolio = {
  fake: FakeSlackWebApi;
  dataDir: string;
  folio: Folio;
  adapter: SlackAdapter;
  server: RouteServer;
};

export async function startSlackTestFolio(options: {
  signingSecret: string;
  /** Prefix of the temporary data directory's name. */
  dataDirPrefix: string;
  tuning: Partial<SlackAdapterTuning>;
  /** Give the adapter the catalog as its settings store (the assistant pane keeps its prompts there). */
  withSettings?: boolean;
}): Promise<SlackTestFolio> {
  const fake = await startFakeSlackWebApi();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), options.dataDirPrefix));
  const config = loadConfig(
    {
      FOLIO_DATA_DIR: dataDir,
      FOLIO_MODELS_DIR: sharedModelsDir,
      FOLIO_EMBED_MODEL: "none",
      FOLIO_PUBLIC_URL: "https://folio.example",
      SLACK_BOT_TOKEN: "xoxb-test",
      SLACK_SIGNING_SECRET: options.signingSecret,
      SLACK_API_URL: fake.url,
    },
    dataDir,
  );
  const folio = await createFolio(config, silentLogger);
  if (!config.slack) throw new Error("Slack configuration missing");
  const adapter = createSlackAdapter({
    core: folio.core,
    slack: config.slack,
    librarySpaceId: null,
    ...(options.withSettings ? { settings: folio.catalog } : {}),
    logger: silentLogger,
    tuning: options.tuning,
  });
  const server = await serveRoutes(adapter.routes);
  await adapter.start();
  return { fake, dataDir, folio, adapter, server };
}

/** Stops what startSlackTestFolio started, whichever parts of it did start. */
export async function stopSlackTestFolio(started: Partial<SlackTestFolio>): Promise<void> {
  await started.adapter?.stop();
  await started.server?.close();
  await started.folio?.close();
  await started.fake?.close();
  if (started.dataDir) rmSync(started.dataDir, { recursive: true, force: true });
}
