import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { hubFileUrl } from "../../src/models/download-hub-file.js";
import { describeProgress, throttleProgress } from "../../src/models/download-progress.js";
import { planModelFiles } from "../../src/models/ensure-models.js";
import { readHubIdentity } from "../../src/models/hub-file-identity.js";
import { parseHubFileReference } from "../../src/models/hub-file-reference.js";

const summary = (plan: ReturnType<typeof planModelFiles>) =>
  plan.files.map((file) => [file.model, file.repository, file.revision, file.path, file.destination]);

describe("planModelFiles", () => {
  it("plans every file of the default embedder at its pinned revision", () => {
    const plan = planModelFiles(loadConfig({}, "/srv"), "embedder", false);
    const at = (file: string) => path.join("/srv/models/bge-small-en-v1.5", file);
    const revision = "ea104dacec62c0de699686887e3f920caeb4f3e3";
    expect(summary(plan)).toEqual([
      ["bge-small-en-v1.5", "Xenova/bge-small-en-v1.5", revision, "config.json", at("config.json")],
      ["bge-small-en-v1.5", "Xenova/bge-small-en-v1.5", revision, "tokenizer.json", at("tokenizer.json")],
      ["bge-small-en-v1.5", "Xenova/bge-small-en-v1.5", revision, "tokenizer_config.json", at("tokenizer_config.json")],
      [
        "bge-small-en-v1.5",
        "Xenova/bge-small-en-v1.5",
        revision,
        "special_tokens_map.json",
        at("special_tokens_map.json"),
      ],
      [
        "bge-small-en-v1.5",
        "Xenova/bge-small-en-v1.5",
        revision,
        "onnx/model_quantized.onnx",
        at("onnx/model_quantized.onnx"),
      ],
    ]);
    expect(plan.files[4]?.expected).toEqual({
      sha256: "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4",
      gitSha1: null,
      bytes: 34_014_426,
    });
  });

  it("plans nothing for a keyword-only start, and the default tokenizer when asked for by name", () => {
    const config = loadConfig({ FOLIO_EMBED_MODEL: "none" }, "/srv");
    const atStart = planModelFiles(config, "embedder", false);
    expect(atStart.files).toEqual([]);
    expect(atStart.note).toBe("FOLIO_EMBED_MODEL is none: keyword search needs no model.");
    const pulled = planModelFiles(config, "embedder", true);
    expect(pulled.files.map((file) => file.path)).toEqual(["tokenizer.json", "tokenizer_config.json"]);
  });

  it("plans a reranker only when configured, or when asked for by name", () => {
    expect(planModelFiles(loadConfig({}, "/srv"), "reranker", false).files).toEqual([]);
    const requested = planModelFiles(loadConfig({}, "/srv"), "reranker", true);
    expect(requested.note).toBe("Set FOLIO_RERANK_MODEL=bge-reranker-base to rerank with it.");
    expect(requested.files.map((file) => [file.path, file.expected])).toEqual([
      ["config.json", { sha256: null, gitSha1: "ef36f7221740ddc57b6cfae14977840d1fc0fc95", bytes: 782 }],
      ["tokenizer_config.json", { sha256: null, gitSha1: "059214673d9d6d2ee319411e2ffec8c024b816d5", bytes: 443 }],
      ["special_tokens_map.json", { sha256: null, gitSha1: "68171d1ff68b731a33d119708476692c094a466b", bytes: 279 }],
      [
        "tokenizer.json",
        {
          sha256: "48564c5c7d3fa64d85d95e65414a542385f88b0f128fd8d4163fd7a57f2be05c",
          gitSha1: null,
          bytes: 17_098_079,
        },
      ],
      [
        "onnx/model_quantized.onnx",
        {
          sha256: "dd98f3e67837d23210a6b7550c08cced4f61845b940ac45be3565840a10f3244",
          gitSha1: null,
          bytes: 279_301_077,
        },
      ],
    ]);
    const configured = planModelFiles(
      loadConfig({ FOLIO_RERANK_MODEL: "bge-reranker-base" }, "/srv"),
      "reranker",
      false,
    );
    expect(configured.files).toHaveLength(5);
    expect(configured.files[0]?.revision).toBe("280bcc27a84e0b898c251e06fddb25171bd9b101");
  });

  it("notes a model it cannot download at start-up, and refuses it when asked by name", () => {
    const config = loadConfig({ FOLIO_EMBED_MODEL: "my-embedder" }, "/srv");
    expect(planModelFiles(config, "embedder", false)).toEqual({
      target: "embedder",
      files: [],
      note: "FOLIO_EMBED_MODEL is my-embedder, which Folio cannot download (it can: bge-small-en-v1.5) — copy the model into /srv/models/my-embedder.",
    });
    expect(() => planModelFiles(config, "embedder", true)).toThrow(/cannot download/);
  });

  it("plans the LLM only when FOLIO_LLM_MODEL is a hub reference", () => {
    const config = loadConfig({ FOLIO_LLM_MODEL: "hf:owner/repo-GGUF/quant/model.Q4_0.gguf" }, "/srv");
    expect(summary(planModelFiles(config, "llm", true))).toEqual([
      ["owner/repo-GGUF", "owner/repo-GGUF", "main", "quant/model.Q4_0.gguf", "/srv/models/model.Q4_0.gguf"],
    ]);
    expect(planModelFiles(loadConfig({ FOLIO_LLM_MODEL: "model.gguf" }, "/srv"), "llm", true).files).toEqual([]);
  });
});

describe("hub protocol pieces", () => {
  it("builds the hub's resolve URL with each path segment encoded", () => {
    expect(hubFileUrl("https://huggingface.co/", "Xenova/bge-small-en-v1.5", "main", "onnx/model quantized.onnx")).toBe(
      "https://huggingface.co/Xenova/bge-small-en-v1.5/resolve/main/onnx/model%20quantized.onnx",
    );
  });

  it("reads an LFS redirect's X-Linked-Etag and X-Linked-Size, and a git file's ETag and length", () => {
    const sha256 = "a".repeat(64);
    const lfs = new Headers({ "x-linked-etag": `"${sha256}"`, "x-linked-size": "42", "content-length": "7" });
    expect(readHubIdentity(lfs, { redirect: true })).toEqual({ sha256, gitSha1: null, bytes: 42 });
    const git = new Headers({ etag: `W/"${"b".repeat(40)}"`, "content-length": "7" });
    expect(readHubIdentity(git, { redirect: false })).toEqual({ sha256: null, gitSha1: "b".repeat(40), bytes: 7 });
    const renamed = new Headers({ "content-length": "30" });
    expect(readHubIdentity(renamed, { redirect: true })).toEqual({ sha256: null, gitSha1: null, bytes: null });
  });

  it("parses node-llama-cpp's hf: file form and rejects the rest", () => {
    expect(parseHubFileReference("hf:owner/repo/file.gguf")).toEqual({
      repository: "owner/repo",
      revision: "main",
      path: "file.gguf",
    });
    expect(() => parseHubFileReference("hf:owner/repo:Q4_K_M")).toThrow(/owner or repository missing or malformed/);
    expect(() => parseHubFileReference("hf:owner/repo/weights.bin")).toThrow(/not a .gguf/);
    expect(() => parseHubFileReference("hf:owner/repo/../x.gguf")).toThrow(/path segment/);
  });

  it("throttles progress to the first, the final and one per interval", () => {
    let time = 0;
    const seen: number[] = [];
    const throttle = throttleProgress(
      (progress) => seen.push(progress.receivedBytes),
      1000,
      () => time,
    );
    const update = (receivedBytes: number) => ({ model: "m", file: "f", receivedBytes, totalBytes: 10_000_000 });
    for (const [at, bytes] of [
      [0, 0],
      [400, 1],
      [1000, 2],
      [1500, 3],
    ] as const) {
      time = at;
      throttle.report(update(bytes));
    }
    throttle.report(update(10_000_000), true);
    expect(seen).toEqual([0, 2, 10_000_000]);
    expect(describeProgress(update(3_400_000))).toBe("3.4/10.0 MB (34%)");
  });
});
