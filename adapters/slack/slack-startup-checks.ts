/**
 * What Folio checks before it takes Slack traffic: that Slack accepts `SLACK_BOT_TOKEN` (auth.test; a
 * refused token stops start-up with one line saying what to do), and that the public address Slack
 * and readers see is usable — a localhost `FOLIO_PUBLIC_URL` makes every citation link point nowhere,
 * and in HTTP mode Slack can only call an HTTPS request URL equal to `<FOLIO_PUBLIC_URL>/slack/events`.
 * The address checks are pure and return the warnings to log.
 */
import { readFile } from "node:fs/promises";
import { ConfigError } from "../../src/config/config.js";
import { toFolioError } from "../../src/errors.js";
import type { Logger } from "../../src/logger.js";

/** auth.test errors that mean the token itself is wrong, revoked or belongs to a removed app. */
const TOKEN_REFUSED_ERRORS: Record<string, string> = {
  invalid_auth: "Slack does not recognise it",
  not_authed: "Slack received no token",
  token_revoked: "it was revoked",
  token_expired: "it has expired",
  account_inactive: "the app was uninstalled or its bot deactivated",
  no_permission: "it lacks permission",
  org_login_required: "the workspace requires an organisation login",
  ekm_access_denied: "the workspace's key management denied it",
  team_access_not_granted: "the app has not been granted access to this workspace",
};

/** The `error` of a Web API platform error (`{ ok: false, error }`), or null for any other failure. */
function platformError(error: unknown): string | null {
  const data = (error as { data?: { error?: unknown } } | null)?.data;
  return typeof data?.error === "string" ? data.error : null;
}

/**
 * The configuration error for a token Slack refused, or null when the failure is something else
 * (Slack unreachable, rate limited), which start-up survives.
 */
export function describeTokenRefusal(error: unknown): ConfigError | null {
  const code = platformError(error);
  if (code === null) return null;
  const reason = TOKEN_REFUSED_ERRORS[code];
  if (reason === undefined) return null;
  return new ConfigError([
    {
      variable: "SLACK_BOT_TOKEN",
      problem: `Slack refused it at auth.test (${code}: ${reason}) — copy the Bot User OAuth Token (xoxb-…) from the app's OAuth & Permissions page, reinstalling the app if it was removed`,
    },
  ]);
}

/** The host names that only this machine can reach. */
function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "::1" ||
    host === "0.0.0.0" ||
    /^127\.\d+\.\d+\.\d+$/.test(host)
  );
}

/** `request_url:` and slash-command `url:` values of a Slack app manifest (YAML), without a YAML parser. */
export function readManifestRequestUrls(manifestText: string): string[] {
  const urls: string[] = [];
  for (const line of manifestText.split("\n")) {
    const match = /^\s*(?:-\s*)?(?:request_url|url)\s*:\s*["']?([^"'\s#]+)["']?/.exec(line);
    if (match?.[1]) urls.push(match[1]);
  }
  return urls;
}

export type PublicAddressCheck = {
  publicUrl: string;
  socketMode: boolean;
  /** Path of the events endpoint Folio serves, e.g. `/slack/events`. */
  eventsPath: string;
  /** Request URLs of the manifest Folio ships (or the admin's edited copy); null when it was not read. */
  manifestRequestUrls: string[] | null;
  manifestPath?: string;
};

/** The request URL Slack must call for this FOLIO_PUBLIC_URL. */
export function expectedRequestUrl(publicUrl: string, eventsPath: string): string {
  return `${publicUrl.replace(/\/+$/, "")}${eventsPath}`;
}

/** Warnings (one sentence each, naming the variable and the fix) about the address Slack and readers use. */
export function checkPublicAddress(check: PublicAddressCheck): string[] {
  const warnings: string[] = [];
  const url = new URL(check.publicUrl);
  const local = isLocalHost(url.hostname);
  if (local) {
    warnings.push(
      `FOLIO_PUBLIC_URL is ${check.publicUrl}, a local address: citation links in Slack will point nowhere for everyone else — set it to the HTTPS address people and Slack reach Folio at (a tunnel's address for a trial)`,
    );
  }
  if (check.socketMode) return warnings;
  const expected = expectedRequestUrl(check.publicUrl, check.eventsPath);
  if (local || url.protocol !== "https:") {
    warnings.push(
      `Slack's request URL can never match FOLIO_PUBLIC_URL=${check.publicUrl}: Slack only calls public HTTPS addresses — expose Folio over HTTPS (see adapters/slack/README-slack.md) or use Socket Mode with SLACK_APP_TOKEN`,
    );
    return warnings;
  }
  const manifestUrls = check.manifestRequestUrls;
  if (manifestUrls !== null && manifestUrls.length > 0) {
    const mismatched = [...new Set(manifestUrls.filter((manifestUrl) => manifestUrl !== expected))];
    if (mismatched.length > 0) {
      const where = check.manifestPath ?? "the Slack app manifest";
      warnings.push(
        `${where} sends Slack to ${mismatched.join(", ")}, but Folio receives Slack at ${expected} (FOLIO_PUBLIC_URL + ${check.eventsPath}) — put that URL in the manifest's request_url and the /folio command's url (or the app's Event Subscriptions, Interactivity and Slash Commands pages) and let Slack verify it while Folio runs`,
      );
    }
  }
  return warnings;
}

/** Reads a manifest's request URLs; null when the file is not there (an installed build without it). */
export async function loadManifestRequestUrls(manifestPath: string): Promise<string[] | null> {
  try {
    return readManifestRequestUrls(await readFile(manifestPath, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

export type SlackStartupCheckOptions = {
  /** auth.test, resolving to who the bot is. */
  verifyToken: () => Promise<{ botUserId: string | null; teamId: string | null }>;
  logger: Logger;
  socketMode: boolean;
  eventsPath: string;
  /** FOLIO_PUBLIC_URL; null skips the address checks. */
  publicUrl: string | null;
  /** The manifest to compare with FOLIO_PUBLIC_URL; null skips the comparison. */
  manifestPath: string | null;
};

/**
 * Throws a ConfigError naming SLACK_BOT_TOKEN when Slack refuses it; logs a warning when Slack cannot
 * be reached (start-up goes on: the identity is asked again on the first event) and one line per
 * problem with the public address.
 */
export async function runSlackStartupChecks(options: SlackStartupCheckOptions): Promise<void> {
  const { logger } = options;
  try {
    const bot = await options.verifyToken();
    logger.info({ botUserId: bot.botUserId, team: bot.teamId }, "slack token accepted (auth.test)");
  } catch (error) {
    const refusal = describeTokenRefusal(error);
    if (refusal) throw refusal;
    logger.warn({ error: toFolioError(error).message }, "could not check SLACK_BOT_TOKEN with auth.test");
  }
  if (options.publicUrl === null) return;
  const { manifestPath } = options;
  const warnings = checkPublicAddress({
    publicUrl: options.publicUrl,
    socketMode: options.socketMode,
    eventsPath: options.eventsPath,
    manifestRequestUrls: manifestPath === null ? null : await loadManifestRequestUrls(manifestPath),
    ...(manifestPath === null ? {} : { manifestPath }),
  });
  for (const warning of warnings) logger.warn({ publicUrl: options.publicUrl }, `WARNING: ${warning}`);
}
