/**
 * `folio models pull` as a user runs it: a real child process, HF_ENDPOINT pointing at a stand-in hub
 * on 127.0.0.1 that serves the real bge-small-en-v1.5 files (from the shared models folder) at the
 * pinned revision, so the registry's checksums are checked for real.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { findRegisteredModel } from "../../src/models/model-registry.js";
import { type FakeModelHub, sha256Of, startFakeModelHub } from "../support/fake-model-hub.js";
import { type CliRun, jsonLines, runFolioCli } from "../support/run-folio-cli.js";
import { hasSharedData, sharedModel } from "../support/shared-paths.js";

const EXIT_WITHIN_MS = 45_000;
const BGE = findRegisteredModel("bge-small-en-v1.5", "embedder")!;
const BGE_FOLDER = sharedModel("bge-small-en-v1.5");
/** 2,500 bytes standing in for a quantised model file. */
const GGUF = new TextEncoder().encode(`GGUF${"x".repeat(2496)}`);

let hub: FakeModelHub;
let modelsDir: string;
let dataDir: string;

function runFolio(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runFolioCli(
    args,
    {
      ...process.env,
      FOLIO_DATA_DIR: dataDir,
      FOLIO_MODELS_DIR: modelsDir,
      HF_ENDPOINT: hub.url,
      FOLIO_EMBED_MODEL: "",
      FOLIO_RERANK_MODEL: "",
      FOLIO_LLM_MODEL: "",
      FOLIO_OFFLINE: "",
      ...env,
    },
    EXIT_WITHIN_MS,
  );
}

beforeAll(async () => {
  hub = await startFakeModelHub();
  if (hasSharedData) {
    await hub.addDirectory(
      BGE.repository,
      BGE.revision,
      BGE_FOLDER,
      BGE.files.map((file) => file.path),
      ["onnx/model_quantized.onnx", "tokenizer.json"],
    );
  }
  hub.addFile("test-org/tiny-GGUF", "main", "tiny.Q4_0.gguf", { bytes: GGUF, lfs: true });
  dataDir = await mkdtemp(path.join(tmpdir(), "folio-models-cli-data-"));
});

afterAll(async () => {
  await hub.close();
  await rm(dataDir, { recursive: true, force: true });
});

beforeEach(async (context) => {
  modelsDir = await mkdtemp(path.join(tmpdir(), "folio-models-cli-"));
  hub.requests.length = 0;
  context.onTestFinished(() => rm(modelsDir, { recursive: true, force: true }));
});

describe("folio models pull", () => {
  it.skipIf(!hasSharedData)(
    "downloads the default embedder, one JSON line per file, then finds it present without asking the hub",
    async () => {
      const first = await runFolio(["models", "pull", "--json"]);
      expect(first.code).toBe(0);
      const stderrLines = first.stderr.split("\n");
      expect(stderrLines.filter((line) => line.startsWith("folio:"))).toEqual([
        "folio: reranker: FOLIO_RERANK_MODEL is not set: reranking is off.",
        "folio: llm: FOLIO_LLM_MODEL names no hub file (hf:<owner>/<repo>/<file>.gguf): no LLM to pull.",
      ]);
      // Progress goes to stderr (stdout holds only the JSON lines): first and final update of the weights.
      const weightsProgress = stderrLines.filter((line) => line.startsWith("… bge-small-en-v1.5: onnx/"));
      expect(weightsProgress[0]).toBe("… bge-small-en-v1.5: onnx/model_quantized.onnx 0.0/34.0 MB (0%)");
      expect(weightsProgress.at(-1)).toBe("… bge-small-en-v1.5: onnx/model_quantized.onnx 34.0/34.0 MB (100%)");
      expect(jsonLines(first.stdout)).toEqual([
        { model: "bge-small-en-v1.5", file: "config.json", status: "downloaded", bytes: 683 },
        { model: "bge-small-en-v1.5", file: "tokenizer.json", status: "downloaded", bytes: 711_396 },
        { model: "bge-small-en-v1.5", file: "tokenizer_config.json", status: "downloaded", bytes: 366 },
        { model: "bge-small-en-v1.5", file: "special_tokens_map.json", status: "downloaded", bytes: 125 },
        { model: "bge-small-en-v1.5", file: "onnx/model_quantized.onnx", status: "downloaded", bytes: 34_014_426 },
      ]);
      const onnx = path.join("onnx", "model_quantized.onnx");
      // A hash, not toEqual: diffing 34 MB buffers exhausts the test worker's heap.
      expect(sha256Of(await readFile(path.join(modelsDir, "bge-small-en-v1.5", onnx)))).toBe(
        "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4",
      );
      const requestsAfterFirst = hub.requests.length;
      expect(requestsAfterFirst).toBe(7); // five resolve requests, two CDN fetches for the LFS files

      const second = await runFolio(["models", "pull", "embedder", "--json"]);
      expect(second.code).toBe(0);
      expect(jsonLines(second.stdout).map((line) => line.status)).toEqual(Array(5).fill("present"));
      expect(hub.requests.length).toBe(requestsAfterFirst);
    },
    EXIT_WITHIN_MS * 2 + 5_000,
  );

  it.skipIf(!hasSharedData)(
    "keyword-only (FOLIO_EMBED_MODEL=none) pulls just the tokenizer the chunker needs",
    async () => {
      const run = await runFolio(["models", "pull", "embedder", "--json"], { FOLIO_EMBED_MODEL: "none" });
      expect(run.code).toBe(0);
      expect(jsonLines(run.stdout)).toEqual([
        { model: "bge-small-en-v1.5", file: "tokenizer.json", status: "downloaded", bytes: 711_396 },
        { model: "bge-small-en-v1.5", file: "tokenizer_config.json", status: "downloaded", bytes: 366 },
      ]);
    },
    EXIT_WITHIN_MS + 5_000,
  );

  it(
    "pulls an LLM named as a hub reference into the models folder, and says when there is none",
    async () => {
      const run = await runFolio(["models", "pull", "llm", "--json"], {
        FOLIO_LLM_MODEL: "hf:test-org/tiny-GGUF/tiny.Q4_0.gguf",
      });
      expect(run.stderr).toBe(
        "… test-org/tiny-GGUF: tiny.Q4_0.gguf 0.0/2.5 kB (0%)\n… test-org/tiny-GGUF: tiny.Q4_0.gguf 2.5/2.5 kB (100%)\n",
      );
      expect(run.code).toBe(0);
      expect(jsonLines(run.stdout)).toEqual([
        { model: "test-org/tiny-GGUF", file: "tiny.Q4_0.gguf", status: "downloaded", bytes: GGUF.length },
      ]);
      expect(new Uint8Array(await readFile(path.join(modelsDir, "tiny.Q4_0.gguf")))).toEqual(GGUF);

      const none = await runFolio(["models", "pull", "llm"]);
      expect(none.code).toBe(0);
      expect(none.stdout).toBe("");
      expect(none.stderr).toBe(
        "folio: llm: FOLIO_LLM_MODEL names no hub file (hf:<owner>/<repo>/<file>.gguf): no LLM to pull.\n",
      );
    },
    EXIT_WITHIN_MS * 2 + 5_000,
  );

  it(
    "with FOLIO_OFFLINE=1 and no model, fails in one line naming the model, its folder, the ways to get it and how to start without it",
    async () => {
      const run = await runFolio(["models", "pull", "embedder"], { FOLIO_OFFLINE: "1" });
      // A missing model is a configuration problem: exit 3 (src/cli/configuration-error-codes.ts).
      expect(run.code).toBe(3);
      const folder = path.join(modelsDir, "bge-small-en-v1.5");
      expect(run.stderr).toBe(
        `folio: Model bge-small-en-v1.5 (the embedder: 5 files, 34.7 MB) is not in ${folder}, and FOLIO_OFFLINE forbids downloading it. Get it: unset FOLIO_OFFLINE where ${hub.url} can be reached and start again; set HF_ENDPOINT to a mirror of the hub; run \`folio models pull embedder\` on a machine that reaches the hub, then copy its bge-small-en-v1.5 folder into ${modelsDir}; or set FOLIO_MODELS_DIR to a folder that already holds a bge-small-en-v1.5 folder. Or start without it, keyword search only: FOLIO_EMBED_MODEL=none. [model_missing]\n`,
      );
      expect(hub.requests).toEqual([]);
    },
    EXIT_WITHIN_MS + 5_000,
  );

  it(
    "rejects an unknown action or target with exit 2",
    async () => {
      const run = await runFolio(["models", "pull", "everything"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        'folio: models pull takes one of embedder, reranker, llm, all, got "everything" (see folio --help)\n',
      );
    },
    EXIT_WITHIN_MS + 5_000,
  );
});
