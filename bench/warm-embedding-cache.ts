/**
 * Fills the evaluation embedding cache for a BEIR corpus ahead of `folio eval retrieval`, printing the
 * embedder's raw rate. Usage: tsx bench/warm-embedding-cache.ts <BEIR dir> [cache dir]
 * (cache dir default: $FOLIO_DATA_DIR/embedding-cache, the folder evaluations read).
 */
import path from "node:path";
import { createCachedEmbedder } from "../src/embedding/embedding-cache.js";
import { createTransformersEmbedder } from "../src/embedding/transformers-embedder.js";
import { loadBeirDataset } from "../src/evaluation/beir-dataset.js";
import { beirPassageText } from "../src/evaluation/retrieval-evaluation.js";
import { createInferenceClient } from "../src/inference/inference-client.js";
import { silentLogger } from "../src/logger.js";

const [datasetDir, cacheArgument] = process.argv.slice(2);
if (!datasetDir) throw new Error("usage: tsx bench/warm-embedding-cache.ts <BEIR dir> [cache dir]");
const cacheDirectory =
  cacheArgument ?? path.join(path.resolve(process.env.FOLIO_DATA_DIR ?? ".folio"), "embedding-cache");
const dataset = await loadBeirDataset(datasetDir, "test");
const inference = createInferenceClient({ threads: 0, logger: silentLogger });
const embedder = await createCachedEmbedder(
  await createTransformersEmbedder({
    inference,
    modelsDir: process.env.FOLIO_MODELS_DIR ?? "models",
    modelId: process.env.FOLIO_EMBED_MODEL ?? "bge-small-en-v1.5",
  }),
  cacheDirectory,
);
const started = performance.now();
let lastReport = 0;
await embedder.embedPassages(dataset.corpus.map(beirPassageText), {
  onProgress(done, total) {
    const seconds = (performance.now() - started) / 1000;
    if (seconds - lastReport < 30 && done < total) return;
    lastReport = seconds;
    process.stderr.write(`${done}/${total} passages, ${seconds.toFixed(0)} s\n`);
  },
});
process.stderr.write(`done in ${((performance.now() - started) / 1000).toFixed(0)} s → ${cacheDirectory}\n`);
await inference.close();
