/**
 * End to end, Slack's newer surfaces through the real Bolt HTTP receiver (signed requests) and the
 * local Web API stand-in, over a real Folio core: the assistant container (suggested prompts, loading
 * status, thread title, the viewed channel searched only for its members, context changes), native
 * `feedback_buttons` and their clicks, group DMs (mpim), and the start-up checks (auth.test refused,
 * warnings about FOLIO_PUBLIC_URL and the manifest's request URL).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSlackAdapter, DEFAULT_MANIFEST_PATH, type SlackAdapter } from "../../adapters/slack/slack-adapter.js";
import { createFolio, type Folio } from "../../src/composition-root.js";
import { ConfigError, loadConfig, type SlackConfig } from "../../src/config/config.js";
import { createLogger, silentLogger } from "../../src/logger.js";
import { type RecordedQuestion, recordingAnswerContexts } from "../support/recording-core.js";
import { type RouteServer, serveRoutes } from "../support/route-server.js";
import { runFolioCli } from "../support/run-folio-cli.js";
import { hasSharedData, sharedData, sharedModelsDir } from "../support/shared-paths.js";
import { postSignedToSlack } from "../support/slack-signed-request.js";
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

const SIGNING_SECRET = "e2e-assistant-signing-secret-0123456789";
const ASSISTANT_DM = "D0ASSIST";
const VIEWED_CHANNEL = "C0VIEWED";
const FOREIGN_CHANNEL = "C0FOREIGN";
const GROUP_DM = "G0GROUPDM";
const ASKER = "U0ASKER";
const OTHER = "U0OTHER";
const LIBRARY = "library";
const LIBRARY_PDF = "contoso-perksplus.pdf";
const CHANNEL_PDF = "nist-sp800-145-cloud-definition.pdf";

let fake: FakeSlackWebApi;
let folio: Folio;
let slackConfig: SlackConfig;
let adapter: SlackAdapter;
let server: RouteServer;
let baseUrl: string;
let dataDir: string;
const answerContexts: RecordedQuestion[] = [];

function postSigned(body: string, contentType: string): Promise<Response> {
  return postSignedToSlack(baseUrl, SIGNING_SECRET, body, contentType);
}

async function sendEvent(event: Record<string, unknown>) {
  const response = await postSigned(JSON.stringify(eventCallbackEnvelope(event)), "application/json");
  expect(response.status).toBe(200);
}

function folioRepliesIn(channel: string, threadTs: string): FakeMessage[] {
  return fake.messagesIn(channel).filter((message) => message.bot_id === FAKE_BOT_ID && message.thread_ts === threadTs);
}

function hasBlock(message: FakeMessage, type: string): boolean {
  return (message.blocks ?? []).some((block) => (block as { type?: string }).type === type);
}

/** The final answer in a thread: the message with feedback controls, native or ordinary. */
async function waitForAnswer(channel: string, threadTs: string): Promise<FakeMessage> {
  return waitFor(
    () =>
      folioRepliesIn(channel, threadTs).find(
        (message) => hasBlock(message, "context_actions") || hasBlock(message, "actions"),
      ),
    60_000,
  );
}

function blockTexts(message: FakeMessage): string {
  return (message.blocks ?? [])
    .flatMap((block) => {
      const text = (block as { text?: { text?: string } }).text?.text;
      return typeof text === "string" ? [text] : [];
    })
    .join("\n");
}

/** Opens an assistant thread, as Slack does when the person clicks the app's icon beside a channel. */
async function startAssistantThread(viewedChannel: string | null) {
  const threadTs = fake.nextTs();
  fake.addUserMessage({ channel: ASSISTANT_DM, ts: threadTs, user: ASKER, text: "" });
  await sendEvent({
    type: "assistant_thread_started",
    assistant_thread: {
      user_id: ASKER,
      context: viewedChannel ? { channel_id: viewedChannel, team_id: FAKE_TEAM_ID } : {},
      channel_id: ASSISTANT_DM,
      thread_ts: threadTs,
    },
    event_ts: fake.nextTs(),
  });
  return threadTs;
}

async function askInAssistantThread(threadTs: string, text: string) {
  const ts = fake.nextTs();
  fake.addUserMessage({ channel: ASSISTANT_DM, ts, user: ASKER, text, thread_ts: threadTs });
  const contextsBefore = answerContexts.length;
  await sendEvent({
    type: "message",
    channel: ASSISTANT_DM,
    channel_type: "im",
    user: ASKER,
    text,
    ts,
    thread_ts: threadTs,
  });
  await waitFor(() => answerContexts.length > contextsBefore, 60_000);
  return { ts, context: answerContexts.at(-1) };
}

beforeAll(async () => {
  if (!hasSharedData) return;
  fake = await startFakeSlackWebApi();
  fake.setNativeFeedbackSupported(true);
  fake.setChannelMembers(VIEWED_CHANNEL, [OTHER, ASKER]);
  fake.setChannelMembers(FOREIGN_CHANNEL, [OTHER]);
  dataDir = mkdtempSync(path.join(os.tmpdir(), "folio-slack-assistant-e2e-"));
  const config = loadConfig(
    {
      FOLIO_DATA_DIR: dataDir,
      FOLIO_MODELS_DIR: sharedModelsDir,
      FOLIO_PUBLIC_URL: "https://folio.example",
      SLACK_BOT_TOKEN: "xoxb-test",
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: fake.url,
    },
    dataDir,
  );
  folio = await createFolio(config, silentLogger);
  for (const [spaceId, name] of [
    [LIBRARY, LIBRARY_PDF],
    [`slack:${FAKE_TEAM_ID}:${VIEWED_CHANNEL}`, CHANNEL_PDF],
  ] as const) {
    const bytes = readFileSync(sharedData("enterprise-pdfs/pdfs", name));
    await folio.core.ingestFile({ bytes, fileName: name, spaceId, uploader: OTHER });
  }
  if (!config.slack) throw new Error("Slack configuration missing");
  slackConfig = config.slack;
  adapter = createSlackAdapter({
    core: recordingAnswerContexts(folio.core, answerContexts),
    slack: config.slack,
    librarySpaceId: LIBRARY,
    settings: folio.catalog,
    logger: silentLogger,
    tuning: { updateIntervalMs: 200, retryConfig: { retries: 1, minTimeout: 10, maxTimeout: 50 } },
  });
  server = await serveRoutes(adapter.routes);
  baseUrl = server.url;
  await adapter.start();
}, 180_000);

afterAll(async () => {
  await adapter?.stop();
  await server?.close();
  await folio?.close();
  await fake?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

if (!hasSharedData) console.warn("slack-assistant: skipped — no shared data (../shared) for its PDFs and models.");

describe.skipIf(!hasSharedData)("Slack assistant container", () => {
  it("offers suggested prompts about the documents the person can search when a thread starts", async () => {
    const threadTs = await startAssistantThread(VIEWED_CHANNEL);
    const call = await waitFor(() =>
      fake.callsTo("assistant.threads.setSuggestedPrompts").find((entry) => entry.args.thread_ts === threadTs),
    );
    const titles = [
      ...(await folio.core.listDocuments(LIBRARY)),
      ...(await folio.core.listDocuments(`slack:${FAKE_TEAM_ID}:${VIEWED_CHANNEL}`)),
    ].map((document) => document.title);
    expect(call.args).toMatchObject({ channel_id: ASSISTANT_DM, title: "Ask about your documents" });
    const prompts = call.args.prompts as Array<{ title: string; message: string }>;
    expect(prompts.map((prompt) => prompt.message).sort()).toEqual(
      titles.map((title) => `What are the main points of ${title}?`).sort(),
    );
    expect(call.result).toEqual({ ok: true });
    // The viewed channel's documents were offered only after Slack confirmed the membership.
    expect(fake.callsTo("conversations.members").some((entry) => entry.args.channel === VIEWED_CHANNEL)).toBe(true);
  });

  it("answers in the thread with the loading status and a title, from uploads, viewed channel and library", async () => {
    const threadTs = await startAssistantThread(VIEWED_CHANNEL);
    const question = "How much can employees expense for fitness programs?";
    const { context } = await askInAssistantThread(threadTs, question);
    expect(context?.context.spaceIds).toEqual([
      `slack:${FAKE_TEAM_ID}:user:${ASKER}`,
      `slack:${FAKE_TEAM_ID}:${VIEWED_CHANNEL}`,
      LIBRARY,
    ]);
    const answer = await waitForAnswer(ASSISTANT_DM, threadTs);
    expect(blockTexts(answer)).toContain("$1000");
    expect(hasBlock(answer, "context_actions")).toBe(true);

    const statuses = fake.callsTo("assistant.threads.setStatus").filter((call) => call.args.thread_ts === threadTs);
    expect(statuses[0]?.args).toEqual({
      channel_id: ASSISTANT_DM,
      thread_ts: threadTs,
      status: "is searching your documents…",
    });
    expect(statuses.every((call) => call.result?.ok === true)).toBe(true);
    const titles = fake.callsTo("assistant.threads.setTitle").filter((call) => call.args.thread_ts === threadTs);
    expect(titles.map((call) => call.args.title)).toEqual([question]);
    // The status replaces the placeholder message of channel answers.
    expect(
      fake
        .callsTo("chat.postMessage")
        .filter((call) => call.args.thread_ts === threadTs && call.args.text === "Searching your documents…"),
    ).toEqual([]);

    // A follow-up keeps the thread's title and carries the earlier turns.
    await askInAssistantThread(threadTs, "What is not covered?");
    expect(answerContexts.at(-1)?.context.history[0]).toEqual({ role: "user", text: question });
    await waitFor(
      () =>
        folioRepliesIn(ASSISTANT_DM, threadTs).filter((message) => hasBlock(message, "context_actions")).length === 2,
      60_000,
    );
    expect(fake.callsTo("assistant.threads.setTitle").filter((call) => call.args.thread_ts === threadTs)).toHaveLength(
      1,
    );
  });

  it("follows assistant_thread_context_changed, searching a viewed channel only for its members", async () => {
    const threadTs = await startAssistantThread(null);
    await askInAssistantThread(threadTs, "What is cloud computing?");
    expect(answerContexts.at(-1)?.context.spaceIds).toEqual([`slack:${FAKE_TEAM_ID}:user:${ASKER}`, LIBRARY]);

    const changeContext = (channelId: string) =>
      sendEvent({
        type: "assistant_thread_context_changed",
        assistant_thread: {
          user_id: ASKER,
          context: { channel_id: channelId, team_id: FAKE_TEAM_ID },
          channel_id: ASSISTANT_DM,
          thread_ts: threadTs,
        },
        event_ts: fake.nextTs(),
      });
    await changeContext(FOREIGN_CHANNEL);
    const membershipChecks = fake.callsTo("conversations.members").length;
    await askInAssistantThread(threadTs, "And what are its essential characteristics?");
    expect(
      fake
        .callsTo("conversations.members")
        .slice(membershipChecks)
        .map((call) => call.args.channel),
    ).toEqual([FOREIGN_CHANNEL]);
    expect(answerContexts.at(-1)?.context.spaceIds).toEqual([`slack:${FAKE_TEAM_ID}:user:${ASKER}`, LIBRARY]);

    await changeContext(VIEWED_CHANNEL);
    await askInAssistantThread(threadTs, "What are the essential characteristics of cloud computing?");
    expect(answerContexts.at(-1)?.context.spaceIds).toEqual([
      `slack:${FAKE_TEAM_ID}:user:${ASKER}`,
      `slack:${FAKE_TEAM_ID}:${VIEWED_CHANNEL}`,
      LIBRARY,
    ]);
    const answers = await waitFor(() => {
      const done = folioRepliesIn(ASSISTANT_DM, threadTs).filter((message) => hasBlock(message, "context_actions"));
      return done.length === 3 ? done : undefined;
    }, 60_000);
    // Only the viewed channel holds the NIST definition: the third question is answered from it, the two
    // before it (the person's own space and the library) are not.
    expect(answers.filter((answer) => /NIST|Essential Characteristics/i.test(blockTexts(answer)))).toHaveLength(1);
  });

  it("stores clicks on the native feedback_buttons element", async () => {
    const threadTs = await startAssistantThread(null);
    const { context } = await askInAssistantThread(threadTs, "Which fitness programs are covered?");
    const answer = await waitForAnswer(ASSISTANT_DM, threadTs);
    const block = (answer.blocks ?? []).find((entry) => (entry as { type?: string }).type === "context_actions") as {
      block_id: string;
      elements: Array<{ type: string; action_id: string; negative_button: { value: string } }>;
    };
    const [element] = block.elements;
    expect(element?.type).toBe("feedback_buttons");
    const payload = {
      type: "block_actions",
      team: { id: FAKE_TEAM_ID },
      user: { id: ASKER },
      channel: { id: ASSISTANT_DM },
      message: { ts: answer.ts, thread_ts: threadTs },
      actions: [
        {
          type: "feedback_buttons",
          action_id: element?.action_id,
          block_id: block.block_id,
          value: element?.negative_button.value,
          action_ts: "1",
        },
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
    const requestId = context?.context.requestId ?? "";
    const feedback = await waitFor(async () => {
      const recorded = await folio.catalog.listFeedback(requestId);
      return recorded.length > 0 ? recorded : null;
    });
    expect(feedback.map((entry) => [entry.answerId, entry.spaceId, entry.user, entry.rating])).toEqual([
      [requestId, `slack:${FAKE_TEAM_ID}:user:${ASKER}`, ASKER, "down"],
    ]);
  });

  it("indexes a file shared in the assistant thread into the person's own space", async () => {
    const threadTs = await startAssistantThread(null);
    const file = fake.addFile({
      id: "F0ASSISTNOTE",
      name: "assistant-notes.md",
      mimetype: "text/markdown",
      bytes: new TextEncoder().encode("# Team notes\n\nThe quarterly review happens in the Oslo office.\n"),
      user: ASKER,
    });
    const ts = fake.nextTs();
    await sendEvent({
      type: "message",
      subtype: "file_share",
      channel: ASSISTANT_DM,
      channel_type: "im",
      user: ASKER,
      text: "",
      ts,
      thread_ts: threadTs,
      files: [file],
    });
    const reply = await waitFor(() =>
      folioRepliesIn(ASSISTANT_DM, threadTs).find((message) => message.text.startsWith("Indexed")),
    );
    expect(reply.text).toMatch(/^Indexed assistant-notes\[\.\]md/);
    const documents = await folio.core.listDocuments(`slack:${FAKE_TEAM_ID}:user:${ASKER}`);
    expect(documents.map((document) => document.fileName)).toContain("assistant-notes.md");
  });
});

describe.skipIf(!hasSharedData)("Slack group DMs (mpim)", () => {
  it("indexes a file shared in a group DM for that conversation only, and answers a mention there", async () => {
    const file = fake.addFile({
      id: "F0GROUPNOTE",
      name: "offsite-plan.md",
      mimetype: "text/markdown",
      bytes: new TextEncoder().encode("# Offsite plan\n\nThe team offsite takes place in Lisbon in March.\n"),
      user: ASKER,
    });
    const shareTs = fake.nextTs();
    file.shares = { public: {} };
    fake.addUserMessage({ channel: GROUP_DM, ts: shareTs, user: ASKER, text: "" });
    await sendEvent({
      type: "message",
      subtype: "file_share",
      channel: GROUP_DM,
      channel_type: "mpim",
      user: ASKER,
      text: "",
      ts: shareTs,
      files: [file],
    });
    const indexed = await waitFor(() =>
      folioRepliesIn(GROUP_DM, shareTs).find((message) => message.text.startsWith("Indexed")),
    );
    expect(indexed.text).toMatch(/^Indexed offsite-plan\[\.\]md/);
    expect(
      (await folio.core.listDocuments(`slack:${FAKE_TEAM_ID}:${GROUP_DM}`)).map((document) => document.fileName),
    ).toEqual(["offsite-plan.md"]);
    expect(
      (await folio.core.listDocuments(`slack:${FAKE_TEAM_ID}:user:${ASKER}`)).map((document) => document.fileName),
    ).not.toContain("offsite-plan.md");

    // Without a mention, a message in the group DM is left alone.
    const chatter = fake.nextTs();
    fake.addUserMessage({ channel: GROUP_DM, ts: chatter, user: OTHER, text: "Where is the offsite?" });
    await sendEvent({
      type: "message",
      channel: GROUP_DM,
      channel_type: "mpim",
      user: OTHER,
      text: "Where is the offsite?",
      ts: chatter,
    });

    const questionTs = fake.nextTs();
    const text = `<@${FAKE_BOT_USER_ID}> Where does the team offsite take place?`;
    fake.addUserMessage({ channel: GROUP_DM, ts: questionTs, user: OTHER, text });
    await sendEvent({
      type: "app_mention",
      channel: GROUP_DM,
      channel_type: "mpim",
      user: OTHER,
      text,
      ts: questionTs,
    });
    const answer = await waitForAnswer(GROUP_DM, questionTs);
    expect(blockTexts(answer)).toContain("Lisbon");
    expect(answerContexts.at(-1)?.context.spaceIds).toEqual([`slack:${FAKE_TEAM_ID}:${GROUP_DM}`, LIBRARY]);
    expect(folioRepliesIn(GROUP_DM, chatter)).toEqual([]);
  });
});

/** A logger whose JSON lines land in an array, to read the start-up warnings. */
function capturingLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return {
    logger: createLogger({ level: "info", destination }),
    warnings: () => lines.filter((line) => line.level === 40).map((line) => line.msg),
  };
}

describe.skipIf(!hasSharedData)("Slack start-up checks", () => {
  const startAdapter = async (options: {
    publicUrl?: string;
    manifestPath?: string | null;
    logger?: ReturnType<typeof createLogger>;
  }) => {
    const started = createSlackAdapter({
      core: folio.core,
      slack: slackConfig,
      librarySpaceId: null,
      logger: options.logger ?? silentLogger,
      ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
      ...(options.manifestPath !== undefined ? { manifestPath: options.manifestPath } : {}),
      tuning: { retryConfig: { retries: 0 } },
    });
    try {
      await started.start();
    } finally {
      await started.stop();
    }
  };

  it("stops start-up with one line naming SLACK_BOT_TOKEN when Slack refuses the token", async () => {
    for (const code of ["token_revoked", "invalid_auth"]) {
      fake.setAuthError(code);
      try {
        const failure = await startAdapter({}).then(
          () => null,
          (error: unknown) => error,
        );
        expect(failure).toBeInstanceOf(ConfigError);
        const message = (failure as Error).message;
        expect(message).not.toContain("\n");
        expect(message).toMatch(
          new RegExp(`^Invalid configuration — SLACK_BOT_TOKEN: Slack refused it at auth\\.test \\(${code}: `),
        );
      } finally {
        fake.setAuthError(null);
      }
    }
  });

  it("makes `folio serve` exit 3 with that one line, and no stack trace, when the token is revoked", async () => {
    fake.setAuthError("token_revoked");
    const cliDataDir = mkdtempSync(path.join(os.tmpdir(), "folio-slack-cli-"));
    try {
      const run = await runFolioCli(
        ["serve"],
        {
          ...process.env,
          FOLIO_DATA_DIR: cliDataDir,
          FOLIO_MODELS_DIR: sharedModelsDir,
          FOLIO_OFFLINE: "1",
          FOLIO_EMBED_MODEL: "none",
          FOLIO_LOG_LEVEL: "error",
          PORT: "0",
          SLACK_BOT_TOKEN: "xoxb-test",
          SLACK_SIGNING_SECRET: SIGNING_SECRET,
          SLACK_API_URL: fake.url,
        },
        90_000,
      );
      expect(run.code).toBe(3);
      const lines = run.stderr.split("\n").filter((line) => line.trim() !== "");
      expect(lines).toEqual([
        expect.stringMatching(
          /^folio: Invalid configuration — SLACK_BOT_TOKEN: Slack refused it at auth\.test \(token_revoked: /,
        ),
      ]);
    } finally {
      fake.setAuthError(null);
      rmSync(cliDataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it("warns about a localhost FOLIO_PUBLIC_URL and a manifest request URL that cannot match it", async () => {
    const local = capturingLogger();
    await startAdapter({ publicUrl: "http://localhost:3000", logger: local.logger });
    expect(local.warnings()).toEqual([
      expect.stringMatching(/^WARNING: FOLIO_PUBLIC_URL is http:\/\/localhost:3000, a local address: citation links/),
      expect.stringMatching(/^WARNING: Slack's request URL can never match FOLIO_PUBLIC_URL=http:\/\/localhost:3000/),
    ]);

    const shipped = capturingLogger();
    await startAdapter({
      publicUrl: "https://folio.acme.test",
      manifestPath: DEFAULT_MANIFEST_PATH,
      logger: shipped.logger,
    });
    expect(shipped.warnings()).toEqual([
      `WARNING: ${DEFAULT_MANIFEST_PATH} sends Slack to https://folio.example.com/slack/events, but Folio receives Slack at https://folio.acme.test/slack/events (FOLIO_PUBLIC_URL + /slack/events) — put that URL in the manifest's request_url and the /folio command's url (or the app's Event Subscriptions, Interactivity and Slash Commands pages) and let Slack verify it while Folio runs`,
    ]);

    const edited = path.join(dataDir, "manifest.yml");
    writeFileSync(
      edited,
      readFileSync(DEFAULT_MANIFEST_PATH, "utf8").replaceAll("https://folio.example.com", "https://folio.acme.test"),
    );
    const matching = capturingLogger();
    await startAdapter({ publicUrl: "https://folio.acme.test/", manifestPath: edited, logger: matching.logger });
    expect(matching.warnings()).toEqual([]);
  });
});
