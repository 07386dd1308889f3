/**
 * First use on a fresh machine: the composition root finds no model in FOLIO_MODELS_DIR, downloads the
 * default one from the hub (a stand-in on 127.0.0.1 serving the real bge-small-en-v1.5 files from the
 * shared models folder at the pinned revision), and the downloaded model really loads and embeds.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFolio } from "../../src/composition-root.js";
import { loadConfig } from "../../src/config/config.js";
import { createTransformersEmbedder } from "../../src/embedding/transformers-embedder.js";
import { createInferenceClient } from "../../src/inference/inference-client.js";
import { type LogFields, type Logger, silentLogger } from "../../src/logger.js";
import { findRegisteredModel } from "../../src/models/model-registry.js";
import { type FakeModelHub, startFakeModelHub } from "../support/fake-model-hub.js";
import { hasSharedData, sharedModelsDir } from "../support/shared-paths.js";

const BGE = findRegisteredModel("bge-small-en-v1.5", "embedder")!;
const QUESTION = "How many vacation days do new employees get?";

if (!hasSharedData) console.warn("model-first-use: skipped — no shared models folder to serve from.");

/** Keeps info lines, to check what the server would log during a first-use download. */
function createRecordingLogger(lines: Array<{ message: string; fields: LogFields }>): Logger {
  const logger: Logger = {
    debug() {},
    info(fields, message) {
      lines.push({ message, fields });
    },
    warn() {},
    error() {},
    child: () => logger,
  };
  return logger;
}

describe.skipIf(!hasSharedData)("models on first use", () => {
  let hub: FakeModelHub;
  let directory: string;

  beforeAll(async () => {
    hub = await startFakeModelHub();
    await hub.addDirectory(
      BGE.repository,
      BGE.revision,
      path.join(sharedModelsDir, BGE.id),
      BGE.files.map((file) => file.path),
      ["onnx/model_quantized.onnx", "tokenizer.json"],
    );
    directory = await mkdtemp(path.join(os.tmpdir(), "folio-first-use-"));
  });

  afterAll(async () => {
    await hub.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("downloads the missing default embedder at start-up, logs it, and embeds exactly like the original", async () => {
    const modelsDir = path.join(directory, "models-default");
    const log: Array<{ message: string; fields: LogFields }> = [];
    const folio = await createFolio(
      loadConfig({
        FOLIO_DATA_DIR: path.join(directory, "data-default"),
        FOLIO_MODELS_DIR: modelsDir,
        HF_ENDPOINT: hub.url,
      }),
      createRecordingLogger(log),
    );
    const reference = createInferenceClient({ threads: 0, logger: silentLogger });
    try {
      expect(folio.embedder?.modelId).toBe("bge-small-en-v1.5");
      expect(folio.embedder?.dimensions).toBe(384);
      expect(log.filter((line) => line.message === "downloading model file").map((line) => line.fields.file)).toEqual(
        BGE.files.map((file) => file.path),
      );
      const original = await createTransformersEmbedder({
        inference: reference,
        modelsDir: sharedModelsDir,
        modelId: BGE.id,
      });
      expect(await folio.embedder?.embedQuery(QUESTION)).toEqual(await original.embedQuery(QUESTION));
    } finally {
      await reference.close();
      await folio.close();
    }
  }, 120_000);

  it("keyword-only (FOLIO_EMBED_MODEL=none) asks nothing of the hub, makes no model folder, and still ingests", async () => {
    const modelsDir = path.join(directory, "models-keywords");
    const requestsBefore = hub.requests.length;
    const folio = await createFolio(
      loadConfig({
        FOLIO_DATA_DIR: path.join(directory, "data-keywords"),
        FOLIO_MODELS_DIR: modelsDir,
        FOLIO_EMBED_MODEL: "none",
        HF_ENDPOINT: hub.url,
      }),
      silentLogger,
    );
    try {
      expect(folio.embedder).toBeNull();
      expect(hub.requests.length).toBe(requestsBefore);
      expect(existsSync(modelsDir)).toBe(false);
      // Chunks are sized by an estimate without the tokenizer (ingestion/estimated-token-counter.ts).
      const result = await folio.ingestion.ingestFile({
        bytes: new TextEncoder().encode("New employees get twenty vacation days a year."),
        fileName: "leave.txt",
        spaceId: "console:first-use",
        uploader: null,
      });
      expect(result).toMatchObject({ status: "ingested", chunks: 1 });
      const hits = await folio.retriever.search({ query: "vacation days", spaceIds: ["console:first-use"], limit: 5 });
      expect(hits.map((hit) => hit.text)).toEqual(["New employees get twenty vacation days a year."]);
    } finally {
      await folio.close();
    }
  }, 120_000);
});
