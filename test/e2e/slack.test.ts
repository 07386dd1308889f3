/**
 * End to end: the real Slack adapter (Bolt, HTTP mode) mounted on a bare node:http server, driven by
 * correctly signed Events API / interactivity / slash-command requests, talking to a local stand-in
 * of Slack's Web API, over a real Folio core (embedded PGlite, real PDF parsing, BM25, answers).
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSlackAdapter, type SlackAdapter } from "../../adapters/slack/slack-adapter.js";
import { createFolio, type Folio } from "../../src/composition-root.js";
import { loadConfig } from "../../src/config/config.js";
import { silentLogger } from "../../src/logger.js";
import { type RecordedQuestion, recordingAnswerContexts } from "../support/recording-core.js";
import { type RouteServer, serveRoutes } from "../support/route-server.js";
import { hasSharedData, sharedData, sharedModelsDir } from "../support/shared-paths.js";
import { postSignedToSlack, type SignedPostOptions, slackSignature } from "../support/slack-signed-request.js";
import { waitFor } from "../support/wait-for.js";
import {
  eventCallbackEnvelope,
  FAKE_BOT_ID,
  FAKE_BOT_USER_ID,
  FAKE_TEAM_ID,
  type FakeMessage,
  type FakeSlackWebApi,
  startFakeSlackWebApi,
} from "./slack-fake-web-api.js";

const SIGNING_SECRET = "e2e-signing-secret-0123456789abcdef";
const CHANNEL_A = "C0CHANNELA";
const CHANNEL_B = "C0CHANNELB";
const ASKER = "U0ASKER";
const OTHER = "U0OTHER";
const PDF_NAME = "contoso-perksplus.pdf";

let fake: FakeSlackWebApi;
let folio: Folio;
let adapter: SlackAdapter;
let server: RouteServer;
let baseUrl: string;
let dataDir: string;
const answerContexts: RecordedQuestion[] = [];

function sign(body: string, timestamp: number, secret = SIGNING_SECRET): string {
  return slackSignature(secret, body, timestamp);
}

function postSigned(body: string, contentType: string, options: SignedPostOptions = {}): Promise<Response> {
  return postSignedToSlack(baseUrl, SIGNING_SECRET, body, contentType, options);
}

async function sendEvent(event: Record<string, unknown>, options: { eventId?: string; retryNum?: number } = {}) {
  const response = await postSigned(
    JSON.stringify(eventCallbackEnvelope(event, options.eventId)),
    "application/json",
    options,
  );
  // Folio acknowledges before it works (Slack's limit is 3 s); the tests wait for the work's messages
  // after this returns, so an acknowledgement that waited for the work would show as one that never came.
  expect(response.status).toBe(200);
  return response;
}

/** Folio's messages in a thread, in order, as the stand-in holds them (after every edit). */
function folioRepliesIn(channel: string, threadTs: string): FakeMessage[] {
  return fake.messagesIn(channel).filter((message) => message.bot_id === FAKE_BOT_ID && message.thread_ts === threadTs);
}

function blockTexts(message: FakeMessage): string[] {
  return (message.blocks ?? []).flatMap((block) => {
    const text = (block as { text?: { text?: string } }).text?.text;
    return typeof text === "string" ? [text] : [];
  });
}

/** Waits until the reply in the thread is a final answer (it has the feedback buttons). */
async function waitForAnswer(channel: string, threadTs: string): Promise<FakeMessage> {
  return waitFor(() =>
    folioRepliesIn(channel, threadTs).find((message) =>
      (message.blocks ?? []).some((block) => (block as { type?: string }).type === "actions"),
    ),
  );
}

function askInChannel(channel: string, text: string, user = ASKER, threadTs?: string) {
  const ts = fake.nextTs();
  fake.addUserMessage({ channel, ts, user, text, ...(threadTs ? { thread_ts: threadTs } : {}) });
  return { ts, channel, user, text, ...(threadTs ? { thread_ts: threadTs } : {}) };
}

async function shareFile(channel: string, fileId: string, name: string, bytes: Uint8Array, eventId?: string) {
  const file = fake.addFile({ id: fileId, name, mimetype: "application/pdf", bytes, user: ASKER });
  const ts = fake.nextTs();
  file.shares = { public: { [channel]: [{ ts }] } };
  fake.addUserMessage({ channel, ts, user: ASKER, text: "" });
  await sendEvent(
    {
      type: "message",
      subtype: "file_share",
      channel,
      channel_type: "channel",
      user: ASKER,
      text: "",
      ts,
      files: [file],
    },
    eventId ? { eventId } : {},
  );
  return { ts, file };
}

beforeAll(async () => {
  fake = await startFakeSlackWebApi();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "folio-slack-e2e-"));
  const config = loadConfig(
    {
      FOLIO_DATA_DIR: dataDir,
      FOLIO_MODELS_DIR: sharedModelsDir,
      FOLIO_PUBLIC_URL: "https://folio.example",
      SLACK_BOT_TOKEN: "xoxb-test",
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: fake.url,
      FOLIO_SLACK_ADMINS: "U0ADMIN",
    },
    dataDir,
  );
  folio = await createFolio(config, silentLogger);
  if (!config.slack) throw new Error("Slack configuration missing");
  adapter = createSlackAdapter({
    core: recordingAnswerContexts(folio.core, answerContexts),
    slack: config.slack,
    librarySpaceId: null,
    logger: silentLogger,
    tuning: { updateIntervalMs: 200, retryConfig: { retries: 2, minTimeout: 10, maxTimeout: 50 } },
  });
  server = await serveRoutes(adapter.routes);
  baseUrl = server.url;
  await adapter.start();
}, 120_000);

afterAll(async () => {
  await adapter?.stop();
  await server?.close();
  await folio?.close();
  await fake?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

if (!hasSharedData) console.warn(`slack: skipped — no shared data (../shared) for its PDFs and models.`);

describe.skipIf(!hasSharedData)("Slack adapter over HTTP", () => {
  it("mounts one route and verifies Slack's signature", async () => {
    expect(adapter.routes.map((route) => `${route.method} ${route.path}`)).toEqual(["POST /slack/events"]);
    const body = JSON.stringify({ type: "url_verification", challenge: "c-123", token: "t" });
    const verified = await postSigned(body, "application/json");
    expect(verified.status).toBe(200);
    expect(await verified.text()).toContain("c-123");

    expect((await postSigned(body, "application/json", { signature: null })).status).toBe(401);
    expect(
      (await postSigned(body, "application/json", { signature: sign(body, Math.floor(Date.now() / 1000), "wrong") }))
        .status,
    ).toBe(401);
    const stale = Math.floor(Date.now() / 1000) - 10 * 60;
    expect(
      (await postSigned(body, "application/json", { timestamp: stale, signature: sign(body, stale) })).status,
    ).toBe(401);
    // Signed for ten minutes ahead: it would stay replayable until a quarter of an hour from now.
    const future = Math.floor(Date.now() / 1000) + 10 * 60;
    const ahead = await postSigned(body, "application/json", { timestamp: future, signature: sign(body, future) });
    expect(ahead.status).toBe(401);
    expect(await ahead.json()).toEqual({ error: { code: "slack_request_expired" } });
  });

  it("ingests an uploaded PDF into the channel's space and confirms in the file's thread", async () => {
    const bytes = readFileSync(sharedData("enterprise-pdfs/pdfs", PDF_NAME));
    const { ts, file } = await shareFile(CHANNEL_A, "F0PERKS", PDF_NAME, bytes);
    // The reply says it is searchable by keywords, then is edited as its passages are embedded.
    const reply = await waitFor(
      () =>
        folioRepliesIn(CHANNEL_A, ts).find((message) =>
          message.text.endsWith("Searchable by keywords and by meaning."),
        ),
      120_000,
    );
    expect(reply.text).toBe(`Indexed ${PDF_NAME}: 4 pages, 2 chunks. Searchable by keywords and by meaning.`);
    const edits = fake
      .callsTo("chat.update")
      .filter((call) => call.args.ts === reply.ts)
      .map((call) => call.args.text);
    const keywordsReply = `Indexed ${PDF_NAME}: 4 pages, 2 chunks. Searchable by keywords now, by meaning in a few minutes.`;
    expect(edits.indexOf(keywordsReply)).toBeGreaterThanOrEqual(0);
    expect(edits.indexOf(keywordsReply)).toBeLessThan(edits.length - 1);
    expect(edits.at(-1)).toBe(reply.text);
    expect(fake.downloads).toContainEqual({ fileId: "F0PERKS", authorization: "Bearer xoxb-test" });
    const documents = await folio.core.listDocuments(`slack:${FAKE_TEAM_ID}:${CHANNEL_A}`);
    expect(documents.map((document) => [document.fileName, document.pageCount, document.uploader])).toEqual([
      [PDF_NAME, 4, ASKER],
    ]);

    // Slack also announces the same upload as `file_shared`: it must not be ingested or answered twice.
    const infoCallsBefore = fake.callsTo("files.info").length;
    await sendEvent({ type: "file_shared", file_id: file.id, user_id: ASKER, channel_id: CHANNEL_A, event_ts: ts });
    await waitFor(() => fake.callsTo("files.info").length > infoCallsBefore);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(folioRepliesIn(CHANNEL_A, ts)).toHaveLength(1);
  }, 180_000);

  it("says so when the same bytes are uploaded again as another file", async () => {
    const bytes = readFileSync(sharedData("enterprise-pdfs/pdfs", PDF_NAME));
    const { ts } = await shareFile(CHANNEL_A, "F0PERKS2", PDF_NAME, bytes);
    const reply = await waitFor(() =>
      folioRepliesIn(CHANNEL_A, ts).find((message) => message.text.includes("already indexed")),
    );
    expect(reply.text).toBe(`${PDF_NAME} is already indexed (4 pages, 2 chunks) — nothing changed.`);
    expect(await folio.core.listDocuments(`slack:${FAKE_TEAM_ID}:${CHANNEL_A}`)).toHaveLength(1);
  });

  it("replies to a broken file with the specific reason", async () => {
    const broken = new TextEncoder().encode("%PDF-1.7\nthis is not really a PDF\n%%EOF");
    const { ts } = await shareFile(CHANNEL_A, "F0BROKEN", "broken.pdf", broken);
    const reply = await waitFor(() =>
      folioRepliesIn(CHANNEL_A, ts).find((message) => message.text.startsWith("Could not index")),
    );
    expect(reply.text).toBe(
      "Could not index broken.pdf: This PDF is damaged and cannot be read — re-export or re-save it and upload it again.",
    );
  });

  it("answers a mention in a thread, citing the right page, then a follow-up without a mention", async () => {
    const question = askInChannel(
      CHANNEL_A,
      `<@${FAKE_BOT_USER_ID}> How much can employees expense for fitness programs?`,
    );
    await sendEvent({ type: "app_mention", ...question });
    const answer = await waitForAnswer(CHANNEL_A, question.ts);

    const placeholder = fake
      .callsTo("chat.postMessage")
      .find((call) => call.args.thread_ts === question.ts && call.args.channel === CHANNEL_A);
    expect(placeholder?.args.text).toBe("Searching your documents…");
    const [document] = await folio.core.listDocuments(`slack:${FAKE_TEAM_ID}:${CHANNEL_A}`);
    const texts = blockTexts(answer).join("\n");
    expect(texts).toContain("$1000");
    // Page 3 of the PDF is the one that says "expense up to $1000 for fitness-related programs".
    expect(texts).toMatch(
      new RegExp(
        `<https://folio\\.example/files/${document?.id}\\?exp=\\d+&amp;sig=[0-9a-f]+#page=3\\|PerksPlus[^>]*— p\\. 3>`,
      ),
    );
    expect(answerContexts.at(-1)?.context).toMatchObject({
      spaceIds: [`slack:${FAKE_TEAM_ID}:${CHANNEL_A}`],
      history: [],
    });

    const followUp = askInChannel(CHANNEL_A, "What is not covered?", ASKER, question.ts);
    const contextsBefore = answerContexts.length;
    await sendEvent({ type: "message", channel_type: "channel", ...followUp });
    await waitFor(() => answerContexts.length > contextsBefore);
    const followUpContext = answerContexts.at(-1);
    expect(followUpContext?.question).toBe("What is not covered?");
    expect(followUpContext?.context.history).toEqual([
      { role: "user", text: "How much can employees expense for fitness programs?" },
      { role: "assistant", text: answer.text.replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">") },
    ]);
    await waitFor(() => folioRepliesIn(CHANNEL_A, question.ts).length === 2 && fake.callsTo("chat.update").length > 0);
  });

  it("stays quiet in a thread Folio has not answered and for bots", async () => {
    const root = askInChannel(CHANNEL_A, "Lunch plans?", OTHER);
    const reply = askInChannel(CHANNEL_A, "Pizza?", ASKER, root.ts);
    await sendEvent({ type: "message", channel_type: "channel", ...reply });
    await sendEvent({
      type: "message",
      channel_type: "channel",
      subtype: "bot_message",
      bot_id: "B0OTHER",
      text: "Deploy done?",
      ts: fake.nextTs(),
      channel: CHANNEL_A,
    });
    await sendEvent({
      type: "message",
      channel_type: "channel",
      user: FAKE_BOT_USER_ID,
      bot_id: FAKE_BOT_ID,
      text: "Searching your documents…",
      ts: fake.nextTs(),
      thread_ts: root.ts,
      channel: CHANNEL_A,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(folioRepliesIn(CHANNEL_A, root.ts)).toEqual([]);
  });

  it("answers an event delivered twice only once", async () => {
    const question = askInChannel(CHANNEL_A, `<@${FAKE_BOT_USER_ID}> What does PerksPlus cover?`);
    const eventId = "Ev0DUPLICATE1";
    await sendEvent({ type: "app_mention", ...question }, { eventId });
    await sendEvent({ type: "app_mention", ...question }, { eventId, retryNum: 1 });
    await waitForAnswer(CHANNEL_A, question.ts);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(folioRepliesIn(CHANNEL_A, question.ts)).toHaveLength(1);
    expect(answerContexts.filter((entry) => entry.question === "What does PerksPlus cover?")).toHaveLength(1);
  });

  it("never cites a document from another channel", async () => {
    const question = askInChannel(
      CHANNEL_B,
      `<@${FAKE_BOT_USER_ID}> How much can employees expense for fitness programs?`,
    );
    await sendEvent({ type: "app_mention", ...question });
    const answer = await waitForAnswer(CHANNEL_B, question.ts);
    const [documentInA] = await folio.core.listDocuments(`slack:${FAKE_TEAM_ID}:${CHANNEL_A}`);
    expect(documentInA).toBeDefined();
    expect(answerContexts.at(-1)?.context.spaceIds).toEqual([`slack:${FAKE_TEAM_ID}:${CHANNEL_B}`]);
    expect(JSON.stringify(answer)).not.toContain(String(documentInA?.id));
    expect(JSON.stringify(answer)).not.toContain("PerksPlus");
  });

  it("answers a direct message from the asker's own space", async () => {
    const dm = {
      type: "message",
      channel: "D0DIRECT",
      channel_type: "im",
      user: ASKER,
      text: "Is anything indexed?",
      ts: fake.nextTs(),
    };
    const contextsBefore = answerContexts.length;
    await sendEvent(dm);
    await waitFor(() =>
      fake
        .messagesIn("D0DIRECT")
        .find((message) => (message.blocks ?? []).some((block) => (block as { type?: string }).type === "actions")),
    );
    expect(answerContexts.length).toBe(contextsBefore + 1);
    expect(answerContexts.at(-1)?.context.spaceIds).toEqual([`slack:${FAKE_TEAM_ID}:user:${ASKER}`]);
  });

  it("records 👍 feedback from the button on an answer", async () => {
    const question = askInChannel(CHANNEL_A, `<@${FAKE_BOT_USER_ID}> Which fitness programs are covered?`);
    await sendEvent({ type: "app_mention", ...question });
    const answer = await waitForAnswer(CHANNEL_A, question.ts);
    const actions = (answer.blocks ?? []).find((block) => (block as { type?: string }).type === "actions") as {
      elements: Array<{ action_id: string; value: string }>;
    };
    // The stand-in, like a workspace without native feedback, refused the `feedback_buttons` element
    // once — on the first answer; every answer since went straight to the ordinary buttons.
    const refusals = fake.calls.filter((call) => call.result?.error === "invalid_blocks");
    expect(refusals).toHaveLength(1);
    expect(JSON.stringify(refusals[0]?.args.blocks)).toContain('"type":"feedback_buttons"');
    const up = actions.elements.find((element) => element.action_id === "folio_feedback_up");
    const requestId = answerContexts.at(-1)?.context.requestId ?? "";
    const payload = {
      type: "block_actions",
      team: { id: FAKE_TEAM_ID },
      user: { id: OTHER },
      channel: { id: CHANNEL_A },
      message: { ts: answer.ts, thread_ts: question.ts },
      actions: [
        { type: "button", action_id: up?.action_id, block_id: "folio_feedback", value: up?.value, action_ts: "1" },
      ],
      api_app_id: "A0FOLIO",
      token: "t",
      trigger_id: "x",
    };
    const response = await postSigned(
      new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      "application/x-www-form-urlencoded",
    );
    expect(response.status).toBe(200);
    const feedback = await waitFor(async () => {
      const recorded = await folio.catalog.listFeedback(requestId);
      return recorded.length > 0 ? recorded : null;
    });
    expect(feedback.map((entry) => [entry.answerId, entry.spaceId, entry.user, entry.rating])).toEqual([
      [requestId, `slack:${FAKE_TEAM_ID}:${CHANNEL_A}`, OTHER, "up"],
    ]);
  });

  it("runs a signed slash command once: the same request replayed is acknowledged and dropped", async () => {
    const body = new URLSearchParams({
      command: "/folio",
      text: "docs",
      team_id: FAKE_TEAM_ID,
      channel_id: CHANNEL_A,
      user_id: OTHER,
      response_url: `${fake.url}/response`,
      trigger_id: `t-${randomUUID()}`,
      token: "t",
      api_app_id: "A0FOLIO",
    }).toString();
    const timestamp = Math.floor(Date.now() / 1000);
    const options = { timestamp, signature: sign(body, timestamp) };
    const first = await postSigned(body, "application/x-www-form-urlencoded", options);
    expect(first.status).toBe(200);
    expect(((await first.json()) as { text: string }).text).toMatch(/^\*\d+ documents? here:\*/);
    const replayed = await postSigned(body, "application/x-www-form-urlencoded", options);
    expect(replayed.status).toBe(200);
    expect(await replayed.text()).toBe("");
  });

  it("runs /folio docs and lets only the uploader or an admin forget a document", async () => {
    const command = (text: string, user: string) =>
      postSigned(
        new URLSearchParams({
          command: "/folio",
          text,
          team_id: FAKE_TEAM_ID,
          channel_id: CHANNEL_A,
          user_id: user,
          response_url: `${fake.url}/response`,
          // Slack gives every use of a command its own trigger id; a repeated one is a replay.
          trigger_id: `t-${randomUUID()}`,
          token: "t",
          api_app_id: "A0FOLIO",
        }).toString(),
        "application/x-www-form-urlencoded",
      ).then(async (response) => ({ status: response.status, body: (await response.json()) as { text: string } }));

    const docs = await command("docs", OTHER);
    expect(docs.status).toBe(200);
    expect(docs.body.text).toContain(`(${PDF_NAME}, 4 pages)`);
    const refused = await command(`forget ${PDF_NAME}`, OTHER);
    expect(refused.body.text).toBe(`Only the person who uploaded ${PDF_NAME} or a Folio admin can remove it.`);
    expect(await folio.core.listDocuments(`slack:${FAKE_TEAM_ID}:${CHANNEL_A}`)).toHaveLength(1);
    const removed = await command(`forget ${PDF_NAME}`, ASKER);
    expect(removed.body.text).toBe(`Removed ${PDF_NAME}; I will no longer cite it.`);
    expect(await folio.core.listDocuments(`slack:${FAKE_TEAM_ID}:${CHANNEL_A}`)).toEqual([]);
  });

  it("ingests a file announced only by file_shared, replying in the thread it was shared in", async () => {
    const name = "nist-sp800-145-cloud-definition.pdf";
    const file = fake.addFile({
      id: "F0NIST",
      name,
      mimetype: "application/pdf",
      bytes: readFileSync(sharedData("enterprise-pdfs/pdfs", name)),
      user: ASKER,
    });
    const root = askInChannel(CHANNEL_B, "the cloud definition, for reference");
    const shareTs = fake.nextTs();
    file.shares = { public: { [CHANNEL_B]: [{ ts: shareTs, thread_ts: root.ts }] } };
    // files.info must be the source of the URL: the event itself carries only ids.
    await sendEvent({
      type: "file_shared",
      file_id: file.id,
      user_id: ASKER,
      channel_id: CHANNEL_B,
      event_ts: shareTs,
    });
    // Waits for the embedding after the reply too (the reply is edited when it is done).
    const reply = await waitFor(
      () =>
        folioRepliesIn(CHANNEL_B, root.ts).find((message) =>
          message.text.endsWith("Searchable by keywords and by meaning."),
        ),
      120_000,
    );
    expect(reply.text).toMatch(
      /^Indexed nist-sp800-145-cloud-definition\.pdf: 7 pages, [1-9]\d* chunks\. Searchable by keywords and by meaning\.$/,
    );
    const documents = await folio.core.listDocuments(`slack:${FAKE_TEAM_ID}:${CHANNEL_B}`);
    expect(documents.map((document) => document.fileName)).toEqual([name]);

    // The `message` event for the same upload arrives later and is not handled again.
    await sendEvent({
      type: "message",
      subtype: "file_share",
      channel: CHANNEL_B,
      channel_type: "channel",
      user: ASKER,
      text: "",
      ts: shareTs,
      thread_ts: root.ts,
      files: [file],
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(folioRepliesIn(CHANNEL_B, root.ts)).toHaveLength(1);
  }, 180_000);

  it("indexes a file already indexed in one channel again when it is shared into another", async () => {
    // A short PDF: the point is the second indexing, and a long one took over 30 s on a busy CI machine.
    const name = "wi-dsp-milw-505-90d-notice.pdf";
    const bytes = readFileSync(sharedData("enterprise-pdfs/pdfs", name));
    const inA = await shareFile(CHANNEL_A, "F0TWOCHANNELS", name, bytes);
    await waitFor(() => folioRepliesIn(CHANNEL_A, inA.ts).find((message) => message.text.startsWith("Indexed")));
    const downloadsBefore = fake.downloads.filter((download) => download.fileId === "F0TWOCHANNELS").length;

    const inB = await shareFile(CHANNEL_B, "F0TWOCHANNELS", name, bytes);
    // Waits for the embedding after the reply too (the reply is edited when it is done).
    const reply = await waitFor(
      () =>
        folioRepliesIn(CHANNEL_B, inB.ts).find((message) =>
          message.text.endsWith("Searchable by keywords and by meaning."),
        ),
      120_000,
    );
    expect(reply.text).toMatch(
      /^Indexed wi-dsp-milw-505-90d-notice\.pdf: 2 pages, [1-9]\d* chunks\. Searchable by keywords and by meaning\.$/,
    );
    expect(fake.downloads.filter((download) => download.fileId === "F0TWOCHANNELS")).toHaveLength(downloadsBefore + 1);
    for (const channel of [CHANNEL_A, CHANNEL_B]) {
      const documents = await folio.core.listDocuments(`slack:${FAKE_TEAM_ID}:${channel}`);
      expect(documents.map((document) => document.fileName)).toContain(name);
    }
  }, 180_000);

  it("indexes a file shared again after its download failed", async () => {
    const name = "nist-sp800-145-cloud-definition.pdf";
    const bytes = readFileSync(sharedData("enterprise-pdfs/pdfs", name));
    fake.failDownloads("F0FLAKY", 1);
    const first = await shareFile(CHANNEL_A, "F0FLAKY", name, bytes);
    const failure = await waitFor(() =>
      folioRepliesIn(CHANNEL_A, first.ts).find((message) => /reference/.test(message.text)),
    );
    expect(failure.text).not.toMatch(/^Indexed/);

    const second = await shareFile(CHANNEL_A, "F0FLAKY", name, bytes);
    const reply = await waitFor(() =>
      folioRepliesIn(CHANNEL_A, second.ts).find((message) => message.text.startsWith("Indexed")),
    );
    expect(reply.text).toMatch(/^Indexed nist-sp800-145-cloud-definition\.pdf: 7 pages/);
  });

  it("waits out a 429 with Retry-After and still posts", async () => {
    fake.rateLimit("chat.postMessage", 1, 1);
    const question = askInChannel(CHANNEL_B, `<@${FAKE_BOT_USER_ID}> Anything about travel?`);
    const started = Date.now();
    await sendEvent({ type: "app_mention", ...question });
    await waitForAnswer(CHANNEL_B, question.ts);
    const attempts = fake.callsTo("chat.postMessage").filter((call) => call.args.thread_ts === question.ts);
    expect(attempts).toHaveLength(2);
    expect((attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});
