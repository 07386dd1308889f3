/**
 * Approved answers over real HTTP on a real Folio (embedded PGlite, bge-small-en-v1.5): the console's
 * /api/answers (add a completed questionnaire as multipart, list, remove), a console question that
 * leads with the matching approved answer, and the local API `folio answers` uses while `folio serve`
 * holds the store (src/cli/remote-command-backend.ts against src/http/local-cli-api.ts).
 */
import { existsSync } from "node:fs";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import type { AddQuestionnaireResult } from "../../src/answer-library/approved-answer-library.js";
import type { ApprovedAnswerJson } from "../../src/answer-library/approved-answers.js";
import { createRemoteCommandBackend } from "../../src/cli/remote-command-backend.js";
import { locateConsoleAssets } from "../../src/http/console-assets.js";
import { createHttpServer, type HttpServer } from "../../src/http/http-server.js";
import { silentLogger } from "../../src/logger.js";
import { askConsole, CONSOLE_HEADERS, uploadToConsole } from "../support/console-client.js";
import { freePort } from "../support/free-port.js";
import { sharedModel } from "../support/shared-paths.js";
import { startTestServer, type TestServer } from "../support/start-test-server.js";

const modelPresent = existsSync(sharedModel("bge-small-en-v1.5", "config.json"));

async function securityReview(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Security");
  sheet.addRow(["Question", "Answer"]);
  sheet.addRow(["Do you encrypt customer data at rest?", "Yes, AES-256 on every volume."]);
  sheet.addRow(["Do you encrypt customer data in transit?", "Yes, TLS 1.2 or later."]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

function postQuestionnaire(url: string, fileName: string, bytes: Uint8Array, query = ""): Promise<Response> {
  const form = new FormData();
  form.append("file", new Blob([bytes]), fileName);
  return fetch(`${url}/api/answers${query}`, { method: "POST", body: form, headers: CONSOLE_HEADERS });
}

describe.skipIf(!modelPresent)("approved answers over HTTP on a real Folio (needs ../shared/models)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    return () => server.close();
  }, 180_000);

  it("adds, lists and removes through the console, and a console answer leads with the approved one", async () => {
    const added = await postQuestionnaire(server.url, "security-review.xlsx", await securityReview());
    expect(added.status).toBe(200);
    expect((await added.json()) as AddQuestionnaireResult).toEqual({
      file: "security-review.xlsx",
      spaceId: "console:default",
      added: 2,
      replaced: 0,
      questionColumn: "Question",
      answerColumn: "Answer",
      sheets: ["Security"],
      skippedRows: 0,
    });

    const refused = await postQuestionnaire(server.url, "notes.txt", new TextEncoder().encode("Just notes.\n"));
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ error: { code: "not_a_questionnaire" } });
    const withoutHeader = await fetch(`${server.url}/api/answers`);
    expect(withoutHeader.status).toBe(200);

    const listed = (await (await fetch(`${server.url}/api/answers`, { headers: CONSOLE_HEADERS })).json()) as {
      approvedAnswers: ApprovedAnswerJson[];
    };
    expect(listed.approvedAnswers.map((record) => [record.question, record.sheet, record.row, record.addedBy])).toEqual(
      [
        ["Do you encrypt customer data at rest?", "Security", 2, "console"],
        ["Do you encrypt customer data in transit?", "Security", 3, "console"],
      ],
    );

    const upload = await uploadToConsole(
      server.url,
      "policy.md",
      "# Security policy\n\nCustomer data at rest is encrypted with AES-256 on every storage volume.\n",
    );
    await upload.text();
    const events = await askConsole(server.url, "Is customer data encrypted at rest?");
    const done = events.find((event) => event.type === "done");
    if (done?.type !== "done") throw new Error(`no answer: ${JSON.stringify(events.at(-1))}`);
    expect(done.answer.approvedAnswer).toMatchObject({
      answer: "Yes, AES-256 on every volume.",
      origin: { file: "security-review.xlsx", sheet: "Security", row: 2, addedBy: "console" },
      spaceId: "console:default",
    });
    expect(
      done.answer.answer.startsWith(
        "Approved answer: Yes, AES-256 on every volume.\n(from security-review.xlsx, sheet Security, row 2; added by console on ",
      ),
    ).toBe(true);
    expect(done.answer.citations.map((citation) => citation.file)).toContain("policy.md");
    expect(events[0]).toMatchObject({ type: "delta", text: expect.stringMatching(/^Approved answer: /) });

    const id = listed.approvedAnswers[0]?.id ?? "";
    const removed = await fetch(`${server.url}/api/answers/${id}`, { method: "DELETE", headers: CONSOLE_HEADERS });
    expect(await removed.json()).toEqual({ removed: id });
    const again = await fetch(`${server.url}/api/answers/${id}`, { method: "DELETE", headers: CONSOLE_HEADERS });
    expect(again.status).toBe(404);
    const after = await askConsole(server.url, "Is customer data encrypted at rest?");
    const afterDone = after.find((event) => event.type === "done");
    if (afterDone?.type !== "done") throw new Error(`no answer: ${JSON.stringify(after.at(-1))}`);
    expect(afterDone.answer.approvedAnswer).toBeUndefined();
    expect(afterDone.answer.answer).not.toContain("Approved answer");
  }, 300_000);

  it("serves folio answers through the local API of a running server", async () => {
    const port = await freePort();
    const local: HttpServer = createHttpServer({
      folio: server.folio,
      logger: silentLogger,
      consoleAssetsDir: locateConsoleAssets(),
      localApiToken: "local-token",
    });
    await local.listen(port, "127.0.0.1");
    try {
      const backend = createRemoteCommandBackend({
        url: `http://127.0.0.1:${port}`,
        pid: process.pid,
        token: "local-token",
      });
      const answers = backend.approvedAnswers;
      if (!answers) throw new Error("the remote backend has no approved answers");
      const result = await answers.addQuestionnaire({
        spaceId: "slack:T1:C1",
        fileName: "dd.csv",
        bytes: new TextEncoder().encode("Item,Reply\nDo you have a DPO?,Yes.\n"),
        addedBy: "cli:test",
        columns: { questionColumn: "Item", answerColumn: "Reply" },
      });
      expect(result).toMatchObject({ added: 1, questionColumn: "Item", answerColumn: "Reply" });
      const listed = await answers.list("slack:T1:C1");
      expect(listed.map((record) => [record.question, record.answer, record.addedBy, record.row])).toEqual([
        ["Do you have a DPO?", "Yes.", "cli:test", 2],
      ]);
      expect(listed[0]?.addedAt).toBeInstanceOf(Date);
      await expect(
        answers.addQuestionnaire({
          spaceId: "slack:T1:C1",
          fileName: "dd.csv",
          bytes: new TextEncoder().encode("A,B\n1,2\n"),
          addedBy: null,
        }),
      ).rejects.toMatchObject({ code: "answer_columns_not_found" });
      expect(await answers.remove("slack:T1:C1", listed[0]?.id ?? "")).toBe(true);
      expect(await answers.remove("slack:T1:C1", listed[0]?.id ?? "")).toBe(false);
    } finally {
      await local.close();
    }
  }, 120_000);
});
