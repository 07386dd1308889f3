/**
 * End to end: a questionnaire asked in a Teams 1:1 chat survives a restart. Through the real CloudAdapter
 * (JWT validation against the local Bot Framework stand-in) over a real Folio core (PGlite, keyword
 * search, extractive answers): a CSV sent with "answer this questionnaire" starts a job; the app is
 * stopped mid-job (the progress message says it is paused); a fresh app over the same data directory
 * resumes the job and, through the conversation reference stored with it, edits the same progress
 * message proactively, offers the filled copy by file consent card and posts the summary.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTeamsAdapter, type TeamsAdapter } from "../../adapters/teams/teams-adapter.js";
import { FILE_CONSENT_CARD } from "../../adapters/teams/teams-questionnaire.js";
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

const APP_ID = "00000000-0000-0000-0000-0000000f0222";
const TENANT = "72f988bf-0000-0000-0000-00000restart";
const BOT_ID = `28:${APP_ID}`;
const PERSONAL = "a:1personal-restart-chat";
const ASKER = { id: "29:restarter", name: "Rita Restart", aadObjectId: "aad-restarter" };
const PERSONAL_SPACE = `teams:${TENANT}:${PERSONAL}`;
const QUESTIONS = 300;

const POLICY = `# Security policy

## Backups
Backups are taken every night and kept for 35 days in a second region.
`;

type App = { folio: Folio; adapter: TeamsAdapter; server: RouteServer };

let standIn: BotConnectorStandIn;
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
      MICROSOFT_APP_ID: APP_ID,
      MICROSOFT_APP_PASSWORD: "stand-in-secret",
      MICROSOFT_APP_TENANT_ID: TENANT,
    },
    dataDir,
  );
  const folio = await createFolio(config, silentLogger);
  if (!config.teams) throw new Error("Teams configuration missing");
  const adapter = createTeamsAdapter({
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
    fileDownloads: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, protocols: ["http:"] },
    tuning: { updateIntervalMs: 0, questionnaireProgressIntervalMs: 0 },
  });
  const server = await serveRoutes(adapter.routes);
  const app = { folio, adapter, server };
  running.push(app);
  return app;
}

async function stopApp(app: App) {
  running.splice(running.indexOf(app), 1);
  await app.adapter.stop();
  await app.server.close();
  await app.folio.close();
}

const textOf = (call: ConnectorCall) => String(call.activity.text ?? "");
const attachmentOf = (call: ConnectorCall) =>
  (call.activity.attachments as Array<Record<string, unknown>> | undefined)?.[0] ?? null;

beforeAll(async () => {
  if (!hasSharedData) return;
  standIn = await startBotConnectorStandIn();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "folio-teams-questionnaire-restart-"));
});

afterAll(async () => {
  for (const app of [...running]) await stopApp(app);
  await standIn?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

if (!hasSharedData)
  console.warn("teams-questionnaire-restart: skipped — no shared data (../shared) for the tokenizer.");

describe.skipIf(!hasSharedData)("a Teams questionnaire across a restart", () => {
  it("is resumed by the next start and reported proactively in the same chat", async () => {
    const first = await startApp();
    const policy = await first.folio.core.ingestFile({
      bytes: new TextEncoder().encode(POLICY),
      fileName: "policy.md",
      spaceId: PERSONAL_SPACE,
      uploader: ASKER.aadObjectId,
    });
    expect(policy.status).toBe("ingested");

    const csv = `Question\n${Array.from({ length: QUESTIONS }, () => "How long are backups kept?").join("\n")}\n`;
    const name = "restart-review.csv";
    const token = mintToken(standIn.signingKey, channelClaims({ appId: APP_ID, serviceUrl: standIn.serviceUrl }));
    const response = await fetch(`${first.server.url}/api/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({
        id: "7001",
        type: "message",
        timestamp: new Date().toISOString(),
        channelId: "msteams",
        serviceUrl: standIn.serviceUrl,
        from: ASKER,
        recipient: { id: BOT_ID, name: "Folio" },
        conversation: { id: PERSONAL, conversationType: "personal", tenantId: TENANT },
        channelData: { tenant: { id: TENANT } },
        text: "answer this questionnaire",
        attachments: [
          {
            contentType: "application/vnd.microsoft.teams.file.download.info",
            contentUrl: `https://contoso.sharepoint.com/personal/rita/Documents/${name}`,
            name,
            content: {
              downloadUrl: standIn.addFile(name, new TextEncoder().encode(csv)),
              uniqueId: "unique-restart",
              fileType: "csv",
            },
          },
        ],
      }),
    });
    expect(response.status).toBeLessThan(300);

    const calls = () => standIn.callsIn(PERSONAL);
    const progress = await waitFor(
      () => calls().find((call) => call.method === "POST" && textOf(call).startsWith("Answering **")),
      60_000,
      "the progress message",
    );
    const edits = () => calls().filter((call) => call.method === "PUT" && call.replyToId === progress.id);
    const doneIn = (call: ConnectorCall) => Number(new RegExp(`(\\d+)/${QUESTIONS} done`).exec(textOf(call))?.[1] ?? 0);
    await waitFor(() => edits().some((call) => doneIn(call) >= 3), 120_000, "three rows answered");
    await stopApp(first);

    const paused = edits().at(-1) as ConnectorCall;
    expect(textOf(paused)).toMatch(
      new RegExp(
        `^Answering \\*\\*${name.replace(".", "\\.")}\\*\\*: paused at \\d+/${QUESTIONS} done — Folio is restarting`,
      ),
    );
    expect(doneIn(paused)).toBeLessThan(QUESTIONS);
    expect(calls().some((call) => attachmentOf(call)?.contentType === FILE_CONSENT_CARD)).toBe(false);

    const second = await startApp();
    const resumed = await second.folio.questionnaires.resumeInterrupted(0);
    expect(resumed).toHaveLength(1);
    const summary = await waitFor(
      () => calls().find((call) => textOf(call).includes("questions in")),
      300_000,
      "the resumed job's summary",
    );
    expect(textOf(summary)).toContain(`**${name}** — ${QUESTIONS} questions in`);
    expect(textOf(summary)).toContain(`- ${QUESTIONS} answered`);
    // The same progress message, edited proactively by the second app to the final count.
    expect(textOf(edits().at(-1) as ConnectorCall)).toMatch(
      new RegExp(`\\(resumed after a restart\\): ${QUESTIONS}/${QUESTIONS} done · ${QUESTIONS} answered · took `),
    );
    expect(calls().filter((call) => call.method === "POST" && textOf(call).startsWith("Answering **"))).toHaveLength(1);
    const cards = calls().filter((call) => attachmentOf(call)?.contentType === FILE_CONSENT_CARD);
    expect(cards).toHaveLength(1);
    expect(attachmentOf(cards[0] as ConnectorCall)).toMatchObject({
      name: "restart-review (filled).csv",
      content: { acceptContext: { jobId: resumed[0] } },
    });
    expect((cards[0] as ConnectorCall).at).toBeLessThanOrEqual(summary.at);
    const rows = await second.folio.questionnaires.listRows(resumed[0] ?? "");
    expect(rows.filter((row) => row.result === null)).toEqual([]);
    expect(rows.filter((row) => row.attempts > 1).length).toBeLessThanOrEqual(1);
  }, 600_000);
});
