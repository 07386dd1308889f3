/**
 * End to end: a questionnaire in a Teams 1:1 chat through the real CloudAdapter (JWT validation
 * against the local Bot Framework stand-in) over a real Folio core (PGlite, keyword search, extractive
 * answers). A CSV sent with "answer this questionnaire": progress edited in place (PUT of the
 * message), a file consent card for the filled copy, the summary; accepting the card PUTs the bytes
 * to the upload address and shows a file info card. A file that is not a questionnaire gets the reason.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse as parseCsvText } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTeamsAdapter, type TeamsAdapter } from "../../adapters/teams/teams-adapter.js";
import { FILE_CONSENT_CARD, FILE_INFO_CARD } from "../../adapters/teams/teams-questionnaire.js";
import { createFolio, type Folio } from "../../src/composition-root.js";
import { loadConfig } from "../../src/config/config.js";
import { silentLogger } from "../../src/logger.js";
import { type RouteServer, serveRoutes } from "../support/route-server.js";
import { hasSharedData, sharedModelsDir } from "../support/shared-paths.js";
import {
  type BotConnectorStandIn,
  type ConnectorCall,
  channelClaims,
  mintToken,
  startBotConnectorStandIn,
} from "../support/teams-bot-connector-stand-in.js";
import { waitFor } from "../support/wait-for.js";

const APP_ID = "00000000-0000-0000-0000-0000000f0111";
const TENANT = "72f988bf-0000-0000-0000-0000000quest";
const BOT_ID = `28:${APP_ID}`;
const PERSONAL = "a:1personal-questionnaire-chat";
const ASKER = { id: "29:asker", name: "Ada Asker", aadObjectId: "aad-asker" };
const PERSONAL_SPACE = `teams:${TENANT}:${PERSONAL}`;

const POLICY = `# Security policy

## Backups
Backups are taken every night and kept for 35 days in a second region.
`;
const QUESTIONNAIRE = [
  "ID,Question",
  "1,How long are backups kept?",
  "2,How many visitor parking spaces does the office have?",
].join("\n");

let standIn: BotConnectorStandIn;
let folio: Folio;
let adapter: TeamsAdapter;
let server: RouteServer;
let dataDir: string;
let nextActivityId = 5000;

async function postActivity(activity: Record<string, unknown>) {
  const token = mintToken(standIn.signingKey, channelClaims({ appId: APP_ID, serviceUrl: standIn.serviceUrl }));
  return fetch(`${server.url}/api/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(activity),
  });
}

function personal(extra: Record<string, unknown>) {
  return {
    id: String(nextActivityId++),
    timestamp: new Date().toISOString(),
    channelId: "msteams",
    serviceUrl: standIn.serviceUrl,
    from: ASKER,
    recipient: { id: BOT_ID, name: "Folio" },
    conversation: { id: PERSONAL, conversationType: "personal", tenantId: TENANT },
    channelData: { tenant: { id: TENANT } },
    ...extra,
  };
}

function sendFile(name: string, bytes: Uint8Array, text: string) {
  return postActivity(
    personal({
      type: "message",
      text,
      attachments: [
        {
          contentType: "application/vnd.microsoft.teams.file.download.info",
          contentUrl: `https://contoso.sharepoint.com/personal/ada/Documents/${name}`,
          name,
          content: {
            downloadUrl: standIn.addFile(name, bytes),
            uniqueId: `unique-${name}`,
            fileType: name.split(".").pop(),
          },
        },
      ],
    }),
  );
}

const sent = (since: number) => standIn.callsIn(PERSONAL).slice(since);
const textOf = (call: ConnectorCall) => String(call.activity.text ?? "");
const attachmentOf = (call: ConnectorCall) =>
  (call.activity.attachments as Array<Record<string, unknown>> | undefined)?.[0] ?? null;

beforeAll(async () => {
  if (!hasSharedData) return;
  standIn = await startBotConnectorStandIn();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "folio-teams-questionnaire-"));
  const config = loadConfig(
    {
      FOLIO_DATA_DIR: dataDir,
      FOLIO_MODELS_DIR: sharedModelsDir,
      FOLIO_EMBED_MODEL: "none",
      FOLIO_PUBLIC_URL: "https://folio.example",
      MICROSOFT_APP_ID: APP_ID,
      MICROSOFT_APP_PASSWORD: "stand-in-secret",
      MICROSOFT_APP_TENANT_ID: TENANT,
    },
    dataDir,
  );
  folio = await createFolio(config, silentLogger);
  if (!config.teams) throw new Error("Teams configuration missing");
  adapter = createTeamsAdapter({
    core: folio.core,
    teams: config.teams,
    librarySpaceId: null,
    settings: folio.catalog,
    logger: silentLogger,
    endpoints: {
      openIdMetadataUrl: standIn.openIdMetadataUrl,
      emulatorOpenIdMetadataUrl: standIn.openIdMetadataUrl,
      loginBaseUrl: standIn.url,
    },
    // The stand-in serves and takes files on loopback, which Microsoft's file hosts never are.
    fileDownloads: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, protocols: ["http:"] },
    tuning: { updateIntervalMs: 0, questionnaireProgressIntervalMs: 0 },
  });
  server = await serveRoutes(adapter.routes);
  const ingested = await folio.core.ingestFile({
    bytes: new TextEncoder().encode(POLICY),
    fileName: "security-policy.md",
    spaceId: PERSONAL_SPACE,
    uploader: ASKER.aadObjectId,
  });
  expect(ingested.status).toBe("ingested");
}, 120_000);

afterAll(async () => {
  await adapter?.stop();
  await server?.close();
  await folio?.close();
  await standIn?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

if (!hasSharedData) console.warn("teams-questionnaire: skipped — no shared data (../shared) for the tokenizer.");

describe.skipIf(!hasSharedData)("questionnaires in a Teams 1:1 chat", () => {
  it("answers a CSV sent with the ask, offers the filled copy by consent card, uploads it on accept", async () => {
    const since = standIn.callsIn(PERSONAL).length;
    const response = await sendFile("review.csv", new TextEncoder().encode(QUESTIONNAIRE), "answer this questionnaire");
    expect(response.status).toBeLessThan(300);

    const summary = await waitFor(
      () => sent(since).find((call) => textOf(call).includes("questions in")),
      120_000,
      "the questionnaire summary",
    );
    expect(textOf(summary)).toContain("**review.csv** — 2 questions in");
    expect(textOf(summary)).toContain("- 1 answered");
    expect(textOf(summary)).toContain("- 1 not found in the documents");

    // Progress: one message, edited in place (PUT), ending on the final count.
    const progress = sent(since).find((call) => call.method === "POST" && textOf(call).startsWith("Answering **"));
    const edits = sent(since).filter((call) => call.method === "PUT" && call.replyToId === progress?.id);
    expect(edits.length).toBeGreaterThanOrEqual(1);
    expect(textOf(edits.at(-1) as ConnectorCall)).toMatch(/: 2\/2 done · 1 answered · 1 not found · took /);

    // The consent card, before the summary; the questionnaire itself was never indexed.
    const card = sent(since).find((call) => attachmentOf(call)?.contentType === FILE_CONSENT_CARD);
    expect(card?.at).toBeLessThanOrEqual(summary.at);
    const content = attachmentOf(card as ConnectorCall)?.content as {
      sizeInBytes: number;
      acceptContext: { jobId: string };
    };
    expect(attachmentOf(card as ConnectorCall)?.name).toBe("review (filled).csv");
    expect((await folio.core.listDocuments(PERSONAL_SPACE)).map((document) => document.fileName)).toEqual([
      "security-policy.md",
    ]);

    const beforeAccept = standIn.callsIn(PERSONAL).length;
    const accepted = await postActivity(
      personal({
        type: "invoke",
        name: "fileConsent/invoke",
        value: {
          type: "fileUpload",
          action: "accept",
          context: content.acceptContext,
          uploadInfo: {
            name: "review (filled).csv",
            uploadUrl: standIn.uploadUrl("review-filled"),
            contentUrl: "https://contoso-my.sharepoint.com/personal/ada/Documents/review%20(filled).csv",
            uniqueId: "drive-unique-1",
            fileType: "csv",
          },
        },
      }),
    );
    expect(accepted.status).toBe(200);
    const infoCard = await waitFor(
      () => sent(beforeAccept).find((call) => attachmentOf(call)?.contentType === FILE_INFO_CARD),
      30_000,
      "the file info card",
    );
    expect(attachmentOf(infoCard)).toMatchObject({
      name: "review (filled).csv",
      contentUrl: "https://contoso-my.sharepoint.com/personal/ada/Documents/review%20(filled).csv",
      content: { uniqueId: "drive-unique-1", fileType: "csv" },
    });
    const [upload] = standIn.uploads;
    expect(upload?.name).toBe("review-filled");
    expect(upload?.bytes.byteLength).toBe(content.sizeInBytes);
    expect(upload?.contentRange).toBe(`bytes 0-${content.sizeInBytes - 1}/${content.sizeInBytes}`);
    const rows = parseCsvText(Buffer.from(upload?.bytes ?? new Uint8Array()).toString("utf8"), {
      bom: true,
    }) as string[][];
    const header = rows[0] ?? [];
    expect(header.slice(0, 2)).toEqual(["ID", "Question"]);
    const answer = header.indexOf("Answer");
    const status = header.indexOf("Status");
    expect(rows[1]?.[answer]).toContain("35 days");
    expect(rows[1]?.[status]).toBe("answered");
    expect(rows[2]?.[status]).toBe("not found in the documents");
  }, 180_000);

  it("tells the user why a file is not a questionnaire, and indexes nothing", async () => {
    const since = standIn.callsIn(PERSONAL).length;
    await sendFile(
      "notes.md",
      new TextEncoder().encode("# Notes\n\nNothing to answer.\n"),
      "answer this questionnaire",
    );
    const refusal = await waitFor(
      () => sent(since).find((call) => textOf(call).startsWith("I can't answer")),
      30_000,
      "the refusal",
    );
    expect(textOf(refusal)).toMatch(/^I can't answer notes\[\.\]md as a questionnaire: .+/);
    expect((await folio.core.listDocuments(PERSONAL_SPACE)).map((document) => document.fileName)).toEqual([
      "security-policy.md",
    ]);
  }, 60_000);

  it("adds a completed questionnaire sent with “add these as approved answers” to the chat's approved answers", async () => {
    const since = standIn.callsIn(PERSONAL).length;
    const started = Date.now();
    const completed =
      'Question,Answer\n"Is MFA required for administrators?","Yes, hardware keys."\n"Where are logs kept?",\n';
    await sendFile("mfa-answers.csv", new TextEncoder().encode(completed), "add these as approved answers");
    const reply = await waitFor(
      () => sent(since).find((call) => textOf(call).startsWith("Added")),
      60_000,
      "the approved answers reply",
    );
    expect(textOf(reply).split("\n").slice(0, 3)).toEqual([
      "Added 1 approved answer from **mfa-answers.csv** to your approved answers.",
      "- questions from “Question”, answers from “Answer”",
      "- 1 row skipped: a question without an answer or the reverse",
    ]);
    const records = (await folio.core.approvedAnswers?.list(PERSONAL_SPACE)) ?? [];
    expect(
      records.map(({ question, answer, file, row, addedBy }) => ({ question, answer, file, row, addedBy })),
    ).toEqual([
      {
        question: "Is MFA required for administrators?",
        answer: "Yes, hardware keys.",
        file: "mfa-answers.csv",
        row: 2,
        addedBy: `teams:${ASKER.aadObjectId}`,
      },
    ]);
    expect(records[0]?.addedAt.getTime()).toBeGreaterThanOrEqual(started - 1_000);
    // Added as approved answers, not indexed as a document.
    expect((await folio.core.listDocuments(PERSONAL_SPACE)).map((document) => document.fileName)).toEqual([
      "security-policy.md",
    ]);
  }, 60_000);

  it("stops the person's questionnaire when they say “cancel” in the chat", async () => {
    const nothing = standIn.callsIn(PERSONAL).length;
    await postActivity(personal({ type: "message", text: "cancel" }));
    const none = await waitFor(
      () => sent(nothing).find((call) => textOf(call).startsWith("No questionnaire")),
      30_000,
      "the nothing-to-cancel reply",
    );
    expect(textOf(none)).toBe("No questionnaire of yours is being answered here — there is nothing to cancel.");

    const since = standIn.callsIn(PERSONAL).length;
    const rows = Array.from(
      { length: 1_500 },
      (_, index) => `${index + 1},How long are backups of system ${index + 1} kept?`,
    );
    await sendFile(
      "long.csv",
      new TextEncoder().encode(`ID,Question\n${rows.join("\n")}\n`),
      "answer this questionnaire",
    );
    await waitFor(
      () => sent(since).find((call) => call.method === "POST" && textOf(call).startsWith("Answering **long.csv**")),
      60_000,
      "the progress message",
    );
    await postActivity(personal({ type: "message", text: "cancel" }));
    const stopped = await waitFor(
      () => sent(since).find((call) => textOf(call).startsWith("Stopped answering")),
      60_000,
      "the stop",
    );
    expect(textOf(stopped)).toMatch(/^Stopped answering long\.csv: cancelled · \d+\/1500 done/);
    expect(Number(/(\d+)\/1500 done/.exec(textOf(stopped))?.[1])).toBeLessThan(1_500);
    // Stopped by its own follower (which says so): no second reply, no filled copy offered.
    expect(sent(since).filter((call) => textOf(call).startsWith("Cancelling"))).toEqual([]);
    expect(sent(since).some((call) => attachmentOf(call)?.name === "long (filled).csv")).toBe(false);
  }, 120_000);
});
