/**
 * Who may use the web console. The console has no login: it is a tool for the machine Folio runs on,
 * while the same port may face the network for Slack's events and the signed source viewer. So by
 * default (FOLIO_CONSOLE=local) it answers only requests from a loopback address whose Host is a
 * loopback name (a DNS-rebinding page cannot pass), `open` serves it to whoever reaches the port, `off`
 * hides it. A request that came through a proxy is never local. Every state-changing API call must carry CONSOLE_REQUEST_HEADER, which a cross-site page
 * cannot send without a CORS preflight that Folio never grants.
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
  return (name ?? "").toLowerCase();
}

/** Why this request may not use the console, or null when it may. */
export function consoleRefusal(access: ConsoleAccess, request: ConsoleRequest): ConsoleRefusal | null {
  if (access === "off") {
    return { status: 404, code: "console_off", message: "The web console is turned off (FOLIO_CONSOLE=off)." };
  }
  if (access === "local") {
    const name = hostName(request.host);
    // A reverse proxy on this machine connects from loopback (often rewriting Host to 127.0.0.1) on
    // behalf of someone else: proxied requests are never "this machine".
    const local =
      !request.viaProxy &&
      isLoopbackAddress(request.remoteAddress) &&
      (LOOPBACK_HOST_NAMES.has(name) || name.endsWith(".localhost"));
    if (!local) {
      return {
        status: 403,
        code: "console_local_only",
        message:
          "The web console only answers on the machine Folio runs on (open http://localhost:PORT there). To serve it to your network — it has no login — set FOLIO_CONSOLE=open.",
      };
    }
  }
  if (request.method !== "GET" && request.method !== "HEAD" && !request.hasConsoleHeader) {
    return {
      status: 403,
      code: "console_header_missing",
      message: `Console API calls must send the ${CONSOLE_REQUEST_HEADER} header (the console page does).`,
    };
  }
  return null;
}

const PROXY_HEADERS = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip"];

export function cameThroughProxy(headers: Record<string, string | string[] | undefined>): boolean {
  return PROXY_HEADERS.some((name) => headers[name] !== undefined);
}
