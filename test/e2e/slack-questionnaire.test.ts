/**
 * End to end: questionnaires in Slack through the real Bolt HTTP receiver (signed requests) and the
 * local Web API stand-in, over a real Folio core (PGlite, keyword search, extractive answers). A
 * shared XLSX questionnaire, then "answer this questionnaire" in its thread: progress edited in place,
 * the filled copy uploaded back into the thread (getUploadURLExternal → bytes → completeUploadExternal),
 * the summary posted; the copy indexed when it was shared is removed. `/folio questionnaire` on a file
 * that is not a questionnaire answers with the reason.
 */
import { randomUUID } from "node:crypto";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSlackAdapter, type SlackAdapter } from "../../adapters/slack/slack-adapter.js";
import { spaceIdForConversation } from "../../adapters/slack/slack-space.js";
import type { Folio } from "../../src/composition-root.js";
import { loadConfig } from "../../src/config/config.js";
import { silentLogger } from "../../src/logger.js";
import { type RouteServer, serveRoutes } from "../support/route-server.js";
import { hasSharedData } from "../support/shared-paths.js";
import { postSignedToSlack } from "../support/slack-signed-request.js";
import { waitFor } from "../support/wait-for.js";
import {
  eventCallbackEnvelope,
  FAKE_BOT_ID,
  FAKE_BOT_USER_ID,
  FAKE_TEAM_ID,
  type FakeMessage,
  type FakeSlackWebApi,
} from "./slack-fake-web-api.js";
import { startSlackTestFolio, stopSlackTestFolio } from "./slack-test-folio.js";

const SIGNING_SECRET = "e2e-signing-secret-questionnaire-0123";
const CHANNEL = "C0QUESTION";
const OTHER_CHANNEL = "C0NOTAQUEST";
const ASKER = "U0ASKER";
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const POLICY = `# Security policy

## Backups
Backups are taken every night and kept for 35 days in a second region.

## Encryption
Customer data is encrypted at rest with AES-256.
`;

const QUESTIONS = [
  "How long are backups kept?",
  "Is customer data encrypted at rest?",
  "How many visitor parking spaces does the office have?",
];

let fake: FakeSlackWebApi;
let folio: Folio;
let adapter: SlackAdapter;
let server: RouteServer;
let dataDir: string;

async function sendEvent(event: Record<string, unknown>) {
  const response = await postSignedToSlack(
    server.url,
    SIGNING_SECRET,
    JSON.stringify(eventCallbackEnvelope(event)),
    "application/json",
  );
  expect(response.status).toBe(200);
}

function folioRepliesIn(channel: string, threadTs: string): FakeMessage[] {
  return fake.messagesIn(channel).filter((message) => message.bot_id === FAKE_BOT_ID && message.thread_ts === threadTs);
}

async function questionnaireXlsx(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Security");
  sheet.addRow(["ID", "Question", "Comment"]);
  for (const [index, question] of QUESTIONS.entries()) sheet.addRow([`Q${index + 1}`, question, ""]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** A person shares a file at the top of a channel: the message (with the file) and its event. */
async function shareFile(channel: string, id: string, name: string, mimetype: string, bytes: Uint8Array) {
  const file = fake.addFile({ id, name, mimetype, bytes, user: ASKER });
  const ts = fake.nextTs();
  file.shares = { public: { [channel]: [{ ts }] } };
  fake.addUserMessage({ channel, ts, user: ASKER, text: "", files: [file] });
  await sendEvent({
    type: "message",
    subtype: "file_share",
    channel,
    channel_type: "channel",
    user: ASKER,
    text: "",
    ts,
    files: [file],
  });
  return ts;
}

beforeAll(async () => {
  if (!hasSharedData) return;
  ({ fake, dataDir, folio, adapter, server } = await startSlackTestFolio({
    signingSecret: SIGNING_SECRET,
    dataDirPrefix: "folio-slack-questionnaire-",
    // Every row's progress is written, so a three-row questionnaire shows its edits.
    tuning: { updateIntervalMs: 200, questionnaireProgressIntervalMs: 0, retryConfig: { retries: 1, minTimeout: 10 } },
  }));
  const ingested = await folio.core.ingestFile({
    bytes: new TextEncoder().encode(POLICY),
    fileName: "security-policy.md",
    spaceId: `slack:${FAKE_TEAM_ID}:${CHANNEL}`,
    uploader: ASKER,
  });
  expect(ingested.status).toBe("ingested");
}, 180_000);

afterAll(async () => {
  await stopSlackTestFolio({ fake, dataDir, folio, adapter, server });
});

if (!hasSharedData) console.warn("slack-questionnaire: skipped — no shared data (../shared) for the tokenizer.");

describe.skipIf(!hasSharedData)("questionnaires in Slack", () => {
  it("answers a shared XLSX in its thread: progress in place, the filled copy uploaded back, the summary", async () => {
    const spaceId = `slack:${FAKE_TEAM_ID}:${CHANNEL}`;
    const fileTs = await shareFile(CHANNEL, "F0QUEST", "vendor-review.xlsx", XLSX_TYPE, await questionnaireXlsx());
    // Shared files are indexed as they arrive; this one too, until someone asks to answer it.
    await waitFor(() => folioRepliesIn(CHANNEL, fileTs).find((message) => message.text.startsWith("Indexed")));
    expect((await folio.core.listDocuments(spaceId)).map((document) => document.fileName)).toContain(
      "vendor-review.xlsx",
    );

    const askTs = fake.nextTs();
    const text = `<@${FAKE_BOT_USER_ID}> answer this questionnaire please`;
    fake.addUserMessage({ channel: CHANNEL, ts: askTs, thread_ts: fileTs, user: ASKER, text });
    await sendEvent({ type: "app_mention", channel: CHANNEL, user: ASKER, text, ts: askTs, thread_ts: fileTs });

    const summary = await waitFor(
      () => folioRepliesIn(CHANNEL, fileTs).find((message) => message.text.includes("questions in")),
      120_000,
    );
    expect(summary.text).toContain("*vendor-review.xlsx* — 3 questions in");
    expect(summary.text).toMatch(/• [1-3] answered/);
    expect(summary.text).toMatch(/• [0-2] not found in the documents/);

    // The indexed copy is gone, and the thread says why.
    expect((await folio.core.listDocuments(spaceId)).map((document) => document.fileName)).toEqual([
      "security-policy.md",
    ]);
    expect(
      folioRepliesIn(CHANNEL, fileTs).some((message) => message.text.includes("is a questionnaire, not a source")),
    ).toBe(true);

    // Progress: one message, edited in place row by row, ending on the final count.
    const progress = folioRepliesIn(CHANNEL, fileTs).find((message) => message.text.startsWith("Answering *"));
    expect(progress).toBeDefined();
    const edits = fake.callsTo("chat.update").filter((call) => call.args.ts === progress?.ts);
    expect(edits.length).toBeGreaterThanOrEqual(2);
    expect(edits.map((call) => String(call.args.text))).toContainEqual(expect.stringMatching(/: [12]\/3 done · /));
    expect(progress?.text).toMatch(/: 3\/3 done · .* · took /);

    // The filled copy: reserved, uploaded, completed into the file's thread, before the summary.
    const [upload] = fake.uploads;
    expect(upload?.filename).toBe("vendor-review (filled).xlsx");
    expect(upload?.completed).toEqual({ channelId: CHANNEL, threadTs: fileTs, title: "vendor-review (filled).xlsx" });
    const completed = fake.callsTo("files.completeUploadExternal")[0];
    expect(completed?.at).toBeLessThanOrEqual(
      fake.callsTo("chat.postMessage").find((call) => String(call.args.text).includes("questions in"))?.at ?? 0,
    );
    const shared = fake.messagesIn(CHANNEL).find((message) => message.files?.[0]?.id === upload?.fileId);
    expect(shared?.thread_ts).toBe(fileTs);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(upload?.bytes ?? new Uint8Array()) as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet("Security");
    if (!sheet) throw new Error("the filled copy lost its sheet");
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 3)).toEqual(["ID", "Question", "Comment"]);
    const statusColumn = header.indexOf("Status") + 1;
    const answerColumn = header.indexOf("Answer") + 1;
    const sourcesColumn = header.indexOf("Sources") + 1;
    expect(statusColumn).toBeGreaterThan(3);
    const backups = sheet.getRow(2);
    expect(backups?.getCell(2).value).toBe(QUESTIONS[0]);
    expect(String(backups?.getCell(answerColumn).value)).toContain("35 days");
    expect(backups?.getCell(statusColumn).value).toBe("answered");
    expect(JSON.stringify(backups?.getCell(sourcesColumn).value)).toContain("security-policy");
    expect(JSON.stringify(backups?.getCell(sourcesColumn).value)).not.toContain("vendor-review");
    expect(sheet.getRow(4).getCell(statusColumn).value).toBe("not found in the documents");
  }, 180_000);

  it("answers a CSV shared in a DM with the ask in the same message, without ever indexing it", async () => {
    const dm = "D0QUESTDM";
    // A DM searches the person's own uploads: the policy is theirs there too.
    const dmSpace = spaceIdForConversation({
      teamId: FAKE_TEAM_ID,
      channelId: dm,
      userId: ASKER,
      isDirectMessage: true,
    });
    const policy = await folio.core.ingestFile({
      bytes: new TextEncoder().encode(POLICY),
      fileName: "my-policy.md",
      spaceId: dmSpace,
      uploader: ASKER,
    });
    expect(policy.status).toBe("ingested");
    const bytes = new TextEncoder().encode(`Question\n${QUESTIONS[0]}\n${QUESTIONS[2]}\n`);
    const file = fake.addFile({ id: "F0DMCSV", name: "dm-review.csv", mimetype: "text/csv", bytes, user: ASKER });
    const ts = fake.nextTs();
    const text = "answer this questionnaire";
    fake.addUserMessage({ channel: dm, ts, user: ASKER, text, files: [file] });
    await sendEvent({
      type: "message",
      subtype: "file_share",
      channel: dm,
      channel_type: "im",
      user: ASKER,
      text,
      ts,
      files: [file],
    });

    const summary = await waitFor(
      () => folioRepliesIn(dm, ts).find((message) => message.text.includes("questions in")),
      120_000,
    );
    expect(summary.text).toContain("*dm-review.csv* — 2 questions in");
    expect(summary.text).toContain("• 1 answered");
    expect(summary.text).toContain("• 1 not found in the documents");
    expect(folioRepliesIn(dm, ts).some((message) => message.text.startsWith("Indexed"))).toBe(false);
    expect((await folio.core.listDocuments(dmSpace)).map((document) => document.fileName)).toEqual(["my-policy.md"]);
    expect(fake.uploads.find((upload) => upload.completed?.channelId === dm)).toMatchObject({
      filename: "dm-review (filled).csv",
      completed: { threadTs: ts },
    });
  }, 180_000);

  it("stops a long questionnaire when someone says “cancel” in its thread", async () => {
    const rows = Array.from({ length: 1_500 }, (_, index) => `How long are backups of system ${index + 1} kept?`);
    const bytes = new TextEncoder().encode(`Question\n${rows.join("\n")}\n`);
    const fileTs = await shareFile(CHANNEL, "F0LONG", "long-review.csv", "text/csv", bytes);
    await waitFor(() => folioRepliesIn(CHANNEL, fileTs).find((message) => message.text.startsWith("Indexed")));
    const askTs = fake.nextTs();
    const ask = `<@${FAKE_BOT_USER_ID}> answer this questionnaire`;
    fake.addUserMessage({ channel: CHANNEL, ts: askTs, thread_ts: fileTs, user: ASKER, text: ask });
    await sendEvent({ type: "app_mention", channel: CHANNEL, user: ASKER, text: ask, ts: askTs, thread_ts: fileTs });
    await waitFor(() => folioRepliesIn(CHANNEL, fileTs).find((message) => message.text.startsWith("Answering *")));

    const cancelTs = fake.nextTs();
    fake.addUserMessage({ channel: CHANNEL, ts: cancelTs, thread_ts: fileTs, user: ASKER, text: "cancel" });
    await sendEvent({
      type: "message",
      channel: CHANNEL,
      channel_type: "channel",
      user: ASKER,
      text: "cancel",
      ts: cancelTs,
      thread_ts: fileTs,
    });
    const stopped = await waitFor(
      () => folioRepliesIn(CHANNEL, fileTs).find((message) => message.text.startsWith("Stopped answering")),
      60_000,
    );
    expect(stopped.text).toMatch(/^Stopped answering long-review\.csv: cancelled · \d+\/1500 done/);
    const done = Number(/(\d+)\/1500 done/.exec(stopped.text)?.[1]);
    expect(done).toBeLessThan(1_500);
    // Cancelled: no filled copy, no summary, and "cancel" was not answered as a question.
    expect(fake.uploads.some((upload) => upload.filename === "long-review (filled).csv")).toBe(false);
    expect(folioRepliesIn(CHANNEL, fileTs).some((message) => message.text.includes("questions in"))).toBe(false);
  }, 180_000);

  it("stops a questionnaire when “cancel” reaches a replica that does not follow it (found through the catalog)", async () => {
    // A second Slack adapter: a replica whose process did not start the job and follows nothing.
    const config = loadConfig(
      {
        FOLIO_DATA_DIR: dataDir,
        FOLIO_EMBED_MODEL: "none",
        SLACK_BOT_TOKEN: "xoxb-test",
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: fake.url,
      },
      dataDir,
    );
    if (!config.slack) throw new Error("Slack configuration missing");
    const replica = createSlackAdapter({
      core: folio.core,
      slack: config.slack,
      librarySpaceId: null,
      logger: silentLogger,
      tuning: { retryConfig: { retries: 1, minTimeout: 10 } },
    });
    const replicaServer = await serveRoutes(replica.routes);
    try {
      await replica.start();
      const rows = Array.from({ length: 1_500 }, (_, index) => `How long are backups of cluster ${index + 1} kept?`);
      const bytes = new TextEncoder().encode(`Question\n${rows.join("\n")}\n`);
      const fileTs = await shareFile(CHANNEL, "F0REPLICA", "replica-review.csv", "text/csv", bytes);
      await waitFor(() => folioRepliesIn(CHANNEL, fileTs).find((message) => message.text.startsWith("Indexed")));
      const askTs = fake.nextTs();
      const ask = `<@${FAKE_BOT_USER_ID}> answer this questionnaire`;
      fake.addUserMessage({ channel: CHANNEL, ts: askTs, thread_ts: fileTs, user: ASKER, text: ask });
      await sendEvent({ type: "app_mention", channel: CHANNEL, user: ASKER, text: ask, ts: askTs, thread_ts: fileTs });
      await waitFor(() => folioRepliesIn(CHANNEL, fileTs).find((message) => message.text.startsWith("Answering *")));

      const cancelTs = fake.nextTs();
      fake.addUserMessage({ channel: CHANNEL, ts: cancelTs, thread_ts: fileTs, user: ASKER, text: "cancel" });
      const response = await postSignedToSlack(
        replicaServer.url,
        SIGNING_SECRET,
        JSON.stringify(
          eventCallbackEnvelope({
            type: "message",
            channel: CHANNEL,
            channel_type: "channel",
            user: ASKER,
            text: "cancel",
            ts: cancelTs,
            thread_ts: fileTs,
          }),
        ),
        "application/json",
      );
      expect(response.status).toBe(200);
      const acknowledged = await waitFor(() =>
        folioRepliesIn(CHANNEL, fileTs).find((message) => message.text.startsWith("Cancelling")),
      );
      expect(acknowledged.text).toBe("Cancelling *replica-review.csv*: answering stops after the row in progress.");
      // The process answering it stops and says so in the same thread.
      const stopped = await waitFor(
        () => folioRepliesIn(CHANNEL, fileTs).find((message) => message.text.startsWith("Stopped answering")),
        60_000,
      );
      expect(stopped.text).toMatch(/^Stopped answering replica-review\.csv: cancelled · \d+\/1500 done/);
      expect(fake.uploads.some((upload) => upload.filename === "replica-review (filled).csv")).toBe(false);
    } finally {
      await replica.stop();
      await replicaServer.close();
    }
  }, 180_000);

  it("refuses, with the reason in the file's thread, a /folio questionnaire on a file that is not one", async () => {
    const fileTs = await shareFile(
      OTHER_CHANNEL,
      "F0NOTES",
      "notes.md",
      "text/markdown",
      new TextEncoder().encode("# Notes\n\nNothing to answer here.\n"),
    );
    await waitFor(() => folioRepliesIn(OTHER_CHANNEL, fileTs).find((message) => message.text.startsWith("Indexed")));
    const response = await postSignedToSlack(
      server.url,
      SIGNING_SECRET,
      new URLSearchParams({
        command: "/folio",
        text: "questionnaire",
        team_id: FAKE_TEAM_ID,
        channel_id: OTHER_CHANNEL,
        user_id: ASKER,
        response_url: `${fake.url}/response`,
        trigger_id: `t-${randomUUID()}`,
        token: "t",
        api_app_id: "A0FOLIO",
      }).toString(),
      "application/x-www-form-urlencoded",
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { text: string }).text).toBe(
      "Answering notes[.]md as a questionnaire — progress and the filled copy will be in its thread.",
    );
    const refusal = await waitFor(() =>
      folioRepliesIn(OTHER_CHANNEL, fileTs).find((message) => message.text.startsWith("I can't answer")),
    );
    expect(refusal.text).toMatch(/^I can't answer notes\[\.\]md as a questionnaire: .+/);
    expect(fake.uploads.filter((upload) => upload.completed?.channelId === OTHER_CHANNEL)).toEqual([]);
    // Refused as a questionnaire, it stays the document it was indexed as.
    const documents = await folio.core.listDocuments(`slack:${FAKE_TEAM_ID}:${OTHER_CHANNEL}`);
    expect(documents.map((document) => document.fileName)).toEqual(["notes.md"]);
  }, 120_000);
});
