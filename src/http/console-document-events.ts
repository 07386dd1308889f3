/**
 * GET /api/documents/events: the console's live document list. Each open tab holds one server-sent
 * event stream and hears, for the console's space, a document appear (searchable by keywords), its
 * passages being embedded (`meaning_progress`), become searchable by meaning, and disappear — whichever
 * tab, chat upload or CLI caused it. Streams are long-lived, so they are not counted as work in
 * progress (shutdown does not wait for them) and are ended when the server closes.
 */
import type { ServerResponse } from "node:http";
import type { DocumentEvent, DocumentEvents } from "../ingest/document-events.js";

/** A comment line now and then keeps proxies and idle timeouts from closing a quiet stream. */
const KEEP_ALIVE_MS = 25_000;
/** Progress of one document is sent at most this often; the last figure always follows. */
const PROGRESS_INTERVAL_MS = 500;

export type ConsoleDocumentStreams = {
  open(response: ServerResponse): void;
  /** Ends every open stream (the server is closing). */
  closeAll(): void;
  readonly openCount: number;
};

export function createConsoleDocumentStreams(options: {
  events: DocumentEvents;
  spaceId: string;
}): ConsoleDocumentStreams {
  const open = new Set<ServerResponse>();

  return {
    open(response) {
      response.writeHead(200, {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Accel-Buffering": "no",
      });
      // Tells the tab the stream is live (it refreshes its list then, catching anything missed meanwhile).
      response.write("event: ready\ndata: {}\n\n");
      const send = (event: DocumentEvent) => {
        if (!response.writableEnded) response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      };
      const lastProgressAt = new Map<string, number>();
      const unsubscribe = options.events.subscribe((event) => {
        if (event.spaceId !== options.spaceId) return;
        if (event.type === "meaning_progress" && event.done < event.total) {
          const now = Date.now();
          if (now - (lastProgressAt.get(event.documentId) ?? 0) < PROGRESS_INTERVAL_MS) return;
          lastProgressAt.set(event.documentId, now);
        }
        if (event.type !== "meaning_progress") lastProgressAt.delete(event.documentId);
        send(event);
      });
      const keepAlive = setInterval(() => {
        if (!response.writableEnded) response.write(": keep-alive\n\n");
      }, KEEP_ALIVE_MS);
      keepAlive.unref();
      open.add(response);
      response.once("close", () => {
        clearInterval(keepAlive);
        unsubscribe();
        open.delete(response);
      });
    },
    closeAll() {
      for (const response of open) response.end();
    },
    get openCount() {
      return open.size;
    },
  };
}
