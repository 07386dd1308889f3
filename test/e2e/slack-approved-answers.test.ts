/**
 * End to end: approved answers from Slack through the real Bolt HTTP receiver (signed requests) and the
 * local Web API stand-in, over a real Folio core (PGlite, keyword search). `/folio answers add` on a
 * completed XLSX shared in a channel adds its question/answer pairs to the channel's space with their
 * origin and the Slack user who added them, and says how many were added and skipped; a question asked
 * afterwards leads with the approved answer; `/folio answers list` and `remove` manage them; a CSV sent in
 * a DM with "add these as approved answers" is added to the person's own space and never indexed.
 */
import { randomUUID } from "node:crypto";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SlackAdapter } from "../../adapters/slack/slack-adapter.js";
import { spaceIdForConversation } from "../../adapters/slack/slack-space.js";
import type { Folio } from "../../src/composition-root.js";
import type { RouteServer } from "../support/route-server.js";
import { hasSharedData } from "../support/shared-paths.js";
import { postSignedToSlack } from "../support/slack-signed-request.js";
import { waitFor } from "../support/wait-for.js";
import {
  eventCallbackEnvelope,
  FAKE_BOT_ID,
  FAKE_BOT_USER_ID,
  FAKE_TEAM_ID,
  type FakeFile,
  type FakeMessage,
  type FakeSlackWebApi,
} from "./slack-fake-web-api.js";
import { startSlackTestFolio, stopSlackTestFolio } from "./slack-test-folio.js";

const SIGNING_SECRET = "e2e-signing-secret-approved-answers";
const CHANNEL = "C0APPROVED";
const DM = "D0APPROVED";
const ASKER = "U0APPROVER";
const CHANNEL_SPACE = `slack:${FAKE_TEAM_ID}:${CHANNEL}`;
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

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

async function slashCommand(channel: string, text: string): Promise<string> {
  const response = await postSignedToSlack(
    server.url,
    SIGNING_SECRET,
    new URLSearchParams({
      command: "/folio",
      text,
      team_id: FAKE_TEAM_ID,
      channel_id: channel,
      user_id: ASKER,
      response_url: `${fake.url}/response`,
      trigger_id: `t-${randomUUID()}`,
      token: "t",
      api_app_id: "A0FOLIO",
    }).toString(),
    "application/x-www-form-urlencoded",
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { text: string }).text;
}

/** The asker shares `file` in the direct message with `text`, as Slack announces it; returns the message's ts. */
async function shareInDirectMessage(file: FakeFile, text: string): Promise<string> {
  const ts = fake.nextTs();
  fake.addUserMessage({ channel: DM, ts, user: ASKER, text, files: [file] });
  await sendEvent({
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

function folioRepliesIn(channel: string, threadTs: string): FakeMessage[] {
  return fake.messagesIn(channel).filter((message) => message.bot_id === FAKE_BOT_ID && message.thread_ts === threadTs);
}

async function completedXlsx(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Security");
  sheet.addRow(["Question", "Answer"]);
  sheet.addRow(["Do you encrypt customer data at rest?", "Yes, with AES-256 on every volume."]);
  sheet.addRow(["How often are access reviews held?", "Every quarter, by the security team."]);
  sheet.addRow(["Which regions hold backups?", ""]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

beforeAll(async () => {
  if (!hasSharedData) return;
  ({ fake, dataDir, folio, adapter, server } = await startSlackTestFolio({
    signingSecret: SIGNING_SECRET,
    dataDirPrefix: "folio-slack-approved-answers-",
    tuning: { updateIntervalMs: 200, retryConfig: { retries: 1, minTimeout: 10 } },
  }));
}, 180_000);

afterAll(async () => {
  await stopSlackTestFolio({ fake, dataDir, folio, adapter, server });
});

if (!hasSharedData) console.warn("slack-approved-answers: skipped — no shared data (../shared) for the tokenizer.");

describe.skipIf(!hasSharedData)("approved answers in Slack", () => {
  it("/folio answers add on a shared file stores its pairs with their origin; questions lead with them", async () => {
    const started = Date.now();
    const file = fake.addFile({
      id: "F0COMPLETED",
      name: "completed-review.xlsx",
      mimetype: XLSX_TYPE,
      bytes: await completedXlsx(),
      user: ASKER,
    });
    const fileTs = fake.nextTs();
    file.shares = { public: { [CHANNEL]: [{ ts: fileTs }] } };
    fake.addUserMessage({ channel: CHANNEL, ts: fileTs, user: ASKER, text: "", files: [file] });
    await sendEvent({
      type: "message",
      subtype: "file_share",
      channel: CHANNEL,
      channel_type: "channel",
      user: ASKER,
      text: "",
      ts: fileTs,
      files: [file],
    });
    await waitFor(() => folioRepliesIn(CHANNEL, fileTs).find((message) => message.text.startsWith("Indexed")));

    expect(await slashCommand(CHANNEL, "answers add")).toBe(
      "Adding completed-review.xlsx as approved answers — I will say how many in its thread.",
    );
    const reply = await waitFor(() =>
      folioRepliesIn(CHANNEL, fileTs).find((message) => message.text.startsWith("Added")),
    );
    expect(reply.text.split("\n").slice(0, 3)).toEqual([
      "Added 2 approved answers from *completed-review.xlsx* to this channel.",
      "• questions from “Question”, answers from “Answer”",
      "• 1 row skipped: a question without an answer or the reverse",
    ]);

    const records = await folio.core.approvedAnswers?.list(CHANNEL_SPACE);
    expect(
      records?.map(({ question, answer, file: origin, sheet, row, addedBy }) => ({
        question,
        answer,
        origin,
        sheet,
        row,
        addedBy,
      })),
    ).toEqual([
      {
        question: "Do you encrypt customer data at rest?",
        answer: "Yes, with AES-256 on every volume.",
        origin: "completed-review.xlsx",
        sheet: "Security",
        row: 2,
        addedBy: `slack:${ASKER}`,
      },
      {
        question: "How often are access reviews held?",
        answer: "Every quarter, by the security team.",
        origin: "completed-review.xlsx",
        sheet: "Security",
        row: 3,
        addedBy: `slack:${ASKER}`,
      },
    ]);
    for (const record of records ?? []) expect(record.addedAt.getTime()).toBeGreaterThanOrEqual(started - 1_000);

    // A question asked in the channel now leads with the approved answer.
    const askTs = fake.nextTs();
    const text = `<@${FAKE_BOT_USER_ID}> Do you encrypt customer data at rest?`;
    fake.addUserMessage({ channel: CHANNEL, ts: askTs, user: ASKER, text });
    await sendEvent({ type: "app_mention", channel: CHANNEL, user: ASKER, text, ts: askTs });
    const answer = await waitFor(
      () => folioRepliesIn(CHANNEL, askTs).find((message) => message.text.includes("Approved answer")),
      60_000,
    );
    expect(answer.text).toContain("Yes, with AES-256 on every volume.");

    const list = await slashCommand(CHANNEL, "answers list");
    expect(list.split("\n")[0]).toBe("*2 approved answers here:*");
    expect(list).toContain(
      `• Do you encrypt customer data at rest? — _completed-review.xlsx, Security, row 2; <@${ASKER}>, `,
    );
    const first = records?.[0];
    expect(await slashCommand(CHANNEL, `answers remove ${first?.id}`)).toBe(
      `Removed approved answer \`${first?.id}\`.`,
    );
    expect((await folio.core.approvedAnswers?.list(CHANNEL_SPACE))?.map((record) => record.row)).toEqual([3]);
    expect(await slashCommand(CHANNEL, `answers remove ${first?.id}`)).toContain("No approved answer");
  }, 180_000);

  it("adds a CSV sent in a DM with “add these as approved answers” to the person's own space, never indexed", async () => {
    const dmSpace = spaceIdForConversation({
      teamId: FAKE_TEAM_ID,
      channelId: DM,
      userId: ASKER,
      isDirectMessage: true,
    });
    const bytes = new TextEncoder().encode(
      'Question,Answer\n"Is MFA required for administrators?","Yes, hardware keys."\n',
    );
    const file = fake.addFile({ id: "F0DMANSWERS", name: "mfa.csv", mimetype: "text/csv", bytes, user: ASKER });
    const ts = await shareInDirectMessage(file, "add these as approved answers");
    const reply = await waitFor(() => folioRepliesIn(DM, ts).find((message) => message.text.startsWith("Added")));
    expect(reply.text.split("\n")[0]).toBe("Added 1 approved answer from *mfa.csv* to your approved answers.");
    expect((await folio.core.approvedAnswers?.list(dmSpace))?.map((record) => record.answer)).toEqual([
      "Yes, hardware keys.",
    ]);
    expect(await folio.core.listDocuments(dmSpace)).toEqual([]);
    expect(folioRepliesIn(DM, ts).some((message) => message.text.startsWith("Indexed"))).toBe(false);
  }, 120_000);

  it("says why a file without question and answer columns cannot be added", async () => {
    const bytes = new TextEncoder().encode("# Notes\n\nNothing here.\n");
    const file = fake.addFile({ id: "F0NOTESAA", name: "notes.md", mimetype: "text/markdown", bytes, user: ASKER });
    const ts = await shareInDirectMessage(file, "add this to the answer library");
    const refusal = await waitFor(() =>
      folioRepliesIn(DM, ts).find((message) => message.text.startsWith("I can't add")),
    );
    expect(refusal.text).toMatch(/^I can't add notes\[\.\]md as approved answers: .+/);
  }, 60_000);
});
