import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/config.js";

describe("loadConfig", () => {
  it("resolves the embedded default when nothing is set", () => {
    const config = loadConfig({}, "/srv/folio");
    expect(config.storage).toEqual({ kind: "embedded", dataDir: "/srv/folio/.folio" });
    expect(config.dataDir).toBe("/srv/folio/.folio");
    expect(config.modelsDir).toBe("/srv/folio/models");
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.qdrant).toBeNull();
    expect(config.slack).toBeNull();
    expect(config.teams).toBeNull();
    expect(config.llm).toEqual({ kind: "none" });
    expect(config.chunking).toEqual({ maxTokens: 512, overlapTokens: 20 });
    expect(config.bm25).toEqual({ k1: 0.9, b: 0.4 });
  });

  it("selects PostgreSQL when DATABASE_URL is set and trims a trailing slash from URLs", () => {
    const config = loadConfig(
      { DATABASE_URL: "postgres://folio@db:5432/folio", QDRANT_URL: "http://qdrant:6333/", PORT: "8080" },
      "/srv",
    );
    expect(config.storage).toEqual({ kind: "postgres", databaseUrl: "postgres://folio@db:5432/folio" });
    expect(config.qdrant).toEqual({ url: "http://qdrant:6333", apiKey: null });
    expect(config.publicUrl).toBe("http://localhost:8080");
  });

  it("reports every bad variable at once, each with how to fix it", () => {
    let caught: unknown;
    try {
      loadConfig({
        PORT: "eighty",
        DATABASE_URL: "mysql://x",
        FOLIO_LINK_SECRET: "short",
        LLM_BASE_URL: "http://llm:8000",
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.map((problem) => problem.variable).sort();
    expect(problems).toEqual(["DATABASE_URL", "FOLIO_LINK_SECRET", "LLM_MODEL", "PORT"]);
    expect((caught as ConfigError).message).toContain('PORT: "eighty" must be a whole number from 0 to 65535');
    expect((caught as ConfigError).code).toBe("invalid_configuration");
  });

  it("requires a signing secret or app token with a Slack bot token", () => {
    expect(() => loadConfig({ SLACK_BOT_TOKEN: "xoxb-1" })).toThrow(/SLACK_SIGNING_SECRET/);
    const http = loadConfig({ SLACK_BOT_TOKEN: "xoxb-1", SLACK_SIGNING_SECRET: "s3cret" });
    expect(http.slack).toEqual({
      botToken: "xoxb-1",
      signingSecret: "s3cret",
      appToken: null,
      apiUrl: null,
      adminUserIds: [],
    });
    expect(() => loadConfig({ SLACK_BOT_TOKEN: "xoxb-1", SLACK_APP_TOKEN: "bad" })).toThrow(/xapp-/);
  });

  it("chooses the OpenAI-compatible LLM over a local GGUF when both are configured", () => {
    const config = loadConfig(
      { LLM_BASE_URL: "http://vllm:8000/v1", LLM_MODEL: "qwen", FOLIO_LLM_MODEL: "m.gguf" },
      "/x",
    );
    expect(config.llm).toEqual({
      kind: "openai-compatible",
      baseUrl: "http://vllm:8000/v1",
      model: "qwen",
      apiKey: null,
    });
    expect(loadConfig({ FOLIO_LLM_MODEL: "m.gguf" }, "/x").llm).toEqual({ kind: "local", modelPath: "/x/m.gguf" });
  });

  it("rejects an overlap that is not smaller than the chunk size", () => {
    expect(() => loadConfig({ FOLIO_CHUNK_TOKENS: "64", FOLIO_CHUNK_OVERLAP: "64" })).toThrow(/FOLIO_CHUNK_OVERLAP/);
  });
});
