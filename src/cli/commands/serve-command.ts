/**
 * `folio serve` (also `npm start`): one HTTP server for the console UI, the source viewer, the health
 * probes and the chat adapters' endpoints; runs until SIGINT/SIGTERM, then shuts down in order.
 */
import { createSlackAdapter, type SlackAdapter } from "../../../adapters/slack/slack-adapter.js";
import { createFolio } from "../../composition-root.js";
import type { FolioConfig } from "../../config/config.js";
import { locateConsoleAssets } from "../../http/console-assets.js";
import { createHttpServer } from "../../http/http-server.js";
import type { Logger } from "../../logger.js";
import { EXIT_CODES } from "../cli-error.js";

export async function runServeCommand(config: FolioConfig, logger: Logger): Promise<number> {
  const consoleAssetsDir = locateConsoleAssets();
  const folio = await createFolio(config, logger);
  let slack: SlackAdapter | null = null;
  let server: ReturnType<typeof createHttpServer> | null = null;
  try {
    if (config.slack) {
      slack = createSlackAdapter({
        core: folio.core,
        slack: config.slack,
        librarySpaceId: config.librarySpaceId,
        settings: folio.catalog,
        logger,
      });
    }
    if (config.teams)
      logger.warn({}, "Microsoft Teams is configured, but the Teams adapter is not built in this version");
    server = createHttpServer({ folio, logger, consoleAssetsDir, routes: slack?.routes ?? [] });
    const { url } = await server.listen(config.port, "0.0.0.0");
    await slack?.start();
    const consoleNote = { local: " (this machine only; FOLIO_CONSOLE=open to share it)", open: "", off: " (off)" };
    process.stdout.write(`Folio console: ${url}${consoleNote[config.consoleAccess]}\n`);
    logger.info(
      { url, publicUrl: config.publicUrl, slack: slack !== null, console: config.consoleAccess },
      "folio serving",
    );

    const signal = await waitForShutdownSignal();
    logger.info({ signal }, "shutting down");
    return EXIT_CODES.ok;
  } finally {
    // Stop taking chat events first, then finish HTTP, then close the stores they write to.
    await slack?.stop().catch((error: unknown) => logger.error({ error: String(error) }, "slack adapter stop failed"));
    await server?.close().catch((error: unknown) => logger.error({ error: String(error) }, "http server close failed"));
    await folio.close();
  }
}

function waitForShutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
