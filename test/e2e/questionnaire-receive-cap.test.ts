/**
 * Questionnaire and approved-answer files received at once are capped (FOLIO_QUESTIONNAIRE_MAX_RECEIVING,
 * issue #30): with a cap of one, a questionnaire whose body is still arriving holds the place, so an
 * approved-answers upload meanwhile is told 429 `questionnaire_busy` with Retry-After; once the first body
 * is in and read, the next questionnaire is taken.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/start-test-server.js";
import { waitFor } from "../support/wait-for.js";

describe("questionnaire receive cap", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      environment: { FOLIO_EMBED_MODEL: "none", FOLIO_QUESTIONNAIRE_MAX_RECEIVING: "1" },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it("refuses a second file while the first is still arriving, and takes the next once it is read", async () => {
    const body = Buffer.from("Question\nIs data encrypted at rest?\n");
    const { hostname, port } = new URL(server.url);
    const slow = request({
      hostname,
      port,
      method: "POST",
      path: "/api/questionnaires?file=slow.csv",
      headers: { "X-Folio-Console": "1", "Content-Type": "text/csv", "Content-Length": body.byteLength },
    });
    const slowAnswer = new Promise<number>((resolve, reject) => {
      slow.on("response", (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      slow.on("error", reject);
    });
    slow.write(body.subarray(0, 10));

    const refusal = await waitFor(
      async () => {
        const form = new FormData();
        form.append("file", new Blob(["not a table"]), "answers.txt");
        const response = await fetch(`${server.url}/api/answers`, {
          method: "POST",
          body: form,
          headers: { "X-Folio-Console": "1" },
        });
        const answer = (await response.json()) as { error?: { code: string; message: string } };
        return response.status === 429
          ? { retryAfter: response.headers.get("retry-after"), error: answer.error }
          : null;
      },
      30_000,
      "a busy refusal",
    );
    expect(refusal).toEqual({
      retryAfter: "5",
      error: {
        code: "questionnaire_busy",
        message: "Folio is receiving 1 questionnaire file already — try again in a few seconds.",
      },
    });

    slow.end(body.subarray(10));
    expect(await slowAnswer).toBe(202);
    const next = await fetch(`${server.url}/api/questionnaires?file=next.csv`, {
      method: "POST",
      headers: { "X-Folio-Console": "1", "Content-Type": "text/csv" },
      body: "Question\nAre backups tested?\n",
    });
    expect(next.status).toBe(202);
  }, 120_000);
});
