/**
 * A Teams token Folio cannot check because Microsoft's signing keys cannot be fetched (issue #22) is
 * refused as 401 with a message of Folio's own, never 500 with the upstream error's text. The key
 * endpoints are a loopback server that fails with a body that must not leak.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTeamsAuthentication } from "../../adapters/teams/teams-authentication.js";
import { channelClaims, createSigningKey, mintToken } from "../support/teams-bot-connector-stand-in.js";

const APP_ID = "00000000-0000-0000-0000-0000000000aa";
const UPSTREAM_TEXT = "upstream: internal proxy 10.0.0.7 refused";

describe("Teams token check when Microsoft's keys cannot be fetched", () => {
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(502, { "Content-Type": "text/plain" });
      response.end(UPSTREAM_TEXT);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("refuses the token as 401 without the upstream text", async () => {
    const authentication = createTeamsAuthentication(
      { appId: APP_ID, appPassword: "secret", tenantId: null, appType: "multi-tenant" },
      {
        openIdMetadataUrl: `${baseUrl}/v1/.well-known/openidconfiguration`,
        emulatorOpenIdMetadataUrl: `${baseUrl}/emulator/.well-known/openidconfiguration`,
        loginBaseUrl: baseUrl,
      },
    );
    const serviceUrl = "https://smba.trafficmanager.net/teams/";
    const token = mintToken(createSigningKey("k1"), channelClaims({ appId: APP_ID, serviceUrl }));
    let caught: unknown;
    try {
      await authentication.authenticateRequest(
        { type: "message", serviceUrl, channelId: "msteams" } as never,
        `Bearer ${token}`,
      );
    } catch (error) {
      caught = error;
    }
    const refused = caught as { name: string; statusCode: number; message: string; reason: string };
    expect({ statusCode: refused.statusCode, message: refused.message, reason: refused.reason }).toEqual({
      statusCode: 401,
      message: "Unauthorized: the token could not be checked.",
      reason: "keys_unavailable",
    });
    expect(refused.message).not.toContain("upstream");
  });
});
