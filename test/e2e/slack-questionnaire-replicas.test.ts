/**
 * End to end, two Folio replicas on one PostgreSQL catalog (vectors in the local Qdrant stand-in), each
 * with its own Slack adapter behind the real Bolt HTTP receiver, and one local Web API stand-in: a
 * "cancel" delivered to the replica that is not answering a questionnaire stops it on the one that is (the
 * request is recorded in the job's row); and a job whose replica stopped is taken over by the other, which
 * reports in the original thread — same progress message, filled copy, summary. Skipped without
 * TEST_DATABASE_URL (.ci/start-postgres.sh).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSlackAdapter, type SlackAdapter } from "../../adapters/slack/slack-adapter.js";
import { createFolio, type Folio } from "../../src/composition-root.js";
import { loadConfig } from "../../src/config/config.js";
import { silentLogger } from "../../src/logger.js";
import { createScratchDatabase, type ScratchDatabase, testDatabaseUrl } from "../support/ops-postgres-database.js";
import { keepUpsertedPoints } from "../support/ops-qdrant-points.js";
import { type QdrantStandIn, startQdrantStandIn } from "../support/qdrant-stand-in.js";
import { type RouteServer, serveRoutes } from "../support/route-server.js";
import { hasSharedData, sharedModelsDir } from "../support/shared-paths.js";
import { postSignedToSlack } from "../support/slack-signed-request.js";
import { waitFor } from "../support/wait-for.js";
import {
  eventCallbackEnvelope,
  FAKE_BOT_ID,
  FAKE_TEAM_ID,
  type FakeMessage,
  type FakeSlackWebApi,
  startFakeSlackWebApi,
} from "./slack-fake-web-api.js";

const SIGNING_SECRET = "e2e-questionnaire-replicas-secret";
const COLLECTION = "questionnaire_replicas";
const DM = "D0REPLICAS";
const ASKER = "U0REPLICAS";

type Replica = { folio: Folio; adapter: SlackAdapter; server: RouteServer; dataDir: string };

let database: ScratchDatabase;
let standIn: QdrantStandIn;
let fake: FakeSlackWebApi;
const replicas: Replica[] = [];

async function startReplica(): Promise<Replica> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "folio-questionnaire-replica-"));
  const config = loadConfig(
    {
      FOLIO_DATA_DIR: dataDir,
      FOLIO_MODELS_DIR: sharedModelsDir,
      FOLIO_EMBED_MODEL: "none",
      FOLIO_PUBLIC_URL: "https://folio.example",
      FOLIO_QUESTIONNAIRE_CONCURRENCY: "1",
      DATABASE_URL: database.url,
      QDRANT_URL: standIn.url,
      QDRANT_COLLECTION: COLLECTION,
      SLACK_BOT_TOKEN: "xoxb-test",
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
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
    logger: silentLogger,
    tuning: { questionnaireProgressIntervalMs: 0, retryConfig: { retries: 1, minTimeout: 10 } },
  });
  const server = await serveRoutes(adapter.routes);
  await adapter.start();
  const replica = { folio, adapter, server, dataDir };
  replicas.push(replica);
  return replica;
}

async function stopReplica(replica: Replica) {
  replicas.splice(replicas.indexOf(replica), 1);
  await replica.adapter.stop();
  await replica.server.close();
  await replica.folio.close();
  rmSync(replica.dataDir, { recursive: true, force: true });
}

async function sendEvent(replica: Replica, event: Record<string, unknown>) {
  const body = JSON.stringify(eventCallbackEnvelope(event));
  const response = await postSignedToSlack(replica.server.url, SIGNING_SECRET, body, "application/json");
  expect(response.status).toBe(200);
}

function folioRepliesIn(threadTs: string): FakeMessage[] {
  return fake.messagesIn(DM).filter((message) => message.bot_id === FAKE_BOT_ID && message.thread_ts === threadTs);
}

/** A CSV of `rows` questions shared in the DM with "answer this questionnaire", delivered to `replica`. */
async function askToAnswer(replica: Replica, id: string, name: string, rows: number): Promise<string> {
  const questions = Array.from({ length: rows }, (_, index) => `How long are backups of system ${index + 1} kept?`);
  const bytes = new TextEncoder().encode(`Question\n${questions.join("\n")}\n`);
  const file = fake.addFile({ id, name, mimetype: "text/csv", bytes, user: ASKER });
  const ts = fake.nextTs();
  const text = "answer this questionnaire";
  fake.addUserMessage({ channel: DM, ts, user: ASKER, text, files: [file] });
  await sendEvent(replica, {
    type: "message",
    subtype: "file_share",
    channel: DM,
    channel_type: "im",
    user: ASKER,
    text,
    ts,
    files: [file],
  });
  return ts;
}

if (!testDatabaseUrl) {
  console.warn("slack-questionnaire-replicas: skipped — TEST_DATABASE_URL is not set (see .ci/start-postgres.sh).");
} else if (!hasSharedData) {
  console.warn("slack-questionnaire-replicas: skipped — no shared data (../shared) for the tokenizer.");
}

describe.skipIf(!testDatabaseUrl || !hasSharedData)("Slack questionnaires on two replicas", () => {
  beforeAll(async () => {
    database = await createScratchDatabase("folio_questionnaire_replicas");
    standIn = await startQdrantStandIn({ collection: COLLECTION, exists: false });
    keepUpsertedPoints(standIn, COLLECTION, { spaceId: `slack:${FAKE_TEAM_ID}:user:${ASKER}` });
    fake = await startFakeSlackWebApi();
  }, 120_000);

  afterAll(async () => {
    for (const replica of [...replicas]) await stopReplica(replica);
    await fake?.close();
    await standIn?.close();
    await database?.drop();
  });

  it("stops a questionnaire answered by one replica when “cancel” reaches the other", async () => {
    const [answering, other] = [await startReplica(), await startReplica()];
    const ts = await askToAnswer(answering, "F0REPCANCEL", "replicas-cancel.csv", 1_500);
    await waitFor(() => folioRepliesIn(ts).find((message) => message.text.startsWith("Answering *")), 60_000);

    const cancelTs = fake.nextTs();
    fake.addUserMessage({ channel: DM, ts: cancelTs, user: ASKER, text: "cancel", thread_ts: ts });
    await sendEvent(other, {
      type: "message",
      channel: DM,
      channel_type: "im",
      user: ASKER,
      text: "cancel",
      ts: cancelTs,
      thread_ts: ts,
    });
    await waitFor(() => folioRepliesIn(ts).find((message) => message.text.startsWith("Cancelling")));
    const stopped = await waitFor(
      () => folioRepliesIn(ts).find((message) => message.text.startsWith("Stopped answering")),
      60_000,
      "the answering replica to stop",
    );
    expect(stopped.text).toMatch(/^Stopped answering replicas-cancel\.csv: cancelled · \d+\/1500 done/);
    const [job] = await other.folio.questionnaires.listJobs(`slack:${FAKE_TEAM_ID}:user:${ASKER}`);
    expect(job?.status).toBe("cancelled");
    expect(job?.counts.pending).toBeGreaterThan(0);
    expect(fake.uploads.some((upload) => upload.filename === "replicas-cancel (filled).csv")).toBe(false);
    await stopReplica(answering);
    await stopReplica(other);
  }, 180_000);

  it("takes over a job whose replica stopped and reports in the original thread", async () => {
    const first = await startReplica();
    const ts = await askToAnswer(first, "F0REPTAKE", "replicas-takeover.csv", 200);
    const progress = await waitFor(
      () => folioRepliesIn(ts).find((message) => message.text.startsWith("Answering *")),
      60_000,
    );
    await waitFor(() => /: ([3-9]|\d{2,})\/200 done/.test(progress.text), 120_000, "three rows answered");
    await stopReplica(first);
    expect(progress.text).toMatch(/paused at \d+\/200 done/);

    const second = await startReplica();
    // The sweep `folio serve` runs every minute on PostgreSQL, with the stopped replica's job made stale.
    const [job] = await second.folio.questionnaires.listJobs(`slack:${FAKE_TEAM_ID}:user:${ASKER}`);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query("UPDATE questionnaire_jobs SET updated_at = now() - interval '10 minutes' WHERE id = $1", [
      job?.id,
    ]);
    await admin.end();
    expect(await second.folio.questionnaires.resumeInterrupted(60_000)).toEqual([job?.id]);
    const summary = await waitFor(
      () => folioRepliesIn(ts).find((message) => message.text.includes("questions in")),
      300_000,
      "the taken-over job's summary",
    );
    expect(summary.text).toContain("*replicas-takeover.csv* — 200 questions in");
    expect(progress.text).toMatch(/^Answering \*replicas-takeover\.csv\* \(resumed after a restart\): 200\/200 done/);
    expect(fake.uploads.filter((upload) => upload.filename === "replicas-takeover (filled).csv")).toEqual([
      expect.objectContaining({ completed: { channelId: DM, threadTs: ts, title: "replicas-takeover (filled).csv" } }),
    ]);
    const rows = await second.folio.questionnaires.listRows(job?.id ?? "");
    expect(rows.filter((row) => row.result === null)).toEqual([]);
    expect(rows.filter((row) => row.attempts > 1).length).toBeLessThanOrEqual(1);
  }, 400_000);
});
