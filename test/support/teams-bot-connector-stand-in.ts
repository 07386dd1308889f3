/**
 * A local stand-in for everything the Teams adapter talks to, on loopback: the Bot Framework OpenID
 * metadata and signing keys (JWKS with the `msteams` endorsement), the Entra token endpoint (the
 * client-credentials grant), the Bot Connector's conversation API (every call recorded, its bearer
 * token checked, failures injectable), and file downloads (the `downloadUrl` of 1:1 uploads). It also
 * mints RS256 tokens the way the Bot Framework channel signs its requests to a bot, and takes the
 * uploads a file consent card leads to (PUT to the `uploadUrl` Teams hands the bot; bytes and
 * Content-Range recorded).
 */
import { createSign, generateKeyPairSync, type KeyObject } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export const CHANNEL_TOKEN_ISSUER = "https://api.botframework.com";

export type ConnectorCall = {
  method: string;
  conversationId: string;
  /** The activity replied to (POST …/activities/{id}); null for a new message in the conversation. */
  replyToId: string | null;
  activity: Record<string, unknown>;
  /** The id the stand-in gave the activity. */
  id: string;
  authorization: string | null;
  at: number;
  status: number;
};

export type TokenRequest = { tenant: string; form: Record<string, string> };

export type SigningKey = { kid: string; privateKey: KeyObject; publicKey: KeyObject };

export function createSigningKey(kid: string): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { kid, privateKey, publicKey };
}

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString("base64url");
}

/** A compact JWS: RS256-signed with `key`, or unsigned (`alg: none`) when key is null. */
export function mintToken(key: SigningKey | null, claims: Record<string, unknown>, kid?: string): string {
  const header = key ? { alg: "RS256", typ: "JWT", kid: kid ?? key.kid } : { alg: "none", typ: "JWT" };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  if (!key) return `${unsigned}.`;
  const signature = createSign("RSA-SHA256").update(unsigned).sign(key.privateKey);
  return `${unsigned}.${base64url(signature)}`;
}

/** Claims the Bot Framework channel puts in a token for this bot. */
export function channelClaims(options: {
  appId: string;
  serviceUrl: string;
  expiresInSeconds?: number;
}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: CHANNEL_TOKEN_ISSUER,
    aud: options.appId,
    serviceurl: options.serviceUrl,
    nbf: now - 60,
    iat: now - 60,
    exp: now + (options.expiresInSeconds ?? 3600),
  };
}

async function readRequestBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

export type BotConnectorStandIn = {
  url: string;
  /** The activities' serviceUrl (ends with a slash, as Teams sends it). */
  serviceUrl: string;
  openIdMetadataUrl: string;
  signingKey: SigningKey;
  calls: ConnectorCall[];
  tokenRequests: TokenRequest[];
  downloads: string[];
  uploads: Array<{ name: string; bytes: Uint8Array; contentRange: string | null }>;
  /** An upload address, as Teams gives one in a file consent invoke's `uploadInfo`. */
  uploadUrl(name: string): string;
  /** Serves bytes at a download URL (no credentials needed, like Teams' pre-authorised links). */
  addFile(name: string, bytes: Uint8Array): string;
  /** The next `count` connector calls answer `status` (with Retry-After seconds when given). */
  failNext(count: number, status: number, retryAfterSeconds?: number): void;
  callsIn(conversationId: string): ConnectorCall[];
  close(): Promise<void>;
};

export async function startBotConnectorStandIn(): Promise<BotConnectorStandIn> {
  const signingKey = createSigningKey("folio-test-key");
  const calls: ConnectorCall[] = [];
  const tokenRequests: TokenRequest[] = [];
  const downloads: string[] = [];
  const uploads: BotConnectorStandIn["uploads"] = [];
  const files = new Map<string, Uint8Array>();
  const issuedTokens = new Set<string>();
  let failures: Array<{ status: number; retryAfterSeconds?: number }> = [];
  let nextId = 1;
  let url = "";

  const server: Server = createServer((request, response) => {
    void (async () => {
      const path = (request.url ?? "/").split("?")[0] ?? "/";
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
        response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));

      if (request.method === "GET" && path === "/openid") {
        return json(200, { issuer: CHANNEL_TOKEN_ISSUER, jwks_uri: `${url}/keys` });
      }
      if (request.method === "GET" && path === "/keys") {
        const jwk = signingKey.publicKey.export({ format: "jwk" });
        return json(200, {
          keys: [{ kty: "RSA", use: "sig", kid: signingKey.kid, n: jwk.n, e: jwk.e, endorsements: ["msteams"] }],
        });
      }
      const token = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(path);
      if (request.method === "POST" && token) {
        const form = Object.fromEntries(new URLSearchParams(await readRequestBody(request)));
        tokenRequests.push({ tenant: decodeURIComponent(token[1] ?? ""), form });
        const accessToken = `stand-in-access-token-${tokenRequests.length}`;
        issuedTokens.add(accessToken);
        return json(200, { token_type: "Bearer", expires_in: 3600, access_token: accessToken });
      }
      const file = /^\/files\/(.+)$/.exec(path);
      if (request.method === "GET" && file) {
        const name = decodeURIComponent(file[1] ?? "");
        const bytes = files.get(name);
        downloads.push(name);
        if (!bytes) return json(404, { error: "not found" });
        return response
          .writeHead(200, { "content-type": "application/octet-stream", "content-length": String(bytes.byteLength) })
          .end(Buffer.from(bytes));
      }
      const upload = /^\/upload\/(.+)$/.exec(path);
      if (request.method === "PUT" && upload) {
        const parts: Buffer[] = [];
        for await (const part of request) parts.push(part as Buffer);
        const contentRange = request.headers["content-range"];
        uploads.push({
          name: decodeURIComponent(upload[1] ?? ""),
          bytes: new Uint8Array(Buffer.concat(parts)),
          contentRange: typeof contentRange === "string" ? contentRange : null,
        });
        return json(201, { id: `drive-item-${uploads.length}` });
      }
      const conversation = /^\/v3\/conversations\/([^/]+)\/activities(?:\/([^/]+))?$/.exec(path);
      if (conversation && (request.method === "POST" || request.method === "PUT")) {
        const activity = JSON.parse(await readRequestBody(request)) as Record<string, unknown>;
        const authorization = request.headers.authorization ?? null;
        const failure = failures.shift();
        const authorized = authorization !== null && issuedTokens.has(authorization.replace(/^Bearer /, ""));
        const status = !authorized ? 401 : (failure?.status ?? 200);
        const id = status === 200 ? `m${nextId++}` : "";
        calls.push({
          method: request.method,
          conversationId: decodeURIComponent(conversation[1] ?? ""),
          replyToId: conversation[2] ? decodeURIComponent(conversation[2]) : null,
          activity,
          id,
          authorization,
          at: Date.now(),
          status,
        });
        if (status !== 200) {
          const headers: Record<string, string> =
            failure?.retryAfterSeconds !== undefined ? { "retry-after": String(failure.retryAfterSeconds) } : {};
          return json(status, { error: { code: "Throttled", message: `stand-in answered ${status}` } }, headers);
        }
        return json(200, { id });
      }
      json(404, { error: `no route for ${request.method} ${path}` });
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    serviceUrl: `${url}/`,
    openIdMetadataUrl: `${url}/openid`,
    signingKey,
    calls,
    tokenRequests,
    downloads,
    uploads,
    uploadUrl: (name) => `${url}/upload/${encodeURIComponent(name)}`,
    addFile(name, bytes) {
      files.set(name, bytes);
      return `${url}/files/${encodeURIComponent(name)}`;
    },
    failNext(count, status, retryAfterSeconds) {
      failures = [...failures, ...Array.from({ length: count }, () => ({ status, retryAfterSeconds }))];
    },
    callsIn: (conversationId) => calls.filter((call) => call.conversationId === conversationId && call.status === 200),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
