/**
 * A local stand-in for Slack's Socket Mode endpoint (a `ws` WebSocket server on 127.0.0.1) for the
 * Slack e2e tests: it greets each connection with `hello`, as Slack does, sends envelopes (Events API,
 * slash commands, interactivity) and resolves with the app's acknowledgement of each one.
 */
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";

export type SocketModeAck = {
  envelope_id: string;
  payload?: Record<string, unknown>;
  /** When the ack arrived, and how long after its envelope was sent. */
  at: number;
  latencyMs: number;
};

export type FakeSocketMode = {
  /** The ws:// URL apps.connections.open should return. */
  url: string;
  /** Every connection the app opened (a reconnect is a second one). */
  connections: number;
  /** Resolves once the app is connected (it has been sent `hello`). */
  connected(): Promise<void>;
  /** Sends one envelope and resolves with the app's ack (rejects after `timeoutMs`). */
  send(
    type: "events_api" | "slash_commands" | "interactive",
    payload: unknown,
    timeoutMs?: number,
  ): Promise<SocketModeAck>;
  close(): Promise<void>;
};

export async function startFakeSocketMode(): Promise<FakeSocketMode> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  let socket: WebSocket | null = null;
  let connections = 0;
  const waitingForConnection: Array<() => void> = [];
  const pendingAcks = new Map<string, { sentAt: number; resolve: (ack: SocketModeAck) => void }>();

  server.on("connection", (connection) => {
    connections += 1;
    socket = connection;
    connection.on("message", (data) => {
      const message = JSON.parse(String(data)) as { envelope_id?: string; payload?: Record<string, unknown> };
      const pending = message.envelope_id ? pendingAcks.get(message.envelope_id) : undefined;
      if (!pending || !message.envelope_id) return;
      pendingAcks.delete(message.envelope_id);
      const at = Date.now();
      pending.resolve({
        envelope_id: message.envelope_id,
        ...(message.payload ? { payload: message.payload } : {}),
        at,
        latencyMs: at - pending.sentAt,
      });
    });
    connection.send(
      JSON.stringify({
        type: "hello",
        num_connections: 1,
        debug_info: { host: "fake-socket-mode", approximate_connection_time: 18060 },
        connection_info: { app_id: "A0FOLIO" },
      }),
    );
    for (const resolve of waitingForConnection.splice(0)) resolve();
  });

  return {
    url: `ws://127.0.0.1:${port}/link/?ticket=fake-ticket&app_id=A0FOLIO`,
    get connections() {
      return connections;
    },
    connected() {
      if (socket) return Promise.resolve();
      return new Promise((resolve) => waitingForConnection.push(resolve));
    },
    send(type, payload, timeoutMs = 3_000) {
      const current = socket;
      if (!current) return Promise.reject(new Error("no Socket Mode connection"));
      const envelopeId = randomUUID();
      return new Promise<SocketModeAck>((resolve, reject) => {
        const timer = setTimeout(() => {
          pendingAcks.delete(envelopeId);
          reject(new Error(`no ack for ${type} envelope within ${timeoutMs} ms`));
        }, timeoutMs);
        pendingAcks.set(envelopeId, {
          sentAt: Date.now(),
          resolve: (ack) => {
            clearTimeout(timer);
            resolve(ack);
          },
        });
        current.send(
          JSON.stringify({
            envelope_id: envelopeId,
            type,
            payload,
            accepts_response_payload: type !== "events_api",
            ...(type === "events_api" ? { retry_attempt: 0, retry_reason: "" } : {}),
          }),
        );
      });
    },
    async close() {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
