/**
 * Where `folio serve` listens (#37): loopback while only the local console is served, every interface
 * once Slack, Teams or an open console needs the network, and HOST over both.
 */
import { describe, expect, it } from "vitest";
import { listenHost } from "../../src/cli/commands/listen-host.js";
import type { FolioConfig } from "../../src/config/config.js";

const consoleOnly: Pick<FolioConfig, "host" | "slack" | "teams" | "consoleAccess"> = {
  host: null,
  slack: null,
  teams: null,
  consoleAccess: "local",
};
const slack = { botToken: "xoxb-1", signingSecret: null, appToken: "xapp-1", apiUrl: null, adminUserIds: [] };
const teams = { appId: "a", appPassword: "p", tenantId: "t", appType: "single-tenant" as const, adminUserIds: [] };

describe("listenHost", () => {
  it("listens on loopback with only the local (or no) console", () => {
    expect(listenHost(consoleOnly)).toBe("127.0.0.1");
    expect(listenHost({ ...consoleOnly, consoleAccess: "off" })).toBe("127.0.0.1");
  });

  it("listens on every interface for Slack (Socket Mode too: people open the citation links), Teams or an open console", () => {
    expect(listenHost({ ...consoleOnly, slack })).toBe("0.0.0.0");
    expect(listenHost({ ...consoleOnly, teams })).toBe("0.0.0.0");
    expect(listenHost({ ...consoleOnly, consoleAccess: "open" })).toBe("0.0.0.0");
  });

  it("takes HOST over both", () => {
    expect(listenHost({ ...consoleOnly, host: "0.0.0.0" })).toBe("0.0.0.0");
    expect(listenHost({ ...consoleOnly, slack, host: "127.0.0.1" })).toBe("127.0.0.1");
    expect(listenHost({ ...consoleOnly, host: "::" })).toBe("::");
  });
});
