/**
 * Two replicas: two real `folio serve` processes on one PostgreSQL database (vectors in the Qdrant
 * stand-in), both with the Slack adapter in HTTP mode against the Slack Web API stand-in. Every Slack
 * event is delivered to both replicas, twice each (the second time as Slack's retry): a shared file is
 * downloaded and ingested once, and a question gets exactly one placeholder and one answer.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FolioProcess, startFolioServe } from "../support/ops-folio-process.js";
import { createScratchDatabase, type ScratchDatabase, testDatabaseUrl } from "../support/ops-postgres-database.js";
import { keepUpsertedPoints } from "../support/ops-qdrant-points.js";
import { type QdrantStandIn, startQdrantStandIn } from "../support/qdrant-stand-in.js";
import { hasSharedData, sharedData, sharedModel } from "../support/shared-paths.js";
import { postSignedToSlack } from "../support/slack-signed-request.js";
import { sleep, waitFor } from "../support/wait-for.js";
import {
  eventCallbackEnvelope,
  FAKE_BOT_ID,
  FAKE_BOT_USER_ID,
  FAKE_TEAM_ID,
  type FakeSlackWebApi,
  startFakeSlackWebApi,
} from "./slack-fake-web-api.js";

const SIGNING_SECRET = "replicas-signing-secret-0123456789abcdef";
const COLLECTION = "ops_replicas";
const CHANNEL = "C0REPLICAS";
const SPACE = `slack:${FAKE_TEAM_ID}:${CHANNEL}`;
const ASKER = "U0ASKER";
const PDF_NAME = "contoso-perksplus.pdf";

if (!testDatabaseUrl) console.warn("ops-replicas: skipped — TEST_DATABASE_URL is not set (see .ci/start-postgres.sh).");
else if (!hasSharedData) console.warn("ops-replicas: skipped — no shared data (../shared) for the PDF and tokenizer.");

/** One Slack delivery of an event to one replica; `retryNum` marks Slack's redelivery. */
async function deliver(replica: FolioProcess, body: string, retryNum?: number): Promise<number> {
  const options = retryNum === undefined ? {} : { retryNum };
  return (await postSignedToSlack(replica.url, SIGNING_SECRET, body, "application/json", options)).status;
}

/** Each replica gets the event, at the same moment, then each gets Slack's retry of it. */
async function deliverToBothTwice(replicas: FolioProcess[], event: Record<string, unknown>): Promise<number[]> {
  const body = JSON.stringify(eventCallbackEnvelope(event));
  const first = await Promise.all(replicas.map((replica) => deliver(replica, body)));
  const retries = await Promise.all(replicas.map((replica) => deliver(replica, body, 1)));
  return [...first, ...retries];
}

describe.skipIf(!testDatabaseUrl || !hasSharedData)("two replicas on one PostgreSQL", () => {
  let database: ScratchDatabase;
  let standIn: QdrantStandIn;
  let slack: FakeSlackWebApi;
  const replicas: FolioProcess[] = [];
  const dataDirs: string[] = [];

  beforeAll(async () => {
    database = await createScratchDatabase("folio_ops_replicas");
    standIn = await startQdrantStandIn({ collection: COLLECTION, exists: false });
    keepUpsertedPoints(standIn, COLLECTION, { spaceId: SPACE });
    slack = await startFakeSlackWebApi();
    const environment = async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), "folio-ops-replica-"));
      dataDirs.push(dataDir);
      return {
        FOLIO_DATA_DIR: dataDir,
        FOLIO_MODELS_DIR: path.dirname(sharedModel("bge-small-en-v1.5")),
        FOLIO_EMBED_MODEL: "none",
        FOLIO_PUBLIC_URL: "https://folio.example",
        FOLIO_LINK_SECRET: "replicas-link-secret-0123456789abcdef0123",
        DATABASE_URL: database.url,
        QDRANT_URL: standIn.url,
        QDRANT_COLLECTION: COLLECTION,
        SLACK_BOT_TOKEN: "xoxb-test",
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: slack.url,
      };
    };
    // Started together, as an orchestrator does: both migrate the same empty database at once.
    const [first, second] = await Promise.all([
      startFolioServe(await environment()),
      startFolioServe(await environment()),
    ]);
    replicas.push(first, second);
  }, 180_000);

  afterAll(async () => {
    for (const replica of replicas) await replica.kill();
    await slack?.close();
    await standIn?.close();
    await database?.drop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  it("ingests a file shared once, whichever replica gets which delivery", async () => {
    const bytes = new Uint8Array(await readFile(sharedData("enterprise-pdfs/pdfs", PDF_NAME)));
    const file = slack.addFile({ id: "F0REPLICA", name: PDF_NAME, mimetype: "application/pdf", bytes, user: ASKER });
    const ts = slack.nextTs();
    file.shares = { public: { [CHANNEL]: [{ ts }] } };
    slack.addUserMessage({ channel: CHANNEL, ts, user: ASKER, text: "" });
    const statuses = await deliverToBothTwice(replicas, {
      type: "message",
      subtype: "file_share",
      channel: CHANNEL,
      channel_type: "channel",
      user: ASKER,
      text: "",
      ts,
      files: [file],
    });
    expect(statuses).toEqual([200, 200, 200, 200]);

    const replies = () =>
      slack.messagesIn(CHANNEL).filter((message) => message.bot_id === FAKE_BOT_ID && message.thread_ts === ts);
    await waitFor(() => replies().some((message) => message.text.startsWith(`Indexed ${PDF_NAME}`)), 60_000);
    await sleep(2_000); // a second replica working on it would have said so by now
    expect(replies()).toHaveLength(1);
    expect(slack.downloads.filter((download) => download.fileId === "F0REPLICA")).toHaveLength(1);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const documents = await client.query("SELECT id FROM documents WHERE file_name = $1", [PDF_NAME]);
      expect(documents.rows).toHaveLength(1);
      const jobs = await client.query("SELECT status FROM ingestion_jobs WHERE file_name = $1", [PDF_NAME]);
      expect(jobs.rows).toEqual([{ status: "succeeded" }]);
    } finally {
      await client.end();
    }
  }, 120_000);

  it("answers a question delivered to both replicas, twice each, exactly once", async () => {
    const ts = slack.nextTs();
    const text = `<@${FAKE_BOT_USER_ID}> How much can employees expense for fitness programs?`;
    slack.addUserMessage({ channel: CHANNEL, ts, user: ASKER, text });
    const statuses = await deliverToBothTwice(replicas, {
      type: "app_mention",
      channel: CHANNEL,
      user: ASKER,
      text,
      ts,
    });
    expect(statuses).toEqual([200, 200, 200, 200]);

    const placeholders = () =>
      slack.callsTo("chat.postMessage").filter((call) => call.args.channel === CHANNEL && call.args.thread_ts === ts);
    const answered = () =>
      slack
        .messagesIn(CHANNEL)
        .filter(
          (message) =>
            message.bot_id === FAKE_BOT_ID &&
            message.thread_ts === ts &&
            (message.blocks ?? []).some((block) => (block as { type?: string }).type === "actions"),
        );
    await waitFor(() => answered().length > 0, 60_000);
    await sleep(2_000);
    expect(placeholders()).toHaveLength(1);
    expect(answered()).toHaveLength(1);
    expect(JSON.stringify(answered()[0]?.blocks)).toContain("1000");
    const skipped = replicas.map((replica) => replica.output().split("duplicate slack event skipped").length - 1);
    // Four deliveries of each of the two events: one taken, three skipped — spread over the replicas.
    expect(skipped.reduce((sum, count) => sum + count, 0)).toBe(6);
  }, 120_000);
});
