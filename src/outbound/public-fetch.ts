/**
 * Outbound HTTP for URLs Folio did not choose itself (a Teams attachment's `downloadUrl`, a model hub's
 * redirects): only to allowed hosts, never to private, loopback, link-local or other internal addresses,
 * and never redirected to one. The address is checked in the connection's own DNS lookup, so a name
 * that resolves to a public address when checked and to 127.0.0.1 when connecting (DNS rebinding)
 * cannot slip through; an IP literal is checked before connecting. Redirects are followed here, hop by
 * hop, each under the same checks. Answers a WHATWG Response so callers read it like fetch's.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { Readable } from "node:stream";
import { FolioError } from "../errors.js";

export type OutboundPolicy = {
  /** Host names a request may go to: exact (`api.example.com`) or a suffix (`*.sharepoint.com`); null: any. */
  allowedHosts: readonly string[] | null;
  /** Whether internal addresses are allowed (a model mirror on the LAN the operator configured; tests). */
  allowPrivateAddresses: boolean;
  /** Schemes allowed; https only unless given. */
  protocols?: readonly ("https:" | "http:")[];
};

export type PublicFetchInit = {
  method?: "GET" | "HEAD" | "PUT";
  headers?: Record<string, string>;
  /** A PUT's body (a Teams filled copy to its consented upload URL). A request with a body is never redirected. */
  body?: Uint8Array;
  signal?: AbortSignal;
  /** `follow` (default, at most `maxRedirects`) or `manual` (a 3xx is returned, for callers that follow themselves). */
  redirect?: "follow" | "manual";
  maxRedirects?: number;
  /** Tests: the DNS lookup and what counts as internal. */
  lookup?: typeof dnsLookup;
  isInternalAddress?: (address: string) => boolean;
};

/** Addresses that reach this machine or its networks rather than the internet. */
const internalRanges = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  internalRanges.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
] as const) {
  internalRanges.addSubnet(network, prefix, "ipv6");
}

/** Whether an address is private, loopback, link-local, shared, multicast or unspecified (IPv4-mapped too). */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return internalRanges.check(mapped, "ipv4");
  const family = isIP(address);
  if (family === 0) return true;
  return internalRanges.check(address, family === 4 ? "ipv4" : "ipv6");
}

export function hostAllowed(hostname: string, allowedHosts: readonly string[] | null): boolean {
  if (allowedHosts === null) return true;
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return allowedHosts.some((allowed) =>
    allowed.startsWith("*.") ? name.endsWith(allowed.slice(1)) && name.length > allowed.length - 1 : name === allowed,
  );
}

function blockedAddress(hostname: string): FolioError {
  return new FolioError(
    "outbound_address_blocked",
    "Folio does not fetch from internal network addresses (private, loopback or link-local) — the file or model must come from a public address.",
    { details: { host: hostname } },
  );
}

function refusedHost(hostname: string): FolioError {
  return new FolioError(
    "outbound_host_not_allowed",
    "Folio does not fetch from this host — only from the services it is set up to use.",
    { details: { host: hostname } },
  );
}

/** A DNS lookup that fails when any address of the name is internal (all are checked, not just the first). */
function guardedLookup(lookup: typeof dnsLookup, isInternal: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 4);
      if (addresses.length === 0 || addresses.some((entry) => isInternal(entry.address))) {
        return callback(blockedAddress(hostname) as unknown as NodeJS.ErrnoException, "", 4);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

function toResponse(incoming: IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const status = incoming.statusCode ?? 502;
  const hasBody = ![204, 205, 304].includes(status);
  if (!hasBody) incoming.resume();
  return new Response(hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : null, { status, headers });
}

/** One request, no redirects followed. */
function requestOnce(url: URL, policy: OutboundPolicy, init: PublicFetchInit): Promise<Response> {
  const protocols = policy.protocols ?? ["https:"];
  if (!(protocols as readonly string[]).includes(url.protocol)) return Promise.reject(refusedHost(url.hostname));
  if (!hostAllowed(url.hostname, policy.allowedHosts)) return Promise.reject(refusedHost(url.hostname));
  const isInternal = init.isInternalAddress ?? isInternalAddress;
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  if (!policy.allowPrivateAddresses && isIP(literal) !== 0 && isInternal(literal)) {
    return Promise.reject(blockedAddress(url.hostname));
  }
  const lookup = init.lookup ?? dnsLookup;
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: init.method ?? "GET",
        headers: init.headers,
        signal: init.signal,
        ...(policy.allowPrivateAddresses ? { lookup } : { lookup: guardedLookup(lookup, isInternal) }),
      },
      (incoming) => resolve(toResponse(incoming)),
    );
    // Network failures look as they do from fetch ("fetch failed", the cause attached), for callers that explain them.
    outgoing.on("error", (error: Error) =>
      reject(
        error instanceof FolioError || error.name === "AbortError"
          ? error
          : new TypeError("fetch failed", { cause: error }),
      ),
    );
    if (init.body) outgoing.end(init.body);
    else outgoing.end();
  });
}

/** GET, HEAD or PUT `url` under `policy`, following a bodiless request's redirects hop by hop under the same checks. */
export async function fetchPublic(
  url: string | URL,
  policy: OutboundPolicy,
  init: PublicFetchInit = {},
): Promise<Response> {
  let current = new URL(url);
  const origin = current.origin;
  const maxRedirects = init.maxRedirects ?? 5;
  for (let hop = 0; ; hop += 1) {
    // Credentials go to the origin they were meant for only, as fetch does on a cross-origin redirect.
    const headers =
      current.origin === origin
        ? init.headers
        : Object.fromEntries(
            Object.entries(init.headers ?? {}).filter(
              ([name]) => !["authorization", "cookie"].includes(name.toLowerCase()),
            ),
          );
    const response = await requestOnce(current, policy, { ...init, headers });
    const location = response.headers.get("location");
    // A body is not sent again to wherever a redirect points: the caller gets the 3xx.
    const follows = init.redirect !== "manual" && init.body === undefined;
    if (!follows || response.status < 300 || response.status >= 400 || location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    if (hop >= maxRedirects) {
      throw new FolioError(
        "outbound_too_many_redirects",
        "The download was redirected too many times — try again later.",
      );
    }
    current = new URL(location, current);
  }
}
