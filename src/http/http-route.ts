/**
 * A route the HTTP server mounts. Adapters that speak HTTP (Slack's Events API, Teams' Bot Connector)
 * hand the server routes like this one, so one process serves the console, the source viewer and
 * the chat endpoints on one port.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export type HttpRoute = {
  method: "GET" | "POST";
  /** Exact path, e.g. "/slack/events". */
  path: string;
  handle(request: IncomingMessage, response: ServerResponse): Promise<void> | void;
};
