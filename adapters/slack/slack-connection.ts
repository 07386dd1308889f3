/**
 * Folio's connection to Slack: the Web API client (base URL, retries, Bolt's logger), who Folio is there
 * (auth.test once per process, so it can ignore itself and authorize Bolt), and the Bolt app — over Socket
 * Mode when an app token is set, otherwise over HTTP with a receiver whose signatures Bolt verifies.
 */
import { App, HTTPReceiver, webApi } from "@slack/bolt";
import type { SlackConfig } from "../../src/config/config.js";
import { FolioError } from "../../src/errors.js";
import type { Logger } from "../../src/logger.js";
import { createBoltLogger } from "./slack-bolt-logger.js";
import type { BotIdentity } from "./slack-thread-context.js";

export const SLACK_EVENTS_PATH = "/slack/events";

export type SlackIdentity = BotIdentity & { teamId: string | null };

export type SlackConnection = {
  client: webApi.WebClient;
  app: App;
  /** The HTTP receiver; null in Socket Mode. */
  receiver: HTTPReceiver | null;
  socketMode: boolean;
  /** The origin of SLACK_API_URL when set: file downloads are allowed from it too. */
  apiOrigin: string | null;
  /** auth.test once per process (asked again after a failure). */
  resolveIdentity(): Promise<SlackIdentity>;
};

/** The Web API client wants the base URL ending in `/api/`; accept `https://host`, `…/api` or `…/api/`. */
export function normalizeSlackApiUrl(apiUrl: string | null): string | undefined {
  if (apiUrl === null) return undefined;
  const trimmed = apiUrl.replace(/\/+$/, "");
  return `${trimmed.endsWith("/api") ? trimmed : `${trimmed}/api`}/`;
}

export function connectToSlack(slack: SlackConfig, retryConfig: webApi.RetryOptions, logger: Logger): SlackConnection {
  const boltLogger = createBoltLogger(logger);
  const slackApiUrl = normalizeSlackApiUrl(slack.apiUrl);
  const clientOptions: webApi.WebClientOptions = {
    ...(slackApiUrl ? { slackApiUrl } : {}),
    retryConfig,
    rejectRateLimitedCalls: false,
    logger: boltLogger,
    timeout: 30_000,
  };
  const client = new webApi.WebClient(slack.botToken, clientOptions);
  const resolveIdentity = identityResolver(client);
  const authorize = async () => {
    const bot = await resolveIdentity();
    return {
      botToken: slack.botToken,
      botUserId: bot.botUserId ?? undefined,
      botId: bot.botId ?? undefined,
      teamId: bot.teamId ?? undefined,
    };
  };
  const apiOrigin = slackApiUrl ? new URL(slackApiUrl).origin : null;
  if (slack.appToken !== null) {
    const app = new App({ appToken: slack.appToken, socketMode: true, authorize, clientOptions, logger: boltLogger });
    return { client, app, receiver: null, socketMode: true, apiOrigin, resolveIdentity };
  }
  if (slack.signingSecret === null) {
    throw new FolioError(
      "slack_not_configured",
      "Slack needs SLACK_SIGNING_SECRET (HTTP mode) or SLACK_APP_TOKEN (Socket Mode) besides SLACK_BOT_TOKEN.",
    );
  }
  const receiver = new HTTPReceiver({
    signingSecret: slack.signingSecret,
    endpoints: SLACK_EVENTS_PATH,
    logger: boltLogger,
    processBeforeResponse: false,
  });
  const app = new App({ receiver, authorize, clientOptions, logger: boltLogger });
  return { client, app, receiver, socketMode: false, apiOrigin, resolveIdentity };
}

/** Who Folio is, asked once and kept; a failed auth.test is asked again next time. */
function identityResolver(client: webApi.WebClient): () => Promise<SlackIdentity> {
  let identity: Promise<SlackIdentity> | null = null;
  return () => {
    identity ??= client.auth.test().then(
      (result) => ({
        botUserId: result.user_id ?? null,
        botId: result.bot_id ?? null,
        teamId: result.team_id ?? null,
      }),
      (error: unknown) => {
        identity = null;
        throw error;
      },
    );
    return identity;
  };
}
