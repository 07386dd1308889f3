/**
 * The few response shapes every Folio endpoint uses: JSON bodies and the one error body
 * `{error:{code,message}}` — never a stack trace.
 */
import type { ServerResponse } from "node:http";

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
  });
  response.end(text);
}

export function sendJsonError(response: ServerResponse, status: number, code: string, message: string): void {
  sendJson(response, status, { error: { code, message } });
}
