/**
 * Who may use the web console. The console has no login: it is a tool for the machine Folio runs on,
 * while the same port may face the network for Slack's events and the signed source viewer. So by
 * default (FOLIO_CONSOLE=local) it answers only requests from a loopback address whose Host is a
 * loopback name, `open` serves it to whoever reaches the port, `off` hides it. A request that came
 * through a proxy is never local.
 *
 * DNS rebinding: a web page the operator visits can point its own name at 127.0.0.1 (or at Folio's LAN
 * address) and then call the console as its own origin, custom headers included. Its requests still
 * carry its own name in Host, so in `open` mode too the Host must be a loopback name, an IP address
 * (a rebinding page cannot make the browser send one), FOLIO_PUBLIC_URL's host or a name listed in
 * FOLIO_CONSOLE_ALLOWED_HOSTS. Every state-changing call must carry CONSOLE_REQUEST_HEADER (a cross-site
 * page cannot send it without a CORS preflight that Folio never grants), and a browser's Origin, when
 * sent, must be the host the request was made to.
 */
import type { ConsoleAccess } from "../config/config.js";

export const CONSOLE_REQUEST_HEADER = "x-folio-console";

export type ConsoleRequest = {
  method: string;
  remoteAddress: string | undefined;
  /** The Host header as sent, port included. */
  host: string | undefined;
  hasConsoleHeader: boolean;
  /** Whether the request carries Forwarded / X-Forwarded-* / X-Real-IP: it came through a proxy. */
  viaProxy: boolean;
  /** The Origin header, when the client (a browser) sent one. */
  origin?: string | undefined;
};

/** Host names the console answers to in `open` mode, besides loopback names and IP addresses. */
export type ConsoleHosts = {
  /** FOLIO_PUBLIC_URL's host name. */
  publicHost: string;
  /** FOLIO_CONSOLE_ALLOWED_HOSTS. */
  allowedHosts: readonly string[];
};

export type ConsoleRefusal = { status: number; code: string; message: string };

const LOOPBACK_HOST_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const ipv4 = address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
  return ipv4.startsWith("127.") || address === "::1";
}

function hostName(host: string | undefined): string {
  if (!host) return "";
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
  return (name ?? "").toLowerCase().replace(/\.$/, "");
}

function isLoopbackName(name: string): boolean {
  return LOOPBACK_HOST_NAMES.has(name) || name.endsWith(".localhost");
}

/** An IPv4 literal or a bracketed IPv6 literal: names no DNS answer can rebind. */
function isAddressLiteral(name: string): boolean {
  return /^\d{1,3}(?:\.\d{1,3}){3}$/.test(name) || /^\[[0-9a-f:.]+\]$/.test(name);
}

function isAllowedOpenHost(name: string, hosts: ConsoleHosts): boolean {
  return (
    isLoopbackName(name) || isAddressLiteral(name) || name === hosts.publicHost || hosts.allowedHosts.includes(name)
  );
}

/** The host of an Origin header (`scheme://host[:port]`), port included, or null when unreadable. */
function originHost(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.host.toLowerCase();
  } catch {
    return null;
  }
}

/** Whether a browser's Origin header names another site than the request's Host (none sent: not foreign). */
export function isForeignOrigin(origin: string | undefined, host: string | undefined): boolean {
  return origin !== undefined && originHost(origin) !== (host ?? "").toLowerCase();
}

/** Why this request may not use the console, or null when it may. */
export function consoleRefusal(
  access: ConsoleAccess,
  request: ConsoleRequest,
  hosts: ConsoleHosts = { publicHost: "localhost", allowedHosts: [] },
): ConsoleRefusal | null {
  if (access === "off") {
    return { status: 404, code: "console_off", message: "The web console is turned off (FOLIO_CONSOLE=off)." };
  }
  if (access === "local") {
    const name = hostName(request.host);
    // A reverse proxy on this machine connects from loopback (often rewriting Host to 127.0.0.1) on
    // behalf of someone else: proxied requests are never "this machine".
    const local = !request.viaProxy && isLoopbackAddress(request.remoteAddress) && isLoopbackName(name);
    if (!local) {
      return {
        status: 403,
        code: "console_local_only",
        message:
          "The web console only answers on the machine Folio runs on (open http://localhost:PORT there). To serve it to your network — it has no login — set FOLIO_CONSOLE=open.",
      };
    }
  }
  if (access === "open" && !isAllowedOpenHost(hostName(request.host), hosts)) {
    return {
      status: 403,
      code: "console_host_not_allowed",
      message:
        "The web console does not answer to this host name (a page that points its own name at Folio cannot use it) — open it by FOLIO_PUBLIC_URL, an IP address or localhost, or add the name to FOLIO_CONSOLE_ALLOWED_HOSTS.",
    };
  }
  const changesState = request.method !== "GET" && request.method !== "HEAD";
  if (changesState && !request.hasConsoleHeader) {
    return {
      status: 403,
      code: "console_header_missing",
      message: `Console API calls must send the ${CONSOLE_REQUEST_HEADER} header (the console page does).`,
    };
  }
  // Browsers send Origin on every POST and DELETE; tools (curl, the CLI) send none and are not pages.
  if (changesState && isForeignOrigin(request.origin, request.host)) {
    return {
      status: 403,
      code: "console_origin_mismatch",
      message:
        "Console API calls are accepted only from the console's own page (the request's Origin is another site).",
    };
  }
  return null;
}

const PROXY_HEADERS = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip"];

export function cameThroughProxy(headers: Record<string, string | string[] | undefined>): boolean {
  return PROXY_HEADERS.some((name) => headers[name] !== undefined);
}
