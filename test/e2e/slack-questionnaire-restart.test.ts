/**
 * End to end: a questionnaire asked in Slack survives a restart. Through the real Bolt HTTP receiver
 * (signed requests) and the local Web API stand-in, over a real Folio core (PGlite, keyword search,
 * extractive answers): a CSV shared in a DM with "answer this questionnaire" starts a job; the app (Folio
 * and its Slack adapter) is stopped mid-job, leaving the progress message saying it is paused; a fresh
 * app over the same data directory resumes the job from its stored destination, edits the same progress
 * message, uploads the filled copy into the original thread and posts the summary — every row answered
 * once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSlackAdapter, type SlackAdapter } from "../../adapters/slack/slack-adapter.js";
import { slackDestination } from "../../adapters/slack/slack-questionnaire-follower.js";
import { spaceIdForConversation } from "../../adapters/slack/slack-space.js";
import { createFolio, type Folio } from "../../src/composition-root.js";
import { loadConfig } from "../../src/config/config.js";
import { silentLogger } from "../../src/logger.js";
import {
  createQuestionnaireJobStore,
  type QuestionnaireRowRecord,
} from "../../src/questionnaire/jobs/questionnaire-job-store.js";
import { migrateDatabase } from "../../src/stores/migrations.js";
import { openPgliteClient } from "../../src/stores/pglite-client.js";
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

const SIGNING_SECRET = "e2e-signing-secret-questionnaire-restart";
const DM = "D0RESTART";
const ASKER = "U0RESTART";
const QUESTIONS = 300;

const POLICY = `# Security policy

## Backups
Backups are taken every night and kept for 35 days in a second region.
`;

type App = { folio: Folio; adapter: SlackAdapter; server: RouteServer };

let fake: FakeSlackWebApi;
let dataDir: string;
const running: App[] = [];

async function startApp(): Promise<App> {
  const config = loadConfig(
    {
      FOLIO_DATA_DIR: dataDir,
      FOLIO_MODELS_DIR: sharedModelsDir,
      FOLIO_EMBED_MODEL: "none",
      FOLIO_PUBLIC_URL: "https://folio.example",
      FOLIO_QUESTIONNAIRE_CONCURRENCY: "1",
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
  const app = { folio, adapter, server };
  running.push(app);
  return app;
}

/** Stops as `folio serve` does: the adapter first (followers let go), then HTTP, then Folio (jobs stay "running"). */
async function stopApp(app: App) {
  running.splice(running.indexOf(app), 1);
  await app.adapter.stop();
  await app.server.close();
  await app.folio.close();
}

/** The job's rows as the catalog holds them, read while no app is running (PGlite is one process's). */
async function rowsInCatalog(jobId: string): Promise<QuestionnaireRowRecord[]> {
  const client = await openPgliteClient(path.join(dataDir, "db"));
  try {
    await migrateDatabase(client, { denseDimensions: 384, logger: silentLogger });
    return await createQuestionnaireJobStore(client).listRows(jobId);
  } finally {
    await client.close();
  }
}

function folioRepliesIn(threadTs: string): FakeMessage[] {
  return fake.messagesIn(DM).filter((message) => message.bot_id === FAKE_BOT_ID && message.thread_ts === threadTs);
}

/** The highest "N/300 done" the progress message was edited to. */
function rowsDoneInEdits(progressTs: string): number {
  const counts = fake
    .callsTo("chat.update")
    .filter((call) => call.args.ts === progressTs)
    .map((call) => Number(new RegExp(`(\\d+)/${QUESTIONS} done`).exec(String(call.args.text))?.[1] ?? 0));
  return Math.max(0, ...counts);
}

beforeAll(async () => {
  if (!hasSharedData) return;
  fake = await startFakeSlackWebApi();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "folio-slack-questionnaire-restart-"));
});

afterAll(async () => {
  for (const app of [...running]) await stopApp(app);
  await fake?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

if (!hasSharedData)
  console.warn("slack-questionnaire-restart: skipped — no shared data (../shared) for the tokenizer.");

describe.skipIf(!hasSharedData)("a Slack questionnaire across a restart", () => {
  it("is resumed by the next start and reported in its thread: same progress message, filled copy, summary", async () => {
    const first = await startApp();
    const dmSpace = spaceIdForConversation({
      teamId: FAKE_TEAM_ID,
      channelId: DM,
      userId: ASKER,
      isDirectMessage: true,
    });
    const policy = await first.folio.core.ingestFile({
      bytes: new TextEncoder().encode(POLICY),
      fileName: "policy.md",
      spaceId: dmSpace,
      uploader: ASKER,
    });
    expect(policy.status).toBe("ingested");

    const rows = Array.from({ length: QUESTIONS }, () => "How long are backups kept?");
    const bytes = new TextEncoder().encode(`Question\n${rows.join("\n")}\n`);
    const file = fake.addFile({
      id: "F0RESTART",
      name: "restart-review.csv",
      mimetype: "text/csv",
      bytes,
      user: ASKER,
    });
    const ts = fake.nextTs();
    const text = "answer this questionnaire";
    fake.addUserMessage({ channel: DM, ts, user: ASKER, text, files: [file] });
    const response = await postSignedToSlack(
      first.server.url,
      SIGNING_SECRET,
      JSON.stringify(
        eventCallbackEnvelope({
          type: "message",
          subtype: "file_share",
          channel: DM,
          channel_type: "im",
          user: ASKER,
          text,
          ts,
          files: [file],
        }),
      ),
      "application/json",
    );
    expect(response.status).toBe(200);

    const progress = await waitFor(() => folioRepliesIn(ts).find((message) => message.text.startsWith("Answering *")));
    await waitFor(() => rowsDoneInEdits(progress.ts) >= 3, 120_000, "three rows answered");
    await stopApp(first);

    // Stopped mid-job: the message says so, nothing was uploaded, the rows answered so far are kept.
    expect(progress.text).toMatch(
      new RegExp(`^Answering \\*restart-review\\.csv\\*: paused at \\d+/${QUESTIONS} done — Folio is restarting`),
    );
    expect(fake.uploads).toEqual([]);
    const client = await openPgliteClient(path.join(dataDir, "db"));
    const jobs = await client
      .query<{ id: string; status: string }>("SELECT id, status FROM questionnaire_jobs")
      .finally(() => client.close());
    expect(jobs.rows.map((row) => row.status)).toEqual(["running"]);
    const id = jobs.rows[0]?.id ?? "";
    const before = await rowsInCatalog(id);
    const answeredBefore = before.filter((row) => row.result !== null);
    expect(answeredBefore.length).toBeGreaterThanOrEqual(3);
    expect(answeredBefore.length).toBeLessThan(QUESTIONS);

    // A fresh app over the same data directory resumes the job, as `folio serve` does at start.
    const second = await startApp();
    expect(await second.folio.questionnaires.resumeInterrupted(0)).toEqual([id]);
    const summary = await waitFor(
      () => folioRepliesIn(ts).find((message) => message.text.includes("questions in")),
      300_000,
      "the resumed job's summary",
    );
    expect(summary.text).toContain(`*restart-review.csv* — ${QUESTIONS} questions in`);
    expect(summary.text).toContain(`• ${QUESTIONS} answered`);
    // The same progress message, edited by the second app to its final count.
    expect(progress.text).toMatch(
      new RegExp(`^Answering \\*restart-review\\.csv\\* \\(resumed after a restart\\): ${QUESTIONS}/${QUESTIONS} done`),
    );
    expect(folioRepliesIn(ts).filter((message) => message.text.startsWith("Answering *"))).toHaveLength(1);
    // The filled copy, once, into the original thread.
    expect(fake.uploads).toHaveLength(1);
    expect(fake.uploads[0]).toMatchObject({
      filename: "restart-review (filled).csv",
      completed: { channelId: DM, threadTs: ts },
    });
    const filled = new TextDecoder().decode(fake.uploads[0]?.bytes ?? new Uint8Array());
    expect(filled.split("\n")[1]).toContain("35 days");

    await stopApp(second);
    const after = await rowsInCatalog(id);
    expect(after.every((row) => row.result !== null)).toBe(true);
    // Rows answered before the restart kept their answers and were not started again.
    for (const row of answeredBefore) {
      expect(after[row.position]?.result).toEqual(row.result);
      expect(after[row.position]?.attempts).toBe(1);
    }
    // At most the one row cut off mid-answer (concurrency 1) was started twice.
    expect(after.filter((row) => row.attempts > 1).length).toBeLessThanOrEqual(1);
  }, 600_000);

  it("tells the thread of a job that finished while no Slack adapter could, once, at the next start", async () => {
    // A job finished by a process whose adapter was gone (stopped between the last row and the summary):
    // Folio alone, the job submitted with its Slack thread as destination.
    const threadTs = fake.nextTs();
    const config = loadConfig(
      { FOLIO_DATA_DIR: dataDir, FOLIO_MODELS_DIR: sharedModelsDir, FOLIO_EMBED_MODEL: "none" },
      dataDir,
    );
    const alone = await createFolio(config, silentLogger);
    const dmSpace = spaceIdForConversation({
      teamId: FAKE_TEAM_ID,
      channelId: DM,
      userId: ASKER,
      isDirectMessage: true,
    });
    const job = await alone.questionnaires.submit({
      bytes: new TextEncoder().encode("Question\nHow long are backups kept?\n"),
      fileName: "untold.csv",
      spaceId: dmSpace,
      requestedBy: ASKER,
      destination: slackDestination({ teamId: FAKE_TEAM_ID, channelId: DM, threadTs, progressTs: null }),
    });
    expect((await alone.questionnaires.whenSettled(job.id))?.status).toBe("succeeded");
    await alone.close();
    expect(folioRepliesIn(threadTs)).toEqual([]);

    const app = await startApp();
    expect(await app.folio.questionnaires.resumeInterrupted(0)).toEqual([]);
    const summary = await waitFor(() =>
      folioRepliesIn(threadTs).find((message) => message.text.startsWith("*untold.csv* —")),
    );
    expect(summary.text).toContain("*untold.csv* — 1 question in");
    expect(fake.uploads.filter((upload) => upload.filename === "untold (filled).csv")).toEqual([
      expect.objectContaining({ completed: { channelId: DM, threadTs, title: "untold (filled).csv" } }),
    ]);
    await stopApp(app);

    // Told once: the next start finds nothing more to tell.
    const again = await startApp();
    await again.folio.questionnaires.resumeInterrupted(0);
    await stopApp(again);
    expect(folioRepliesIn(threadTs).filter((message) => message.text.startsWith("*untold.csv* —"))).toHaveLength(1);
    expect(fake.uploads.filter((upload) => upload.filename === "untold (filled).csv")).toHaveLength(1);
  }, 300_000);
});
