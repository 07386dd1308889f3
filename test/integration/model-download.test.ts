/**
 * Model downloads against a stand-in hub on 127.0.0.1 (test/support/fake-model-hub.ts): real HTTP,
 * real files, the hub's redirect and checksum headers. No shared data needed.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { type AddressInfo, createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { FolioError } from "../../src/errors.js";
import { downloadHubFile } from "../../src/models/download-hub-file.js";
import type { DownloadProgress } from "../../src/models/download-progress.js";
import { ensureModelFiles, ensureModels, type PlannedModelFile } from "../../src/models/ensure-models.js";
import { type FakeModelHub, sha256Of, startFakeModelHub } from "../support/fake-model-hub.js";
import { createSeededRandom } from "../support/seeded-random.js";

const REPOSITORY = "test-org/tiny-model";
const CONFIG_JSON = new TextEncoder().encode('{"hidden_size":8,"model_type":"bert"}\n');
const TOKENIZER_JSON = new TextEncoder().encode('{"version":"1.0","model":{"type":"WordPiece"}}\n');
const WEIGHTS = randomBytes(300_000);

function randomBytes(length: number): Uint8Array {
  const random = createSeededRandom(7);
  return Uint8Array.from({ length }, () => Math.floor(random() * 256));
}

let hub: FakeModelHub;
let modelsDir: string;

function plannedFile(filePath: string, overrides: Partial<PlannedModelFile> = {}): PlannedModelFile {
  return {
    target: "embedder",
    model: "tiny-model",
    repository: REPOSITORY,
    revision: "main",
    path: filePath,
    destination: path.join(modelsDir, "tiny-model", ...filePath.split("/")),
    modelFolder: path.join(modelsDir, "tiny-model"),
    expected: { sha256: null, gitSha1: null, bytes: null },
    ...overrides,
  };
}

const TREE = ["config.json", "onnx/model_quantized.onnx", "tokenizer.json"];

function settings(extra: { offline?: boolean; token?: string | null } = {}) {
  return { hubEndpoint: hub.url, hubToken: extra.token ?? null, offline: extra.offline ?? false, llmFile: null };
}

/** Every file under a folder, temporary ones included, relative and sorted. */
async function listFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)))
    .sort();
}

function causeOf(error: FolioError): FolioError {
  expect(error.code).toBe("model_missing");
  if (!(error.cause instanceof FolioError)) throw new Error(`no FolioError behind ${error.message}`);
  return error.cause;
}

async function caught(promise: Promise<unknown>): Promise<FolioError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FolioError) return error;
    throw error;
  }
  throw new Error("expected the promise to reject");
}

beforeAll(async () => {
  hub = await startFakeModelHub();
});

afterAll(async () => {
  await hub.close();
});

beforeEach(async () => {
  modelsDir = await mkdtemp(path.join(os.tmpdir(), "folio-models-"));
  hub.requests.length = 0;
  hub.addFile(REPOSITORY, "main", "config.json", { bytes: CONFIG_JSON, lfs: false });
  hub.addFile(REPOSITORY, "main", "tokenizer.json", { bytes: TOKENIZER_JSON, lfs: false });
  hub.addFile(REPOSITORY, "main", "onnx/model_quantized.onnx", { bytes: WEIGHTS, lfs: true });
});

afterEach(async () => {
  await rm(modelsDir, { recursive: true, force: true });
});

describe("model downloads from a hub", () => {
  it("downloads a fresh model tree, checked against the hub's headers, then finds it present without a request", async () => {
    const progress: DownloadProgress[] = [];
    const files = TREE.map((filePath) => plannedFile(filePath));
    const outcomes = await ensureModelFiles(files, settings({ token: "hf_test_token" }), {
      onProgress: (update) => progress.push(update),
      progressIntervalMs: 60_000,
    });
    const destination = (filePath: string) => path.join(modelsDir, "tiny-model", ...filePath.split("/"));
    expect(outcomes).toEqual([
      {
        model: "tiny-model",
        file: "config.json",
        status: "downloaded",
        bytes: 38,
        destination: destination("config.json"),
      },
      {
        model: "tiny-model",
        file: "onnx/model_quantized.onnx",
        status: "downloaded",
        bytes: 300_000,
        destination: destination("onnx/model_quantized.onnx"),
      },
      {
        model: "tiny-model",
        file: "tokenizer.json",
        status: "downloaded",
        bytes: 47,
        destination: destination("tokenizer.json"),
      },
    ]);
    expect(new Uint8Array(await readFile(destination("onnx/model_quantized.onnx")))).toEqual(WEIGHTS);
    expect(new Uint8Array(await readFile(destination("config.json")))).toEqual(CONFIG_JSON);
    expect(await listFiles(modelsDir)).toEqual(TREE.map((filePath) => path.join("tiny-model", filePath)));

    // With a long interval, only the first and the final update of each file get through.
    expect(progress.filter((update) => update.file === "onnx/model_quantized.onnx")).toEqual([
      { model: "tiny-model", file: "onnx/model_quantized.onnx", receivedBytes: 0, totalBytes: 300_000 },
      { model: "tiny-model", file: "onnx/model_quantized.onnx", receivedBytes: 300_000, totalBytes: 300_000 },
    ]);

    // The token goes to the hub, never to the CDN the hub redirects to.
    const weightsSha256 = sha256Of(WEIGHTS);
    expect(hub.requests.map((request) => [request.path, request.authorization])).toEqual([
      [`/${REPOSITORY}/resolve/main/config.json`, "Bearer hf_test_token"],
      [`/${REPOSITORY}/resolve/main/onnx/model_quantized.onnx`, "Bearer hf_test_token"],
      [`/cdn-lfs/${weightsSha256}`, null],
      [`/${REPOSITORY}/resolve/main/tokenizer.json`, "Bearer hf_test_token"],
    ]);

    const again = await ensureModelFiles(files, settings());
    expect(again.map((outcome) => [outcome.file, outcome.status, outcome.bytes])).toEqual([
      ["config.json", "present", 38],
      ["onnx/model_quantized.onnx", "present", 300_000],
      ["tokenizer.json", "present", 47],
    ]);
    expect(hub.requests).toHaveLength(4);
  });

  it("rejects LFS bytes whose SHA-256 differs from X-Linked-Etag and keeps nothing", async () => {
    const served = WEIGHTS.slice();
    served[1234] = (served[1234] ?? 0) ^ 0xff;
    hub.addFile(REPOSITORY, "main", "onnx/model_quantized.onnx", { bytes: WEIGHTS, lfs: true, servedBytes: served });
    const error = await caught(ensureModelFiles([plannedFile("onnx/model_quantized.onnx")], settings()));
    expect(error.code).toBe("model_checksum_mismatch");
    expect(error.message).toBe(
      `Downloaded tiny-model: onnx/model_quantized.onnx from ${hub.url}/${REPOSITORY}/resolve/main/onnx/model_quantized.onnx, but its SHA-256 is ${sha256Of(served)}, expected ${sha256Of(WEIGHTS)} — the transfer was corrupted or the hub serves other bytes; nothing was kept. Try again, or copy the file in by hand.`,
    );
    expect(await listFiles(modelsDir)).toEqual([]);
  });

  it("rejects a small file whose git blob SHA-1 differs from the hub's ETag", async () => {
    const served = new TextEncoder().encode('{"hidden_size":9,"model_type":"bert"}\n');
    hub.addFile(REPOSITORY, "main", "config.json", { bytes: CONFIG_JSON, lfs: false, servedBytes: served });
    const error = await caught(ensureModelFiles([plannedFile("config.json")], settings()));
    expect(error.code).toBe("model_checksum_mismatch");
    expect(error.message).toContain("its git blob SHA-1 is ");
    expect(await listFiles(modelsDir)).toEqual([]);
  });

  it("rejects bytes that match the hub's promise but not the registry's pin", async () => {
    const pinned = "0".repeat(64);
    const error = await caught(
      downloadHubFile(
        plannedFile("onnx/model_quantized.onnx", { expected: { sha256: pinned, gitSha1: null, bytes: 300_000 } }),
        { endpoint: hub.url, token: null },
      ),
    );
    expect(error.code).toBe("model_checksum_mismatch");
    expect(error.message).toContain(`its SHA-256 is ${sha256Of(WEIGHTS)}, expected ${pinned}`);
    expect(await listFiles(modelsDir)).toEqual([]);
  });

  it("names the file, the status and the fix when the hub answers 404 or 500", async () => {
    // The file-level failure is the cause of the whole-model message (tested below).
    const missing = causeOf(await caught(ensureModelFiles([plannedFile("onnx/model_fp16.onnx")], settings())));
    expect(missing.code).toBe("model_download_failed");
    expect(missing.retryable).toBe(false);
    expect(missing.message).toBe(
      `Downloading tiny-model: onnx/model_fp16.onnx from ${hub.url}/${REPOSITORY}/resolve/main/onnx/model_fp16.onnx failed with HTTP 404 (EntryNotFound) — the file or revision is not on this hub: check HF_ENDPOINT.`,
    );
    hub.addFile(REPOSITORY, "main", "config.json", { bytes: CONFIG_JSON, lfs: false, failWith: 500 });
    const failing = causeOf(await caught(ensureModelFiles([plannedFile("config.json")], settings())));
    expect(failing.code).toBe("model_download_failed");
    expect(failing.retryable).toBe(true);
    expect(failing.message).toContain("failed with HTTP 500 (InternalError) — the hub failed: try again later.");
    expect(await listFiles(modelsDir)).toEqual([]);
  });

  it("gives up on a transfer that stalls, and stops on abort, leaving nothing behind", async () => {
    hub.addFile(REPOSITORY, "main", "onnx/model_quantized.onnx", { bytes: WEIGHTS, lfs: true, stallAfterBytes: 1000 });
    const stalled = causeOf(
      await caught(ensureModelFiles([plannedFile("onnx/model_quantized.onnx")], settings(), { stallTimeoutMs: 300 })),
    );
    expect(stalled.code).toBe("model_download_timeout");
    expect(stalled.message).toContain("stalled: nothing arrived for 0.3 s");
    expect(await listFiles(modelsDir)).toEqual([]);

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const aborted = await caught(
      ensureModelFiles([plannedFile("onnx/model_quantized.onnx")], settings(), { signal: controller.signal }),
    );
    expect(aborted.code).toBe("model_download_aborted");
    expect(await listFiles(modelsDir)).toEqual([]);
  });

  it("follows the hub's relative redirect for a renamed repository", async () => {
    hub.renameRepository("old-org/tiny-model", REPOSITORY);
    const outcomes = await ensureModelFiles(
      [plannedFile("onnx/model_quantized.onnx", { repository: "old-org/tiny-model" })],
      settings({ token: "hf_test_token" }),
    );
    expect(outcomes.map((outcome) => [outcome.status, outcome.bytes])).toEqual([["downloaded", 300_000]]);
    expect(hub.requests.map((request) => [request.path, request.authorization])).toEqual([
      ["/old-org/tiny-model/resolve/main/onnx/model_quantized.onnx", "Bearer hf_test_token"],
      [`/${REPOSITORY}/resolve/main/onnx/model_quantized.onnx`, "Bearer hf_test_token"],
      [`/cdn-lfs/${sha256Of(WEIGHTS)}`, null],
    ]);
  });

  it("with FOLIO_OFFLINE, names the whole model, where it goes, the ways to get it and how to start without it, asking nothing of the hub", async () => {
    const config = loadConfig({ FOLIO_MODELS_DIR: modelsDir, FOLIO_OFFLINE: "1", HF_ENDPOINT: hub.url });
    const error = await caught(ensureModels(config, ["embedder"]));
    expect(error.code).toBe("model_missing");
    const folder = path.join(modelsDir, "bge-small-en-v1.5");
    expect(error.message).toBe(
      `Model bge-small-en-v1.5 (the embedder: 5 files, 34.7 MB) is not in ${folder}, and FOLIO_OFFLINE forbids downloading it. Get it: unset FOLIO_OFFLINE where ${hub.url} can be reached and start again; set HF_ENDPOINT to a mirror of the hub; run \`folio models pull embedder\` on a machine that reaches the hub, then copy its bge-small-en-v1.5 folder into ${modelsDir}; or set FOLIO_MODELS_DIR to a folder that already holds a bge-small-en-v1.5 folder. Or start without it, keyword search only: FOLIO_EMBED_MODEL=none.`,
    );
    expect(error.message).not.toContain("\n");
    expect(hub.requests).toEqual([]);
    expect(existsSync(folder)).toBe(false);
  });

  it("explains an unreachable hub for the whole model and leaves no folder behind", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const endpoint = `http://127.0.0.1:${port}`;
    const error = await caught(
      ensureModelFiles([plannedFile("config.json"), plannedFile("onnx/model_quantized.onnx")], {
        ...settings(),
        hubEndpoint: endpoint,
      }),
    );
    expect(error.code).toBe("model_missing");
    expect(error.message).toBe(
      `Model tiny-model (the embedder: 2 files) is not in ${path.join(modelsDir, "tiny-model")}, and the hub at ${endpoint} cannot be reached (fetch failed (ECONNREFUSED)). Get it: let this machine reach ${endpoint} and start again; set HF_ENDPOINT to a mirror of the hub; run \`folio models pull embedder\` on a machine that reaches the hub, then copy its tiny-model folder into ${modelsDir}; or set FOLIO_MODELS_DIR to a folder that already holds a tiny-model folder. Or start without it, keyword search only: FOLIO_EMBED_MODEL=none.`,
    );
    expect((error.cause as FolioError).code).toBe("model_download_failed");
    expect(existsSync(path.join(modelsDir, "tiny-model"))).toBe(false);
  });

  it("removes the files it fetched for a model that fails half-way, and keeps a folder the operator made", async () => {
    mkdirSync(path.join(modelsDir, "tiny-model"), { recursive: true });
    writeFileSync(path.join(modelsDir, "tiny-model", "README.md"), "copied by hand");
    const error = await caught(
      ensureModelFiles([plannedFile("config.json"), plannedFile("onnx/missing.onnx")], settings()),
    );
    expect(error.code).toBe("model_missing");
    expect(error.message).toContain("the hub at");
    expect(error.message).toContain("refused it (HTTP 404");
    expect(readdirSync(path.join(modelsDir, "tiny-model")).sort()).toEqual(["README.md", "config.json"]);
  });
});
