/**
 * Talks to a running Folio the way the web console does (the console header on each request):
 * uploads a file through POST /api/upload and asks through POST /api/ask.
 */
import { expect } from "vitest";
import type { AnswerEvent } from "../../src/answer/answer-events.js";

export const CONSOLE_HEADERS = { "X-Folio-Console": "1" };

/** Asks `question` and reads the Server-Sent Events answer to its end: its events in order; fails the test unless the request is accepted (200). */
export async function askConsole(url: string, question: string): Promise<AnswerEvent[]> {
  const response = await fetch(`${url}/api/ask`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...CONSOLE_HEADERS },
    body: JSON.stringify({ question }),
  });
  expect(response.status).toBe(200);
  return (await response.text())
    .split("\n\n")
    .map((block) => block.split("\n").find((line) => line.startsWith("data: ")))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice("data: ".length)) as AnswerEvent);
}

/**
 * Uploads `content` as `fileName`; the response's body is the upload's NDJSON progress and result, which
 * comes once the document is searchable by meaning (not only by keywords, as the console's own uploads).
 */
export function uploadToConsole(url: string, fileName: string, content: string | Uint8Array): Promise<Response> {
  const form = new FormData();
  form.append("file", new Blob([content]), fileName);
  // `meaning=wait`: answered once the passages are embedded too, so a test's next step finds them by
  // meaning and no background embedding is still writing when it breaks a store.
  return fetch(`${url}/api/upload?meaning=wait`, { method: "POST", body: form, headers: CONSOLE_HEADERS });
}
