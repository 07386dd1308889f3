import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SlackAdapter } from "../../adapters/slack/slack-adapter.js";
import type { Folio } from "../../src/composition-root.js";
import type { RouteServer } from "../support/route-server.js";
import { hasSharedData } from "../support/shared-paths.js";
import { postSignedToSlack } from "../support/slack-signed-request.js";
import { waitFor } from "../support/wait-for.js";
import {
  eventCallbackEnvelope,
  FAKE_BOT_ID,
  FAKE_TEAM_ID,
  type FakeMessage,
  type FakeSlackWebApi,
} from "./slack-fake-web-api.js";
import { startSlackTestFolio, stopSlackTestFolio } from "./slack-test-folio.js";

const SIGNING_SECRET = "e2e-assistant-questionnaire-secret";
const PANE = "D0PANEQ";
const ASKER = "U0PANEASKER";
const OWN_SPACE = `slack:${FAKE_TEAM_ID}:user:${ASKER}`;

const POLICY = `# Security policy

## Backups
Backups are taken every night and kept for 35 days in a second region.
`;

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

function folioRepliesIn(threadTs: string): FakeMessage[] {
  return fake.messagesIn(PANE).filter((message) => message.bot_id === FAKE_BOT_ID && message.thread_ts === threadTs);
}

/** Opens a pane thread, as Slack does when the person clicks the app's icon. */
async function startPaneThread(): Promise<string> {
  const threadTs = fake.nextTs();
  fake.addUserMessage({ channel: PANE, ts: threadTs, user: ASKER, text: "" });
  await sendEvent({
    type: "assistant_thread_started",
    assistant_thread: { user_id: ASKER, context: {}, channel_id: PANE, thread_ts: threadTs },
    event_ts: fake.nextTs(),
  });
  return threadTs;
}

/** A file shared in the pane's thread with the person's words in the same message. */
async function shareInPane(threadTs: string, id: string, name: string, csv: string, text: string) {
  const file = fake.addFile({ id, name, mimetype: "text/csv", bytes: new TextEncoder().encode(csv), user: ASKER });
  const ts = fake.nextTs();
  fake.addUserMessage({ channel: PANE, ts, user: ASKER, text, thread_ts: threadTs, files: [file] });
  await sendEvent({
    type: "message",
    subtype: "file_share",
    channel: PANE,
    channel_type: "im",
    user: ASKER,
    text,
    ts,
    thread_ts: threadTs,
    files: [file],
  });
}

beforeAll(async () => {
  if (!hasSharedData) return;
  ({ fake, dataDir, folio, adapter, server } = await startSlackTestFolio({
    signingSecret: SIGNING_SECRET,
    dataDirPrefix: "folio-slack-assistant-questionnaire-",
    withSettings: true,
    tuning: { updateIntervalMs: 200, questionnaireProgressIntervalMs: 0, retryConfig: { retries: 1, minTimeout: 10 } },
  }));
  const ingested = await folio.core.ingestFile({
    bytes: new TextEncoder().encode(POLICY),
    fileName: "security-policy.md",
    spaceId: OWN_SPACE,
    uploader: ASKER,
  });
  expect(ingested.status).toBe("ingested");
}, 180_000);

afterAll(async () => {
  await stopSlackTestFolio({ fake, dataDir, folio, adapter, server });
});

if (!hasSharedData)
  console.warn("slack-assistant-questionnaire: skipped — no shared data (../shared) for the tokenizer.");

describe.skipIf(!hasSharedData)("questionnaires in the Slack assistant pane", () => {
  it("answers a CSV shared in a pane thread with “answer this questionnaire”, as in a DM", async () => {
    const threadTs = await startPaneThread();
    const prompts = await waitFor(() =>
      fake.callsTo("assistant.threads.setSuggestedPrompts").find((call) => call.args.thread_ts === threadTs),
    );
    expect((prompts.args.prompts as Array<{ message: string }>).map((prompt) => prompt.message)).toEqual([
      "What are the main points of Security policy?",
    ]);

    const csv = "Question\nHow long are backups kept?\nHow many visitor parking spaces are there?\n";
    await shareInPane(threadTs, "F0PANEQ", "pane-review.csv", csv, "answer this questionnaire");
    const summary = await waitFor(
      () => folioRepliesIn(threadTs).find((message) => message.text.includes("questions in")),
      120_000,
      "the questionnaire summary",
    );
    expect(summary.text).toContain("*pane-review.csv* — 2 questions in");
    expect(summary.text).toContain("• 1 answered");
    expect(summary.text).toContain("• 1 not found in the documents");
    const progress = folioRepliesIn(threadTs).find((message) => message.text.startsWith("Answering *"));
    expect(progress?.text).toMatch(/^Answering \*pane-review\.csv\*: 2\/2 done · 1 answered · 1 not found · took /);
    expect(fake.uploads.find((upload) => upload.filename === "pane-review (filled).csv")?.completed).toEqual({
      channelId: PANE,
      threadTs,
      title: "pane-review (filled).csv",
    });
    // Answered as questions, not indexed as a document of the person's.
    expect((await folio.core.listDocuments(OWN_SPACE)).map((document) => document.fileName)).toEqual([
      "security-policy.md",
    ]);
    expect(folioRepliesIn(threadTs).some((message) => message.text.startsWith("Indexed"))).toBe(false);
  }, 180_000);

  it("stops the pane thread's questionnaire when the person says “cancel” there", async () => {
    const threadTs = await startPaneThread();
    const rows = Array.from({ length: 1_500 }, (_, index) => `How long are backups of system ${index + 1} kept?`);
    await shareInPane(
      threadTs,
      "F0PANELONG",
      "pane-long.csv",
      `Question\n${rows.join("\n")}\n`,
      "answer this questionnaire",
    );
    await waitFor(() => folioRepliesIn(threadTs).find((message) => message.text.startsWith("Answering *")));
    const cancelTs = fake.nextTs();
    fake.addUserMessage({ channel: PANE, ts: cancelTs, user: ASKER, text: "cancel", thread_ts: threadTs });
    await sendEvent({
      type: "message",
      channel: PANE,
      channel_type: "im",
      user: ASKER,
      text: "cancel",
      ts: cancelTs,
      thread_ts: threadTs,
    });
    const stopped = await waitFor(
      () => folioRepliesIn(threadTs).find((message) => message.text.startsWith("Stopped answering")),
      60_000,
    );
    expect(stopped.text).toMatch(/^Stopped answering pane-long\.csv: cancelled · \d+\/1500 done/);
    expect(fake.uploads.some((upload) => upload.filename === "pane-long (filled).csv")).toBe(false);
  }, 180_000);

  it("adds a completed questionnaire shared in the pane with “add these as approved answers”", async () => {
    const threadTs = await startPaneThread();
    const csv = 'Question,Answer\n"Is MFA required for administrators?","Yes, hardware keys."\n';
    await shareInPane(threadTs, "F0PANEAA", "pane-answers.csv", csv, "add these as approved answers");
    const reply = await waitFor(() => folioRepliesIn(threadTs).find((message) => message.text.startsWith("Added")));
    expect(reply.text.split("\n")[0]).toBe("Added 1 approved answer from *pane-answers.csv* to your approved answers.");
    const records = (await folio.core.approvedAnswers?.list(OWN_SPACE)) ?? [];
    expect(records.map(({ question, file, addedBy }) => ({ question, file, addedBy }))).toEqual([
      { question: "Is MFA required for administrators?", file: "pane-answers.csv", addedBy: `slack:${ASKER}` },
    ]);
  }, 60_000);
});
