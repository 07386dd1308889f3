/**
 * End to end: the real Teams adapter (the Bot Framework SDK's CloudAdapter) mounted on a bare
 * node:http server and driven over HTTP with RS256 tokens minted by a test key. The SDK's own JWT
 * validation reads its OpenID metadata and signing keys from a local stand-in, which also plays the
 * Entra token endpoint, the Bot Connector (the activities' serviceUrl: every call recorded) and the
 * file host of 1:1 uploads. The core is real: embedded PGlite, real PDF parsing, BM25, answers.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AuthenticationError } from "botframework-connector";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTeamsAdapter, type TeamsAdapter } from "../../adapters/teams/teams-adapter.js";
import { createTeamsConversationState } from "../../adapters/teams/teams-conversation-state.js";
import { createFolio, type Folio } from "../../src/composition-root.js";
import { loadConfig } from "../../src/config/config.js";
import { silentLogger } from "../../src/logger.js";
import { type RecordedQuestion, recordingAnswerContexts } from "../support/recording-core.js";
import { type RouteServer, serveRoutes } from "../support/route-server.js";
import { hasSharedData, sharedData, sharedModelsDir } from "../support/shared-paths.js";
import {
  type BotConnectorStandIn,
  type ConnectorCall,
  channelClaims,
  createSigningKey,
  mintToken,
  startBotConnectorStandIn,
} from "../support/teams-bot-connector-stand-in.js";
import { sleep, waitFor } from "../support/wait-for.js";

const APP_ID = "00000000-0000-0000-0000-0000000f0110";
const TENANT = "72f988bf-0000-0000-0000-00000000test";
const BOT_ID = `28:${APP_ID}`;
const CHANNEL = "19:general0123@thread.tacv2";
const PERSONAL = "a:1personal-chat-of-asker";
const ASKER = { id: "29:asker", name: "Ada Asker", aadObjectId: "aad-asker" };
const OTHER = { id: "29:other", name: "Otto Other", aadObjectId: "aad-other" };
const PERKS_PDF = "contoso-perksplus.pdf";
const CHANNEL_SPACE = `teams:${TENANT}:${CHANNEL}`;
const PERSONAL_SPACE = `teams:${TENANT}:${PERSONAL}`;

let standIn: BotConnectorStandIn;
let folio: Folio;
let adapter: TeamsAdapter;
let server: RouteServer;
let baseUrl: string;
let dataDir: string;
let nextActivityId = 1000;
const answerContexts: RecordedQuestion[] = [];

function validToken(): string {
  return mintToken(standIn.signingKey, channelClaims({ appId: APP_ID, serviceUrl: standIn.serviceUrl }));
}

async function postActivity(activity: Record<string, unknown>, token: string | null = validToken()) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const started = Date.now();
  const response = await fetch(`${baseUrl}/api/messages`, { method: "POST", headers, body: JSON.stringify(activity) });
  // Teams gives a bot about 15 s; Folio answers the request before it works.
  expect(Date.now() - started).toBeLessThan(5_000);
  return response;
}

function baseActivity(text: string, from = ASKER) {
  return {
    type: "message",
    id: String(nextActivityId++),
    timestamp: new Date().toISOString(),
    channelId: "msteams",
    serviceUrl: standIn.serviceUrl,
    from,
    recipient: { id: BOT_ID, name: "Folio" },
    text,
  };
}

/** A message in a channel that mentions Folio; in a thread when `rootId` is given. */
function channelMention(question: string, options: { rootId?: string; from?: typeof ASKER } = {}) {
  const activity = baseActivity(`<at>Folio</at> ${question}`, options.from);
  const rootId = options.rootId ?? activity.id;
  return {
    ...activity,
    conversation: {
      id: `${CHANNEL};messageid=${rootId}`,
      conversationType: "channel",
      isGroup: true,
      tenantId: TENANT,
    },
    channelData: { tenant: { id: TENANT }, channel: { id: CHANNEL, name: "General" }, team: { id: CHANNEL } },
    entities: [{ type: "mention", text: "<at>Folio</at>", mentioned: { id: BOT_ID, name: "Folio" } }],
  };
}

function personalMessage(text: string, attachments: unknown[] = []) {
  return {
    ...baseActivity(text),
    conversation: { id: PERSONAL, conversationType: "personal", tenantId: TENANT },
    channelData: { tenant: { id: TENANT } },
    ...(attachments.length > 0 ? { attachments } : {}),
  };
}

function fileAttachment(name: string, downloadUrl: string) {
  return {
    contentType: "application/vnd.microsoft.teams.file.download.info",
    contentUrl: `https://contoso.sharepoint.com/personal/ada/Documents/${name}`,
    name,
    content: { downloadUrl, uniqueId: `unique-${name}`, fileType: name.split(".").pop() },
  };
}

type MessageEntity = {
  type: string;
  additionalType?: string[];
  citation?: Array<{ position: number; appearance: { name: string; abstract: string; url: string } }>;
};

function messageEntity(call: ConnectorCall): MessageEntity | undefined {
  const entities = (call.activity.entities ?? []) as MessageEntity[];
  return entities.find((entity) => entity.type === "https://schema.org/Message");
}

/** The final answer sent into a conversation after `since` (the message with the citation entity). */
function waitForAnswer(conversationId: string, since: number): Promise<ConnectorCall> {
  return waitFor(
    () =>
      standIn
        .callsIn(conversationId)
        .slice(since)
        .find((call) => call.activity.type === "message" && messageEntity(call)),
    30_000,
    "the Teams answer",
  );
}

function waitForText(conversationId: string, since: number, pattern: RegExp): Promise<ConnectorCall> {
  return waitFor(
    () =>
      standIn
        .callsIn(conversationId)
        .slice(since)
        .find((call) => call.activity.type === "message" && pattern.test(String(call.activity.text ?? ""))),
    30_000,
    `a Teams reply matching ${pattern}`,
  );
}

beforeAll(async () => {
  if (!hasSharedData) return;
  standIn = await startBotConnectorStandIn();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "folio-teams-e2e-"));
  const config = loadConfig(
    {
      FOLIO_DATA_DIR: dataDir,
      FOLIO_MODELS_DIR: sharedModelsDir,
      FOLIO_EMBED_MODEL: "none",
      FOLIO_PUBLIC_URL: "https://folio.example",
      MICROSOFT_APP_ID: APP_ID,
      MICROSOFT_APP_PASSWORD: "stand-in-secret",
      MICROSOFT_APP_TENANT_ID: TENANT,
      FOLIO_TEAMS_ADMINS: "aad-admin",
    },
    dataDir,
  );
  folio = await createFolio(config, silentLogger);
  if (!config.teams) throw new Error("Teams configuration missing");
  adapter = createTeamsAdapter({
    core: recordingAnswerContexts(folio.core, answerContexts),
    teams: config.teams,
    librarySpaceId: null,
    settings: folio.catalog,
    logger: silentLogger,
    endpoints: {
      openIdMetadataUrl: standIn.openIdMetadataUrl,
      emulatorOpenIdMetadataUrl: standIn.openIdMetadataUrl,
      loginBaseUrl: standIn.url,
    },
    // The stand-in serves attachments from loopback, which Microsoft's file hosts never are.
    fileDownloads: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, protocols: ["http:"] },
    tuning: { updateIntervalMs: 0 },
  });
  server = await serveRoutes(adapter.routes);
  baseUrl = server.url;
}, 120_000);

afterAll(async () => {
  await adapter?.stop();
  await server?.close();
  await folio?.close();
  await standIn?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

if (!hasSharedData) console.warn("teams: skipped — no shared data (../shared) for its PDFs.");

describe.skipIf(!hasSharedData)("Teams adapter over HTTP (real CloudAdapter, real JWT validation)", () => {
  it("mounts POST /api/messages and refuses every request without a valid token, touching nothing", async () => {
    expect(adapter.routes.map((route) => `${route.method} ${route.path}`)).toEqual(["POST /api/messages"]);
    const activity = () => channelMention("How much can employees expense for fitness programs?");
    const now = Math.floor(Date.now() / 1000);
    const otherKey = createSigningKey(standIn.signingKey.kid);
    const attempts: Array<[string, string | null]> = [
      ["no token", null],
      ["unsigned (alg none)", mintToken(null, channelClaims({ appId: APP_ID, serviceUrl: standIn.serviceUrl }))],
      ["signed by another key", mintToken(otherKey, channelClaims({ appId: APP_ID, serviceUrl: standIn.serviceUrl }))],
      [
        "unknown key id",
        mintToken(createSigningKey("unknown-kid"), channelClaims({ appId: APP_ID, serviceUrl: standIn.serviceUrl })),
      ],
      [
        "wrong audience",
        mintToken(standIn.signingKey, channelClaims({ appId: "another-app", serviceUrl: standIn.serviceUrl })),
      ],
      [
        "expired",
        mintToken(standIn.signingKey, {
          ...channelClaims({ appId: APP_ID, serviceUrl: standIn.serviceUrl }),
          iat: now - 7_200,
          nbf: now - 7_200,
          exp: now - 3_600,
        }),
      ],
      [
        "another service URL",
        mintToken(standIn.signingKey, channelClaims({ appId: APP_ID, serviceUrl: "https://smba.example/" })),
      ],
    ];
    // The CloudAdapter would print each refusal's stack to stderr and answer with its text; Folio answers
    // 401, empty. (The SDK's token extractor still prints a line of its own for an unknown key or an
    // expired token.)
    const stderr = vi.spyOn(console, "error");
    for (const [what, token] of attempts) {
      const response = await postActivity(activity(), token);
      expect({ what, status: response.status, body: await response.text() }).toEqual({ what, status: 401, body: "" });
    }
    expect(stderr.mock.calls.flat().filter((argument) => argument instanceof AuthenticationError)).toEqual([]);
    stderr.mockRestore();
    await sleep(300);
    expect(standIn.calls).toEqual([]);
    expect(standIn.tokenRequests).toEqual([]);
    expect(answerContexts).toEqual([]);
  });

  it("answers a channel mention in its thread with citations that open the right page", async () => {
    const bytes = readFileSync(sharedData("enterprise-pdfs/pdfs", PERKS_PDF));
    const ingested = await folio.core.ingestFile({
      bytes,
      fileName: PERKS_PDF,
      spaceId: CHANNEL_SPACE,
      uploader: ASKER.aadObjectId,
    });
    expect(ingested.status).toBe("ingested");

    const question = channelMention("How much can employees expense for fitness programs?");
    const threadId = question.conversation.id;
    const response = await postActivity(question);
    expect(response.status).toBe(200);
    const answer = await waitForAnswer(threadId, 0);

    // Into the thread of the question, as a reply to it, after a typing indicator.
    expect(answer.conversationId).toBe(`${CHANNEL};messageid=${question.id}`);
    expect(answer.replyToId).toBe(question.id);
    expect(standIn.callsIn(threadId)[0]?.activity.type).toBe("typing");
    expect(answer.authorization).toMatch(/^Bearer stand-in-access-token-\d+$/);
    expect(standIn.tokenRequests[0]).toEqual({
      tenant: TENANT,
      form: {
        grant_type: "client_credentials",
        client_id: APP_ID,
        client_secret: "stand-in-secret",
        scope: "https://api.botframework.com/.default",
      },
    });
    expect(answerContexts.at(-1)).toMatchObject({
      question: "How much can employees expense for fitness programs?",
      context: { spaceIds: [CHANNEL_SPACE], history: [] },
    });

    const text = String(answer.activity.text);
    expect(text).toContain("$1000");
    expect(text).toMatch(/\[1\]/);
    expect(answer.activity.channelData).toMatchObject({ feedbackLoopEnabled: true });
    const entity = messageEntity(answer);
    expect(entity?.additionalType).toEqual(["AIGeneratedContent"]);
    const [document] = await folio.core.listDocuments(CHANNEL_SPACE);
    // Page 3 of the PDF says "expense up to $1000 for fitness-related programs".
    const pageThree = entity?.citation?.find((claim) => claim.appearance.url.endsWith("#page=3"));
    expect(pageThree?.appearance.url).toMatch(
      new RegExp(`^https://folio\\.example/files/${document?.id}\\?exp=\\d+&sig=[0-9a-f]+#page=3$`),
    );
    expect(pageThree?.appearance.name).toMatch(/ — p\. 3$/);
    for (const claim of entity?.citation ?? []) {
      expect(claim.appearance.name.length).toBeLessThanOrEqual(80);
      expect(claim.appearance.abstract.length).toBeLessThanOrEqual(160);
      expect(text).toContain(`[${claim.position}]`);
    }
  });

  it("takes a later mention in the same thread as a follow-up, with the thread's turns as history", async () => {
    const root = channelMention("What does PerksPlus cover?");
    await postActivity(root);
    const first = await waitForAnswer(root.conversation.id, 0);
    // The thread's turns are stored just after the answer is sent: the follow-up comes once they are.
    const threadState = createTeamsConversationState(folio.catalog);
    await waitFor(
      async () => (await threadState.threadTurns(root.conversation.id)).length === 2,
      30_000,
      "the thread's turns to be stored",
    );
    const followUp = channelMention("Is there a limit?", { rootId: root.id });
    const before = standIn.callsIn(root.conversation.id).length;
    await postActivity(followUp);
    await waitForAnswer(root.conversation.id, before);
    const followUpContext = answerContexts.at(-1);
    expect(followUpContext?.question).toBe("Is there a limit?");
    expect(followUpContext?.context.history).toEqual([
      { role: "user", text: "What does PerksPlus cover?" },
      { role: "assistant", text: first.activity.text },
    ]);
  });

  it("answers an activity delivered twice only once", async () => {
    const question = channelMention("Which fitness programs are covered?");
    await postActivity(question);
    const retried = await postActivity(question);
    expect(retried.status).toBe(200);
    await waitForAnswer(question.conversation.id, 0);
    await sleep(500);
    const answers = standIn.callsIn(question.conversation.id).filter((call) => call.activity.type === "message");
    expect(answers).toHaveLength(1);
    expect(answerContexts.filter((entry) => entry.question === "Which fitness programs are covered?")).toHaveLength(1);
  });

  it("ingests a file sent in a 1:1 chat into that chat's space, answerable there and not in a channel", async () => {
    const name = "nist-sp800-145-cloud-definition.pdf";
    const downloadUrl = standIn.addFile(name, readFileSync(sharedData("enterprise-pdfs/pdfs", name)));
    const before = standIn.callsIn(PERSONAL).length;
    await postActivity(personalMessage("", [fileAttachment(name, downloadUrl)]));
    const reply = await waitForText(PERSONAL, before, /^(Indexed|Could not)/);
    expect(reply.activity.text).toMatch(/^Indexed nist-sp800-145-cloud-definition\.pdf: 7 pages, [1-9]\d* chunks$/);
    expect(standIn.downloads).toContain(name);
    const documents = await folio.core.listDocuments(PERSONAL_SPACE);
    expect(documents.map((document) => [document.fileName, document.uploader])).toEqual([[name, ASKER.aadObjectId]]);

    // The same bytes again: ingested once.
    const again = standIn.callsIn(PERSONAL).length;
    await postActivity(personalMessage("", [fileAttachment(name, downloadUrl)]));
    const unchanged = await waitForText(PERSONAL, again, /already indexed/);
    expect(unchanged.activity.text).toMatch(/^nist-sp800-145-cloud-definition\.pdf is already indexed \(7 pages/);
    expect(await folio.core.listDocuments(PERSONAL_SPACE)).toHaveLength(1);

    // Answerable in the 1:1 chat (streamed)…
    const askedAt = standIn.callsIn(PERSONAL).length;
    await postActivity(personalMessage("What are the essential characteristics of cloud computing?"));
    const answer = await waitForAnswer(PERSONAL, askedAt);
    expect(answerContexts.at(-1)?.context.spaceIds).toEqual([PERSONAL_SPACE]);
    expect(JSON.stringify(messageEntity(answer)?.citation)).toContain(String(documents[0]?.id));

    // …and not from a channel.
    const inChannel = channelMention("What are the essential characteristics of cloud computing?");
    await postActivity(inChannel);
    const channelAnswer = await waitForAnswer(inChannel.conversation.id, 0);
    expect(answerContexts.at(-1)?.context.spaceIds).toEqual([CHANNEL_SPACE]);
    expect(JSON.stringify(channelAnswer.activity)).not.toContain(String(documents[0]?.id));
  });

  it("streams a 1:1 answer: informative update, streamed text, then the final message closing the stream", async () => {
    const before = standIn.callsIn(PERSONAL).length;
    await postActivity(personalMessage("How can cloud resources be provisioned?"));
    const final = await waitForAnswer(PERSONAL, before);
    const sequence = standIn.callsIn(PERSONAL).slice(before);
    const [informative, ...rest] = sequence;
    const streamInfo = (call: ConnectorCall | undefined) =>
      ((call?.activity.entities ?? []) as Array<Record<string, unknown>>).find(
        (entity) => entity.type === "streaminfo",
      );
    expect(informative?.activity).toMatchObject({ type: "typing", text: "Searching your documents…" });
    expect(streamInfo(informative)).toEqual({ type: "streaminfo", streamType: "informative", streamSequence: 1 });
    const streamId = informative?.id;
    const updates = rest.filter((call) => call !== final);
    expect(updates.length).toBeGreaterThanOrEqual(1);
    updates.forEach((call, index) => {
      expect(call.activity.type).toBe("typing");
      expect(streamInfo(call)).toMatchObject({ streamId, streamSequence: index + 2 });
    });
    expect(updates.some((call) => streamInfo(call)?.streamType === "streaming")).toBe(true);
    expect(final.activity.type).toBe("message");
    expect(streamInfo(final)).toEqual({ type: "streaminfo", streamType: "final", streamId });
    expect(sequence.at(-1)).toBe(final);
  });

  it("replies to a broken file with its specific rejection", async () => {
    const downloadUrl = standIn.addFile(
      "broken.pdf",
      new TextEncoder().encode("%PDF-1.7\nthis is not really a PDF\n%%EOF"),
    );
    const before = standIn.callsIn(PERSONAL).length;
    await postActivity(personalMessage("", [fileAttachment("broken.pdf", downloadUrl)]));
    const reply = await waitForText(PERSONAL, before, /^Could not index/);
    expect(reply.activity.text).toBe(
      "Could not index broken.pdf: This PDF is damaged and cannot be read — re-export or re-save it and upload it again.",
    );
  });

  it("stores 👍/👎 from the feedback loop against the answer", async () => {
    const question = channelMention("How much can employees expense for fitness programs?");
    await postActivity(question);
    const answer = await waitForAnswer(question.conversation.id, 0);
    const requestId = answerContexts.at(-1)?.context.requestId ?? "";
    const invoke = {
      ...baseActivity("", OTHER),
      type: "invoke",
      name: "message/submitAction",
      replyToId: answer.id,
      conversation: question.conversation,
      channelData: question.channelData,
      value: {
        actionName: "feedback",
        actionValue: { reaction: "dislike", feedback: JSON.stringify({ feedbackText: "wrong page" }) },
      },
    };
    const response = await postActivity(invoke);
    expect(response.status).toBe(200);
    const feedback = await folio.catalog.listFeedback(requestId);
    expect(feedback.map((entry) => [entry.answerId, entry.spaceId, entry.user, entry.rating])).toEqual([
      [requestId, CHANNEL_SPACE, OTHER.aadObjectId, "down"],
    ]);
  });

  it("answers a file posted in a channel with the channel's upload code, which a 1:1 upload then uses", async () => {
    const post = {
      ...channelMention("here is the handbook"),
      attachments: [
        {
          contentType: "reference",
          contentUrl: "https://contoso.sharepoint.com/sites/General/Shared%20Documents/ietf.pdf",
          name: "ietf-rfc7232-http-conditional-requests.pdf",
        },
      ],
    };
    await postActivity(post);
    const reply = await waitForText(post.conversation.id, 0, /can't open files/);
    const code = /`channel ([A-Z0-9]{6})`/.exec(String(reply.activity.text))?.[1];
    expect(code).toMatch(/^[A-Z2-9]{6}$/);

    const name = "ietf-rfc7232-http-conditional-requests.pdf";
    const downloadUrl = standIn.addFile(name, readFileSync(sharedData("enterprise-pdfs/pdfs", name)));
    const before = standIn.callsIn(PERSONAL).length;
    await postActivity(personalMessage(`channel ${code?.toLowerCase()}`, [fileAttachment(name, downloadUrl)]));
    const confirmed = await waitForText(PERSONAL, before, /^Indexed/);
    expect(confirmed.activity.text).toMatch(/^Indexed ietf-rfc7232-http-conditional-requests\.pdf for General: /);
    const channelDocuments = await folio.core.listDocuments(CHANNEL_SPACE);
    expect(channelDocuments.map((document) => document.fileName)).toContain(name);
    expect((await folio.core.listDocuments(PERSONAL_SPACE)).map((document) => document.fileName)).not.toContain(name);
  });

  it("runs docs and lets only the uploader or an admin forget a document", async () => {
    const command = async (text: string, from: typeof ASKER) => {
      const activity = channelMention(text, { from });
      await postActivity(activity);
      return String((await waitForText(activity.conversation.id, 0, /./)).activity.text);
    };
    expect(await command("docs", OTHER)).toContain(`(${PERKS_PDF}, 4 pages)`);
    expect(await command(`forget ${PERKS_PDF}`, OTHER)).toBe(
      `Only the person who uploaded ${PERKS_PDF} or a Folio admin can remove it.`,
    );
    const admin = { id: "29:admin", name: "Ann Admin", aadObjectId: "aad-admin" };
    expect(await command(`forget ${PERKS_PDF}`, admin)).toBe(`Removed ${PERKS_PDF}; I will no longer cite it.`);
    expect((await folio.core.listDocuments(CHANNEL_SPACE)).map((document) => document.fileName)).not.toContain(
      PERKS_PDF,
    );
  });

  it("retries Bot Connector 429 (waiting out Retry-After) and 5xx, and still answers", async () => {
    const question = channelMention("Anything about HTTP conditional requests?");
    standIn.failNext(1, 429, 1);
    standIn.failNext(1, 503);
    await postActivity(question);
    await waitForAnswer(question.conversation.id, 0);
    const attempts = standIn.calls.filter((call) => call.conversationId === question.conversation.id);
    expect(attempts.slice(0, 3).map((call) => [call.activity.type, call.status])).toEqual([
      ["typing", 429],
      ["typing", 503],
      ["typing", 200],
    ]);
    expect((attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
  });
});
