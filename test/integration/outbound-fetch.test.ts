/**
 * SSRF (issue #22): a Teams attachment whose downloadUrl points at Folio's own loopback API is refused
 * before any request is made, so are names that resolve to internal addresses and redirects to them;
 * only Microsoft's file hosts over HTTPS are fetched. Real HTTP servers on loopback play the targets.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadTeamsFile, TEAMS_FILE_DOWNLOADS } from "../../adapters/teams/teams-files.js";
import { uploadToConsentedUrl } from "../../adapters/teams/teams-questionnaire.js";
import { isFolioError } from "../../src/errors.js";
import { hubDownloadPolicy } from "../../src/models/download-hub-file.js";
import { fetchPublic, isInternalAddress } from "../../src/outbound/public-fetch.js";

type Target = { server: Server; url: string; hits: string[] };

async function startTarget(
  host: string,
  respond: (path: string) => { status: number; headers?: Record<string, string>; body?: string },
): Promise<Target> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? "");
    const reply = respond(request.url ?? "");
    response.writeHead(reply.status, reply.headers);
    response.end(reply.body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, url: `http://${host}:${(server.address() as AddressInfo).port}`, hits };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "fetched";
  } catch (error) {
    return isFolioError(error) ? error.code : String(error);
  }
}

describe("outbound fetches", () => {
  let api: Target;
  let relay: Target;

  beforeAll(async () => {
    api = await startTarget("127.0.0.1", () => ({ status: 200, body: "signed links of every document" }));
    // Plays a public host that redirects to the internal API.
    relay = await startTarget("127.0.0.2", () => ({ status: 302, headers: { location: `${api.url}/api/documents` } }));
  });

  afterAll(async () => {
    await new Promise((resolve) => api.server.close(resolve));
    await new Promise((resolve) => relay.server.close(resolve));
  });

  it("classifies internal addresses", () => {
    expect(
      [
        "127.0.0.1",
        "10.2.3.4",
        "172.20.0.1",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "::1",
        "fe80::1",
        "fd00::2",
        "::ffff:127.0.0.1",
      ].map(isInternalAddress),
    ).toEqual(Array(11).fill(true));
    expect(["8.8.8.8", "52.96.0.1", "2606:4700::1111", "::ffff:8.8.8.8"].map(isInternalAddress)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it("refuses a Teams attachment whose downloadUrl is Folio's loopback API, before any request", async () => {
    const downloadUrl = `${api.url}/api/documents`;
    expect(await codeOf(downloadTeamsFile({ downloadUrl, maxBytes: 1024 }))).toBe("outbound_host_not_allowed");
    expect(
      await codeOf(downloadTeamsFile({ downloadUrl: downloadUrl.replace("http:", "https:"), maxBytes: 1024 })),
    ).toBe("outbound_host_not_allowed");
    // Even where any host is allowed, an internal address is not: by literal, and by a name that resolves to one.
    const anyHost = { ...TEAMS_FILE_DOWNLOADS, allowedHosts: null, protocols: ["http:", "https:"] as const };
    expect(await codeOf(downloadTeamsFile({ downloadUrl, maxBytes: 1024, policy: anyHost }))).toBe(
      "outbound_address_blocked",
    );
    const byName = downloadUrl.replace("127.0.0.1", "localhost");
    expect(await codeOf(downloadTeamsFile({ downloadUrl: byName, maxBytes: 1024, policy: anyHost }))).toBe(
      "outbound_address_blocked",
    );
    expect(api.hits).toEqual([]);
  });

  it("checks the address a name resolves to when connecting, so a SharePoint-looking name at 127.0.0.1 is refused", async () => {
    const lookup = ((
      _host: string,
      _options: unknown,
      callback: (error: null, addresses: Array<{ address: string; family: number }>) => void,
    ) => callback(null, [{ address: "127.0.0.1", family: 4 }])) as never;
    const port = new URL(api.url).port;
    const policy = { ...TEAMS_FILE_DOWNLOADS, protocols: ["http:"] as const };
    expect(await codeOf(fetchPublic(`http://contoso-my.sharepoint.com:${port}/file`, policy, { lookup }))).toBe(
      "outbound_address_blocked",
    );
    expect(api.hits).toEqual([]);
  });

  it("uploads a Teams filled copy only where a download could go: a SharePoint-looking name at 127.0.0.1 is refused (issue #30)", async () => {
    const lookup = ((
      _host: string,
      _options: unknown,
      callback: (error: null, addresses: Array<{ address: string; family: number }>) => void,
    ) => callback(null, [{ address: "127.0.0.1", family: 4 }])) as never;
    const port = new URL(api.url).port;
    const policy = { ...TEAMS_FILE_DOWNLOADS, protocols: ["http:"] as const };
    const bytes = new TextEncoder().encode("filled copy");
    expect(
      await codeOf(uploadToConsentedUrl(`http://contoso-my.sharepoint.com:${port}/upload`, bytes, policy, { lookup })),
    ).toBe("outbound_address_blocked");
    expect(await codeOf(uploadToConsentedUrl(`${api.url}/upload`, bytes, policy))).toBe("teams_upload_url_rejected");
    expect(api.hits).toEqual([]);
  });

  it("PUTs the filled copy whole where the policy allows, and never follows a redirect with it", async () => {
    const received: Array<{ method: string; url: string; range: string | undefined; body: string }> = [];
    const target = await new Promise<Server>((resolve) => {
      const server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on("data", (chunk: Buffer) => chunks.push(chunk));
        request.on("end", () => {
          received.push({
            method: request.method ?? "",
            url: request.url ?? "",
            range: request.headers["content-range"],
            body: Buffer.concat(chunks).toString("utf8"),
          });
          if (request.url === "/moved") response.writeHead(307, { location: "/upload" });
          else response.writeHead(201);
          response.end();
        });
      });
      server.listen(0, "127.0.0.1", () => resolve(server));
    });
    const base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    try {
      const policy = { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, protocols: ["http:"] as const };
      const bytes = new TextEncoder().encode("filled copy");
      await uploadToConsentedUrl(`${base}/upload`, bytes, policy);
      expect(await codeOf(uploadToConsentedUrl(`${base}/moved`, bytes, policy))).toBe("teams_upload_failed");
      expect(received).toEqual([
        { method: "PUT", url: "/upload", range: "bytes 0-10/11", body: "filled copy" },
        { method: "PUT", url: "/moved", range: "bytes 0-10/11", body: "filled copy" },
      ]);
    } finally {
      await new Promise((resolve) => target.close(resolve));
    }
  });

  it("refuses a redirect from an allowed host to an internal address", async () => {
    // 127.0.0.2 stands for a public host here; 127.0.0.1 stays internal.
    const isInternal = (address: string) => address !== "127.0.0.2";
    const policy = { allowedHosts: null, allowPrivateAddresses: false, protocols: ["http:"] as const };
    expect(await codeOf(fetchPublic(`${relay.url}/file`, policy, { isInternalAddress: isInternal }))).toBe(
      "outbound_address_blocked",
    );
    expect(relay.hits).toEqual(["/file"]);
    expect(api.hits).toEqual([]);
  });

  it("fetches where the policy allows, following redirects", async () => {
    const policy = {
      allowedHosts: ["127.0.0.1", "127.0.0.2"],
      allowPrivateAddresses: true,
      protocols: ["http:"] as const,
    };
    const response = await fetchPublic(`${relay.url}/file`, policy);
    expect({ status: response.status, body: await response.text() }).toEqual({
      status: 200,
      body: "signed links of every document",
    });
  });

  it("downloads models from huggingface.co over HTTPS to public addresses only; a configured mirror may be internal", async () => {
    const huggingFace = hubDownloadPolicy({ endpoint: "https://huggingface.co", token: null });
    expect(huggingFace).toEqual({ allowedHosts: null, allowPrivateAddresses: false, protocols: ["https:"] });
    // Where a hub redirect to the CDN would land on an internal address:
    expect(await codeOf(fetchPublic("https://127.0.0.1:9/model.onnx", huggingFace))).toBe("outbound_address_blocked");
    expect(await codeOf(fetchPublic(`${api.url}/model.onnx`, huggingFace))).toBe("outbound_host_not_allowed");
    expect(hubDownloadPolicy({ endpoint: "http://mirror.lan:8080", token: null })).toEqual({
      allowedHosts: null,
      allowPrivateAddresses: true,
      protocols: ["http:", "https:"],
    });
  });

  it("sends credentials only to the origin they were meant for, not after a redirect to another", async () => {
    const seen: Array<string | undefined> = [];
    const target = await new Promise<Server>((resolve) => {
      const server = createServer((request, response) => {
        seen.push(request.headers.authorization);
        response.end("file");
      });
      server.listen(0, "127.0.0.1", () => resolve(server));
    });
    const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/file`;
    const bouncer = await startTarget("127.0.0.2", () => ({ status: 302, headers: { location: targetUrl } }));
    try {
      const policy = { allowedHosts: null, allowPrivateAddresses: true, protocols: ["http:"] as const };
      const response = await fetchPublic(`${bouncer.url}/file`, policy, {
        headers: { Authorization: "Bearer xoxb-secret" },
      });
      expect(await response.text()).toBe("file");
      expect(seen).toEqual([undefined]);
    } finally {
      await new Promise((resolve) => target.close(resolve));
      await new Promise((resolve) => bouncer.server.close(resolve));
    }
  });
});
