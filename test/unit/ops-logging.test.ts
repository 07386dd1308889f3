/**
 * Log lines as an operator reads them: every line written while a request is served names its request
 * id (also from loggers that were never given it), and no token, signing secret, bearer credential,
 * signed-link signature or private file URL reaches the output.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { runInRequestContext } from "../../src/logging/request-context.js";

function capturedLogger() {
  const destination = new PassThrough();
  const lines: string[] = [];
  destination.on("data", (chunk: Buffer) => lines.push(...chunk.toString().split("\n").filter(Boolean)));
  const logger = createLogger({ level: "debug", destination });
  const parsed = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  };
  return { logger, lines, parsed };
}

describe("request ids on log lines", () => {
  it("adds the served request's id to lines of loggers that were not given one", async () => {
    const { logger, parsed } = capturedLogger();
    const storeLogger = logger.child({ component: "catalog" });
    await runInRequestContext({ requestId: "req-1" }, async () => {
      await Promise.resolve();
      storeLogger.info({ rows: 3 }, "query done");
      setImmediate(() => logger.warn({}, "later, same request"));
      await new Promise((resolve) => setImmediate(resolve));
    });
    logger.info({}, "outside any request");
    const records = await parsed();
    expect(records.map((record) => [record.msg, record.requestId])).toEqual([
      ["query done", "req-1"],
      ["later, same request", "req-1"],
      ["outside any request", undefined],
    ]);
    expect(records[0]).toMatchObject({ component: "catalog", rows: 3 });
  });

  it("keeps a line's own request id and names the HTTP request beside it", async () => {
    const { logger, lines, parsed } = capturedLogger();
    runInRequestContext({ requestId: "http-1" }, () => {
      logger.child({ requestId: "answer-7" }).info({}, "slack answer posted");
      logger.child({ requestId: "http-1" }).info({}, "http request");
      logger.info({ requestId: "command-3" }, "slack command failed");
    });
    const records = await parsed();
    expect(records.map((record) => [record.requestId, record.httpRequestId])).toEqual([
      ["answer-7", "http-1"],
      ["http-1", undefined],
      ["command-3", undefined],
    ]);
    // One requestId key per line, never two.
    for (const line of lines) expect(line.match(/"requestId"/g)).toHaveLength(1);
  });
});

describe("secrets in log lines", () => {
  it("censors secret fields wherever they sit", async () => {
    const { logger, parsed } = capturedLogger();
    logger.info(
      {
        token: "xoxb-1-abc",
        slack: { botToken: "xoxb-2-def", signingSecret: "8f7e6d", appToken: "xapp-1-A1" },
        request: { headers: { authorization: "Bearer sk-live-123", "x-slack-signature": "v0=abc", host: "folio" } },
        file: { id: "F1", downloadUrl: "https://files.slack.com/files-pri/T1-F1/download/q3.pdf" },
        llm: { apiKey: "sk-999" },
      },
      "config",
    );
    const [record] = await parsed();
    expect(record).toMatchObject({
      token: "[redacted]",
      slack: { botToken: "[redacted]", signingSecret: "[redacted]", appToken: "[redacted]" },
      request: { headers: { authorization: "[redacted]", "x-slack-signature": "[redacted]", host: "folio" } },
      file: { id: "F1", downloadUrl: "[redacted]" },
      llm: { apiKey: "[redacted]" },
    });
  });

  it("scrubs token-shaped text from messages, error texts and stacks", async () => {
    const { logger, lines } = capturedLogger();
    const error = new Error(
      "fetch https://files.slack.com/files-pri/T1-F9/download/plan.pdf failed with Authorization: Bearer xoxb-77-secret",
    );
    logger.error({ err: error }, "download failed for xapp-1-A0-123");
    logger.info(
      {
        link: "https://folio.example.com/files/doc-1?exp=1900000000&sig=0123abcd#page=3",
        database: "postgres://folio:hunter2@db:5432/folio",
      },
      "citation link",
    );
    await new Promise((resolve) => setImmediate(resolve));
    const output = lines.join("\n");
    for (const secret of ["xoxb-77-secret", "xapp-1-A0-123", "hunter2", "0123abcd", "files-pri/T1-F9"]) {
      expect(output).not.toContain(secret);
    }
    const [failure, citation] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(failure?.msg).toBe("download failed for xapp-[redacted]");
    expect(citation?.link).toBe("https://folio.example.com/files/doc-1?exp=1900000000&sig=[redacted]#page=3");
    expect(citation?.database).toBe("postgres://folio:[redacted]@db:5432/folio");
  });
});

describe("logged errors", () => {
  it("counts a database error's parameters and cuts long fields, keeping the code and message", async () => {
    const { logger, lines, parsed } = capturedLogger();
    const error = Object.assign(new Error("unsupported Unicode escape sequence"), {
      code: "22P05",
      query: `INSERT INTO chunks ${"(…), ".repeat(2_000)}`,
      params: ["document-id", ["a passage of a user's document", "another passage"]],
    });
    logger.error({ err: error }, "ingestion failed");
    const [record] = await parsed();
    const err = record?.err as Record<string, unknown>;
    expect(err).toMatchObject({
      message: "unsupported Unicode escape sequence",
      code: "22P05",
      params: "[2 parameters]",
    });
    expect(String(err.query)).toMatch(/… \[\d+ characters\]$/);
    expect(String(err.stack)).toContain("unsupported Unicode escape sequence");
    expect(lines.join("")).not.toContain("a passage of a user's document");
    expect(lines[0]?.length).toBeLessThan(6_000);
  });
});
