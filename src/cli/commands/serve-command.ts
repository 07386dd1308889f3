/**
 * `folio serve` (also `npm start`): one HTTP server for the console UI, the source viewer, the health
 * probes and the chat adapters' endpoints; runs until SIGINT/SIGTERM, then shuts down in order.
 */
import { createSlackAdapter, type SlackAdapter } from "../../../adapters/slack/slack-adapter.js";
import { createTeamsAdapter, type TeamsAdapter } from "../../../adapters/teams/teams-adapter.js";
import { createFolio, type Folio } from "../../composition-root.js";
import type { FolioConfig } from "../../config/config.js";
import { locateConsoleAssets } from "../../http/console-assets.js";
import { createHttpServer } from "../../http/http-server.js";
import { checkPortAvailable } from "../../http/listen-error.js";
import { createWorkGate, settleWithin } from "../../http/work-gate.js";
import type { Logger } from "../../logger.js";
import { createPrometheusMetrics } from "../../observability/prometheus-metrics.js";
import { EXIT_CODES } from "../cli-error.js";
import { createLocalApiToken, writeServerAddress } from "../server-address-file.js";
import { listenHost } from "./listen-host.js";

/** A questionnaire job whose server has not saved a row for this long is taken over by another replica. */
const QUESTIONNAIRE_STALE_AFTER_MS = 60_000;

/** How often finished questionnaires' files past their retention are looked for. */
const QUESTIONNAIRE_RETENTION_SWEEP_MS = 60 * 60 * 1000;

export async function runServeCommand(config: FolioConfig, logger: Logger): Promise<number> {
  // Heard from the start: a SIGTERM while models load or storage migrates stops the server as soon as it
  // is built, instead of killing the process half-way (exit 143, a lock left behind).
  const shutdownSignal = listenForShutdownSignals(logger);
  try {
    // A busy port is the first thing to know, before storage is migrated and models load.
    await checkPortAvailable(config.port, listenHost(config));
    const consoleAssetsDir = locateConsoleAssets();
    const metrics = createPrometheusMetrics();
    const folio = await createFolio(config, logger, { metrics });
    return await serveUntilSignal(config, logger, { folio, consoleAssetsDir, metrics, shutdownSignal });
  } finally {
    shutdownSignal.stopListening();
  }
}

async function serveUntilSignal(
  config: FolioConfig,
  logger: Logger,
  built: {
    folio: Folio;
    consoleAssetsDir: string;
    metrics: ReturnType<typeof createPrometheusMetrics>;
    shutdownSignal: ShutdownSignal;
  },
): Promise<number> {
  const { folio, consoleAssetsDir, metrics } = built;
  const gate = createWorkGate({ maxConcurrentQuestions: config.operations.maxConcurrentQuestions });
  let slackStop: Promise<void> | null = null;
  const stopSlack = () => {
    slackStop ??= slack?.stop() ?? Promise.resolve();
    return slackStop;
  };
  let slack: SlackAdapter | null = null;
  let teams: TeamsAdapter | null = null;
  let server: ReturnType<typeof createHttpServer> | null = null;
  let removeServerAddress: (() => Promise<void>) | null = null;
  const localApiToken = createLocalApiToken();
  try {
    if (config.slack) {
      slack = createSlackAdapter({
        core: folio.coreFor("slack"),
        slack: config.slack,
        librarySpaceId: config.librarySpaceId,
        settings: folio.catalog,
        publicUrl: config.publicUrl,
        logger,
      });
    }
    if (config.teams) {
      teams = createTeamsAdapter({
        core: folio.coreFor("teams"),
        teams: config.teams,
        librarySpaceId: config.librarySpaceId,
        settings: folio.catalog,
        logger,
      });
    }
    server = createHttpServer({
      folio,
      logger,
      consoleAssetsDir,
      routes: [...(slack?.routes ?? []), ...(teams?.routes ?? [])],
      gate,
      localApiToken,
      metricsExposition: metrics,
    });
    const host = listenHost(config);
    const { url } = await server.listen(config.port, host);
    // `folio ingest|ask|search` find this server here while it holds the embedded store.
    removeServerAddress = await writeServerAddress(config.dataDir, {
      url: `http://127.0.0.1:${config.port}`,
      pid: process.pid,
      token: localApiToken,
    });
    await slack?.start();
    // Questionnaire jobs a stopped server left half-answered go on from their first unanswered row
    // (embedded: all of them, the data directory is this process's alone; PostgreSQL: those untouched
    // for a minute, so a replica never takes a job another one is still answering).
    const resumed = await folio.questionnaires
      .resumeInterrupted(config.storage.kind === "embedded" ? 0 : QUESTIONNAIRE_STALE_AFTER_MS)
      .catch((error: unknown) => {
        logger.warn({ err: error }, "could not resume questionnaire jobs; they wait for the next start");
        return [];
      });
    if (resumed.length > 0) logger.info({ jobs: resumed }, "questionnaire jobs resumed");
    // On a shared database a replica that died leaves its jobs behind while the others run on: look again
    // every minute (the claim is atomic, so one replica takes each job).
    const questionnaireSweep =
      config.storage.kind === "embedded"
        ? null
        : setInterval(() => {
            folio.questionnaires
              .resumeInterrupted(QUESTIONNAIRE_STALE_AFTER_MS)
              .then((jobs) => jobs.length > 0 && logger.info({ jobs }, "questionnaire jobs resumed"))
              .catch((error: unknown) => logger.warn({ err: error }, "questionnaire sweep failed; will try again"));
          }, QUESTIONNAIRE_STALE_AFTER_MS);
    questionnaireSweep?.unref();
    // Finished jobs' files (and so their filled copies) go after FOLIO_QUESTIONNAIRE_RETENTION_DAYS: now,
    // then every hour (on every replica; the delete is one idempotent statement).
    const deleteExpiredQuestionnaireFiles = () =>
      folio.questionnaires
        .deleteExpiredFiles()
        .catch((error: unknown) =>
          logger.warn({ err: error }, "could not delete expired questionnaire files; will try again"),
        );
    void deleteExpiredQuestionnaireFiles();
    const retentionSweep = setInterval(deleteExpiredQuestionnaireFiles, QUESTIONNAIRE_RETENTION_SWEEP_MS);
    retentionSweep.unref();
    const consoleNote = { local: " (this machine only; FOLIO_CONSOLE=open to share it)", open: "", off: " (off)" };
    process.stdout.write(`Folio console: ${url}${consoleNote[config.consoleAccess]}\n`);
    logger.info(
      {
        url,
        host,
        publicUrl: config.publicUrl,
        slack: slack !== null,
        teams: teams !== null,
        console: config.consoleAccess,
      },
      "folio serving",
    );
    // Documents a stopped server left searchable by keywords only are embedded now, in the background.
    // Only here: a one-off `folio ask` or `folio ingest` must not start (and then cut off) that work.
    folio.meaningIndexer?.resumeAwaiting().catch((error: unknown) => {
      logger.warn({ err: error }, "could not list the documents still to embed; they are resumed at the next start");
    });

    const signal = await built.shutdownSignal.received;
    if (questionnaireSweep) clearInterval(questionnaireSweep);
    clearInterval(retentionSweep);
    // Stop taking work (new requests: 503 + Retry-After, /readyz fails, Socket Mode disconnects), then
    // give what was admitted — answers, uploads, Slack work after its ack — the grace period to finish.
    gate.startDraining();
    const graceMs = config.operations.shutdownGraceSeconds * 1000;
    logger.info(
      { signal, inFlight: gate.inFlight, graceSeconds: config.operations.shutdownGraceSeconds },
      "shutting down",
    );
    const drained = await settleWithin([gate.whenIdle(), stopSlack(), teams?.stop() ?? Promise.resolve()], graceMs);
    // Past the grace period, closing cuts off what still runs: answers end with their connection,
    // uploads fail at their next store write (their job row is left for the next start to settle).
    if (drained) logger.info({}, "work in progress finished");
    else logger.warn({ inFlight: gate.inFlight }, "grace period over: requests still running are cut off");
    return EXIT_CODES.ok;
  } finally {
    // Stop taking chat events first, then finish HTTP, then close the stores they write to.
    await removeServerAddress?.().catch((error: unknown) =>
      logger.warn({ error: String(error) }, "could not remove the server-address file"),
    );
    // Bounded: after the grace period, Slack work still running is not waited for again.
    await settleWithin(
      [stopSlack().catch((error: unknown) => logger.error({ error: String(error) }, "slack adapter stop failed"))],
      1_000,
    );
    await server?.close().catch((error: unknown) => logger.error({ error: String(error) }, "http server close failed"));
    await folio.close();
    // Work cut off at the end of the grace period may hold the event loop open (a hung fetch); the
    // process still exits, without keeping it alive for this timer.
    setTimeout(() => process.exit(), 5_000).unref();
  }
}

type ShutdownSignal = {
  /** The first SIGINT or SIGTERM. */
  received: Promise<NodeJS.Signals>;
  stopListening(): void;
};

/**
 * The first SIGINT/SIGTERM starts the orderly shutdown (exit 0). Later ones change nothing: a Ctrl-C
 * under `npm start` reaches the server twice (from the terminal, and forwarded by npm), and the grace
 * period already bounds the wait.
 */
function listenForShutdownSignals(logger: Logger): ShutdownSignal {
  let first: NodeJS.Signals | null = null;
  let resolveReceived: (signal: NodeJS.Signals) => void = () => {};
  const received = new Promise<NodeJS.Signals>((resolve) => {
    resolveReceived = resolve;
  });
  const onSignal = (signal: NodeJS.Signals) => {
    if (first !== null) {
      logger.info({ signal, first }, "already shutting down");
      return;
    }
    first = signal;
    resolveReceived(signal);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    received,
    stopListening() {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}
