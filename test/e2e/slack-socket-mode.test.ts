/**
 * End to end: the real Slack adapter in Socket Mode (Bolt's SocketModeReceiver over a real WebSocket)
 * against local stand-ins of Slack's Web API and Socket Mode endpoint, over a real Folio core (embedded
 * PGlite, real PDF parsing, retrieval, answers). Also the two ways an answer streams into Slack — the
 * chat streaming API where the workspace has it, edits of the placeholder where it does not — with the
 * real core's answer cut into several slow deltas, and the per-channel answer-all mode surviving a
 * restart of Folio (the mode lives in the catalog).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSlackAdapter, type SlackAdapter } from "../../adapters/slack/slack-adapter.js";
import type { AnswerEvent } from "../../src/answer/answer-events.js";
import { createFolio, type Folio } from "../../src/composition-root.js";
import { type FolioConfig, loadConfig } from "../../src/config/config.js";
import type { FolioCore } from "../../src/folio-core.js";
import { silentLogger } from "../../src/logger.js";
import { hasSharedData, sharedData, sharedModelsDir } from "../support/shared-paths.js";
import { sleep, waitFor } from "../support/wait-for.js";
import { type FakeSocketMode, startFakeSocketMode } from "./slack-fake-socket-mode.js";
import {
  eventCallbackEnvelope,
  FAKE_APP_TOKEN,
  FAKE_BOT_ID,
  FAKE_BOT_TOKEN,
  FAKE_BOT_USER_ID,
  FAKE_TEAM_ID,
  type FakeMessage,
  type FakeSlackWebApi,
  type RecordedCall,
  startFakeSlackWebApi,
} from "./slack-fake-web-api.js";

const CHANNEL = "C0SOCKET";
const ASKER = "U0ASKER";
const PDF_NAME = "contoso-perksplus.pdf";
const UPDATE_INTERVAL_MS = 150;
const DELTA_DELAY_MS = 40;

let fake: FakeSlackWebApi;
let socket: FakeSocketMode;
let config: FolioConfig;
let folio: Folio;
let adapter: SlackAdapter;
let dataDir: string;
let documentId: string;
/** The deltas each answer streamed, by request id, as the adapter received them. */
const deltasByRequest = new Map<string, string[]>();
/** When true, every delta of the real core is cut into words that arrive DELTA_DELAY_MS apart. */
let slowDeltas = false;

/** The real core, its deltas optionally slowed and split so an answer streams in several pieces. */
function observedCore(core: FolioCore): FolioCore {
  return {
    ...core,
    async *answerQuestion(question, context) {
      const deltas: string[] = [];
      deltasByRequest.set(context.requestId, deltas);
      for await (const event of core.answerQuestion(question, context)) {
        if (event.type !== "delta" || !slowDeltas) {
          if (event.type === "delta") deltas.push(event.text);
          yield event;
          continue;
        }
        for (const piece of event.text.split(/(?<= )/)) {
          await sleep(DELTA_DELAY_MS);
          deltas.push(piece);
          yield { type: "delta", text: piece } satisfies AnswerEvent;
        }
      }
    },
  };
}

async function openFolioAndAdapter() {
  folio = await createFolio(config, silentLogger);
  if (!config.slack) throw new Error("Slack configuration missing");
  adapter = createSlackAdapter({
    core: observedCore(folio.core),
    slack: config.slack,
    librarySpaceId: null,
    logger: silentLogger,
    settings: folio.catalog,
    tuning: { updateIntervalMs: UPDATE_INTERVAL_MS, retryConfig: { retries: 2, minTimeout: 10, maxTimeout: 50 } },
  });
  await adapter.start();
}

async function closeFolioAndAdapter() {
  await adapter?.stop();
  await folio?.close();
}

/** Sends an Events API envelope over the socket; Slack's limit for the ack is 3 s. */
async function sendEvent(event: Record<string, unknown>, eventId?: string) {
  const ack = await socket.send("events_api", eventCallbackEnvelope(event, eventId));
  expect(ack.latencyMs).toBeLessThan(3_000);
  return ack;
}

function ask(text: string, options: { mention?: boolean; channel?: string } = {}) {
  const channel = options.channel ?? CHANNEL;
  const ts = fake.nextTs();
  const fullText = options.mention === false ? text : `<@${FAKE_BOT_USER_ID}> ${text}`;
  fake.addUserMessage({ channel, ts, user: ASKER, text: fullText });
  return { channel, ts, user: ASKER, text: fullText };
}

function folioRepliesIn(channel: string, threadTs: string): FakeMessage[] {
  return fake.messagesIn(channel).filter((message) => message.bot_id === FAKE_BOT_ID && message.thread_ts === threadTs);
}

const isFinalAnswer = (message: FakeMessage) =>
  (message.blocks ?? []).some((block) => (block as { type?: string }).type === "actions");

function waitForAnswer(channel: string, threadTs: string): Promise<FakeMessage> {
  return waitFor(() => folioRepliesIn(channel, threadTs).find(isFinalAnswer));
}

function blockTexts(message: FakeMessage): string {
  return (message.blocks ?? [])
    .flatMap((block) => {
      const text = (block as { text?: { text?: string } }).text?.text;
      return typeof text === "string" ? [text] : [];
    })
    .join("\n");
}

function gaps(calls: RecordedCall[]): number[] {
  return calls.slice(1).map((call, index) => call.at - (calls[index]?.at ?? 0));
}

beforeAll(async () => {
  fake = await startFakeSlackWebApi();
  socket = await startFakeSocketMode();
  fake.setSocketModeUrl(socket.url);
  dataDir = mkdtempSync(path.join(os.tmpdir(), "folio-slack-socket-"));
  config = loadConfig(
    {
      FOLIO_DATA_DIR: dataDir,
      FOLIO_MODELS_DIR: sharedModelsDir,
      FOLIO_PUBLIC_URL: "https://folio.example",
      SLACK_BOT_TOKEN: FAKE_BOT_TOKEN,
      SLACK_APP_TOKEN: FAKE_APP_TOKEN,
      SLACK_API_URL: fake.url,
    },
    dataDir,
  );
  await openFolioAndAdapter();
  const result = await folio.core.ingestFile({
    bytes: readFileSync(sharedData("enterprise-pdfs/pdfs", PDF_NAME)),
    fileName: PDF_NAME,
    spaceId: `slack:${FAKE_TEAM_ID}:${CHANNEL}`,
    uploader: ASKER,
  });
  if (result.status !== "ingested" || !result.documentId) throw new Error(`ingest failed: ${result.status}`);
  documentId = result.documentId;
}, 120_000);

afterAll(async () => {
  await closeFolioAndAdapter();
  await socket?.close();
  await fake?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

if (!hasSharedData) console.warn(`slack-socket-mode: skipped — no shared data (../shared) for its PDFs and models.`);

describe.skipIf(!hasSharedData)("Slack adapter in Socket Mode", () => {
  it("connects with the app token and mounts no HTTP route", () => {
    expect(adapter.routes).toEqual([]);
    const opens = fake.callsTo("apps.connections.open");
    expect(opens.length).toBeGreaterThanOrEqual(1);
    expect(opens.every((call) => call.token === FAKE_APP_TOKEN)).toBe(true);
    expect(socket.connections).toBe(1);
  });

  it("acks an app_mention envelope at once and answers in the thread", async () => {
    const question = ask("How much can employees expense for fitness programs?");
    const ack = await sendEvent({ type: "app_mention", ...question });
    const answer = await waitForAnswer(CHANNEL, question.ts);

    // The ack went back before Folio started answering (the placeholder came after it).
    const placeholder = fake
      .callsTo("chat.postMessage")
      .find((call) => call.args.thread_ts === question.ts && call.args.channel === CHANNEL);
    expect(placeholder?.args.text).toBe("Searching your documents…");
    expect(placeholder?.token).toBe(FAKE_BOT_TOKEN);
    expect(ack.at).toBeLessThanOrEqual(placeholder?.at ?? 0);
    expect(folioRepliesIn(CHANNEL, question.ts)).toHaveLength(1);
    const texts = blockTexts(answer);
    expect(texts).toContain("*Sources*");
    expect(texts).toMatch(
      new RegExp(`<https://folio\\.example/files/${documentId}\\?exp=\\d+&amp;sig=[0-9a-f]+#page=\\d`),
    );
  });

  it("answers an envelope Slack redelivers (same event id) once", async () => {
    const question = ask("What does PerksPlus cover?");
    const eventId = "EvSOCKETDUPLICATE";
    await sendEvent({ type: "app_mention", ...question }, eventId);
    await sendEvent({ type: "app_mention", ...question }, eventId);
    await waitForAnswer(CHANNEL, question.ts);
    await sleep(400);
    expect(folioRepliesIn(CHANNEL, question.ts)).toHaveLength(1);
  });

  it("runs /folio over the socket, and the answer-all mode survives a restart of Folio", async () => {
    const command = async (text: string) => {
      const ack = await socket.send("slash_commands", {
        command: "/folio",
        text,
        team_id: FAKE_TEAM_ID,
        channel_id: CHANNEL,
        user_id: ASKER,
        response_url: `${fake.url}/response`,
        trigger_id: "t",
        token: "t",
        api_app_id: "A0FOLIO",
      });
      expect(ack.latencyMs).toBeLessThan(3_000);
      return ack.payload as { response_type?: string; text?: string };
    };
    expect(await command("docs")).toMatchObject({ response_type: "ephemeral" });
    expect((await command("docs")).text).toContain(`(${PDF_NAME}, 4 pages)`);

    // Off by default: a question without a mention is left alone.
    const before = ask("Is there a fitness allowance?", { mention: false });
    await sendEvent({ type: "message", channel_type: "channel", ...before });
    await sleep(400);
    expect(fake.messagesIn(CHANNEL).filter((message) => message.thread_ts === before.ts)).toEqual([]);

    expect((await command("answer-all on")).text).toContain("I will answer every question");
    const connectionsBefore = socket.connections;
    await closeFolioAndAdapter();
    await openFolioAndAdapter();
    expect(socket.connections).toBe(connectionsBefore + 1);

    const after = ask("Is there a fitness allowance?", { mention: false });
    await sendEvent({ type: "message", channel_type: "channel", ...after });
    await waitForAnswer(CHANNEL, after.ts);
    // Statements are still left alone in answer-all mode.
    const statement = ask("Thanks, that helps.", { mention: false });
    await sendEvent({ type: "message", channel_type: "channel", ...statement });

    expect((await command("answer-all off")).text).toBe("I will answer only when mentioned in this channel.");
    const off = ask("And for yoga classes?", { mention: false });
    await sendEvent({ type: "message", channel_type: "channel", ...off });
    await sleep(400);
    expect(fake.messagesIn(CHANNEL).filter((message) => message.thread_ts === off.ts)).toEqual([]);
    expect(fake.messagesIn(CHANNEL).filter((message) => message.thread_ts === statement.ts)).toEqual([]);
  });
});

describe.skipIf(!hasSharedData)("streaming an answer into Slack", () => {
  beforeAll(async () => {
    // A fresh adapter: whether the workspace can stream is learned once per adapter, and answers of
    // earlier tests may already have met a fake that refused streaming.
    await closeFolioAndAdapter();
    await openFolioAndAdapter();
    slowDeltas = true;
    return () => {
      slowDeltas = false;
    };
  });

  it("uses chat.startStream / appendStream / stopStream where Slack has them, waiting out a 429", async () => {
    fake.setStreamingMode("supported");
    fake.rateLimit("chat.appendStream", 1, 1);
    const since = fake.calls.length;
    const question = ask("How much can employees expense for fitness programs?");
    await sendEvent({ type: "app_mention", ...question });
    const answer = await waitForAnswer(CHANNEL, question.ts);
    const all = fake.calls.slice(since).filter((call) => call.method.startsWith("chat."));
    // The rate-limited append was retried after Retry-After (1 s), and nothing was lost.
    const limited = all.filter((call) => call.result === undefined);
    expect(limited.map((call) => call.method)).toEqual(["chat.appendStream"]);
    const retried = all[all.indexOf(limited[0] as RecordedCall) + 1];
    expect(retried?.method).toBe("chat.appendStream");
    expect(retried?.args).toEqual(limited[0]?.args);
    expect((retried?.at ?? 0) - (limited[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
    const calls = all.filter((call) => call.result?.ok === true);

    const placeholder = calls.find((call) => call.method === "chat.postMessage");
    expect(placeholder?.args).toMatchObject({ thread_ts: question.ts, text: "Searching your documents…" });
    const start = calls.find((call) => call.method === "chat.startStream");
    expect(start?.args).toMatchObject({
      channel: CHANNEL,
      thread_ts: question.ts,
      recipient_user_id: ASKER,
      recipient_team_id: FAKE_TEAM_ID,
    });
    const appends = calls.filter((call) => call.method === "chat.appendStream");
    const stops = calls.filter((call) => call.method === "chat.stopStream");
    expect(appends.length).toBeGreaterThanOrEqual(2);
    expect(stops).toHaveLength(1);
    expect(new Set([...appends, ...stops].map((call) => call.args.ts))).toEqual(new Set([answer.ts]));

    // Every delta reached Slack exactly once, in order, and no more often than the throttle allows.
    const requestId = [...deltasByRequest.keys()].at(-1) ?? "";
    const deltas = deltasByRequest.get(requestId) ?? [];
    expect(deltas.length).toBeGreaterThanOrEqual(5);
    const streamed = [start, ...appends, ...stops].map((call) => String(call?.args.markdown_text ?? "")).join("");
    expect(streamed).toBe(deltas.join(""));
    expect(Math.min(...gaps([start as RecordedCall, ...appends]))).toBeGreaterThanOrEqual(UPDATE_INTERVAL_MS - 20);

    // The placeholder made way for the stream, and the stream became the formatted final answer.
    const deletes = calls.filter((call) => call.method === "chat.delete");
    expect(deletes.map((call) => call.args.ts)).toEqual([placeholder?.result?.ts]);
    const order = calls.map((call) => call.method);
    expect(order.indexOf("chat.stopStream")).toBeLessThan(order.lastIndexOf("chat.update"));
    expect(folioRepliesIn(CHANNEL, question.ts)).toEqual([answer]);
    expect(answer.streaming).toBe(false);
    expect(blockTexts(answer)).toContain("*Sources*");
  });

  it("falls back to throttled edits when Slack refuses streaming, and remembers it", async () => {
    fake.setStreamingMode("not_allowed");
    const since = fake.calls.length;
    const question = ask("Which fitness programs are covered?");
    await sendEvent({ type: "app_mention", ...question });
    const answer = await waitForAnswer(CHANNEL, question.ts);
    const calls = fake.calls.slice(since).filter((call) => call.method.startsWith("chat."));

    expect(calls.filter((call) => call.method === "chat.startStream")).toHaveLength(1);
    expect(calls.filter((call) => call.method === "chat.appendStream")).toEqual([]);
    const edits = calls.filter((call) => call.method === "chat.update" && call.args.ts === answer.ts);
    const streamingEdits = edits.filter((call) => String(call.args.text).endsWith(" …"));
    expect(streamingEdits.length).toBeGreaterThanOrEqual(2);
    // The text grows edit by edit; the edits keep to the throttle (the first follows the refusal at once).
    const lengths = streamingEdits.map((call) => String(call.args.text).length);
    expect(lengths).toEqual([...lengths].sort((left, right) => left - right));
    expect(Math.min(...gaps(streamingEdits.slice(1)))).toBeGreaterThanOrEqual(UPDATE_INTERVAL_MS - 20);
    expect(folioRepliesIn(CHANNEL, question.ts)).toEqual([answer]);
    expect(blockTexts(answer)).toContain("*Sources*");

    // Learned for the adapter's lifetime: the next answer does not ask again.
    fake.setStreamingMode("supported");
    const sinceNext = fake.calls.length;
    const next = ask("What does PerksPlus cover?");
    await sendEvent({ type: "app_mention", ...next });
    await waitForAnswer(CHANNEL, next.ts);
    expect(fake.calls.slice(sinceNext).filter((call) => call.method === "chat.startStream")).toEqual([]);
  });
});
