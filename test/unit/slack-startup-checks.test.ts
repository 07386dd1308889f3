import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_MANIFEST_PATH } from "../../adapters/slack/slack-adapter.js";
import {
  checkPublicAddress,
  describeTokenRefusal,
  readManifestRequestUrls,
} from "../../adapters/slack/slack-startup-checks.js";
import { ConfigError } from "../../src/config/config.js";

function platformError(error: string) {
  return Object.assign(new Error(`An API error occurred: ${error}`), { data: { ok: false, error } });
}

const check = (publicUrl: string, socketMode = false, manifestRequestUrls: string[] | null = null) =>
  checkPublicAddress({
    publicUrl,
    socketMode,
    eventsPath: "/slack/events",
    manifestRequestUrls,
    manifestPath: "manifest.yml",
  });

describe("describeTokenRefusal", () => {
  it("turns a refused token into one configuration line naming SLACK_BOT_TOKEN", () => {
    const error = describeTokenRefusal(platformError("token_revoked"));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.message).toBe(
      "Invalid configuration — SLACK_BOT_TOKEN: Slack refused it at auth.test (token_revoked: it was revoked) — copy the Bot User OAuth Token (xoxb-…) from the app's OAuth & Permissions page, reinstalling the app if it was removed",
    );
    expect(describeTokenRefusal(platformError("invalid_auth"))?.problems[0]?.variable).toBe("SLACK_BOT_TOKEN");
    expect(describeTokenRefusal(platformError("account_inactive"))).toBeInstanceOf(ConfigError);
  });

  it("leaves failures that are not about the token to the caller", () => {
    expect(describeTokenRefusal(platformError("ratelimited"))).toBeNull();
    expect(describeTokenRefusal(new Error("connect ECONNREFUSED 127.0.0.1:443"))).toBeNull();
  });
});

describe("readManifestRequestUrls", () => {
  it("reads the events, interactivity and slash-command URLs of the shipped manifest", () => {
    expect(readManifestRequestUrls(readFileSync(DEFAULT_MANIFEST_PATH, "utf8"))).toEqual([
      "https://folio.example.com/slack/events",
      "https://folio.example.com/slack/events",
      "https://folio.example.com/slack/events",
    ]);
  });

  it("accepts quoted values and ignores comments", () => {
    expect(
      readManifestRequestUrls('  request_url: "https://a.test/slack/events" # events\n# url: https://no\n'),
    ).toEqual(["https://a.test/slack/events"]);
  });
});

describe("checkPublicAddress", () => {
  it("warns about a localhost address in both modes, and in HTTP mode that Slack cannot call it", () => {
    expect(check("http://localhost:3000", true)).toHaveLength(1);
    const warnings = check("http://127.0.0.1:3000");
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^FOLIO_PUBLIC_URL is http:\/\/127\.0\.0\.1:3000, a local address/);
    expect(warnings[1]).toMatch(/^Slack's request URL can never match FOLIO_PUBLIC_URL=http:\/\/127\.0\.0\.1:3000/);
  });

  it("warns when a public address is plain HTTP in HTTP mode", () => {
    expect(check("http://folio.acme.test")).toEqual([expect.stringMatching(/only calls public HTTPS addresses/)]);
    expect(check("http://folio.acme.test", true)).toEqual([]);
  });

  it("compares the manifest's request URLs with FOLIO_PUBLIC_URL + /slack/events", () => {
    expect(check("https://folio.acme.test/", false, ["https://folio.acme.test/slack/events"])).toEqual([]);
    expect(check("https://folio.acme.test", false, ["https://folio.example.com/slack/events"])).toEqual([
      expect.stringMatching(
        /^manifest\.yml sends Slack to https:\/\/folio\.example\.com\/slack\/events, but Folio receives Slack at https:\/\/folio\.acme\.test\/slack\/events/,
      ),
    ]);
    // Socket Mode ignores request URLs.
    expect(check("https://folio.acme.test", true, ["https://folio.example.com/slack/events"])).toEqual([]);
  });
});
