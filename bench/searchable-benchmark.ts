/**
 * Time to searchable: one file uploaded as the console and chat adapters upload it (embedding in the
 * background) into a throw-away embedded Folio, timed from the upload to the first keyword search that
 * returns one of its passages, with the stages in between (waiting for a parse worker, parse and chunk
 * in the worker, storing pages, passages and BM25 vectors), then until its passages are embedded
 * (searchable by meaning; skipped with FOLIO_EMBED_MODEL=none). Each run is printed as one JSON line, with
 * the embedder's raw rate beside it: the same passages (their index text) embedded again with nothing
 * else running, in passages/s and tokens/s (tokens as the model sees them, truncated at 512), so the
 * share of the meaning wait that is embedding shows.
 *
 *   npx tsx bench/searchable-benchmark.ts ../shared/data/financebench-dev/pdfs/AMERICANEXPRESS_2022_10K.pdf [runs]
 *
 * The first run starts a parse worker (loading pdf.js and the tokenizer); later runs reuse it, as a
 * server does for uploads less than a minute apart. Each run uploads the same bytes under a new space.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { createFolio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import { indexTextOf } from "../src/domain/index-text.js";
import type { IngestStage } from "../src/ingest/ingest-result.js";
import { createLogger } from "../src/logger.js";

const file = process.argv[2];
const runs = Number(process.argv[3] ?? 2);
if (!file) {
  console.error("usage: npx tsx bench/searchable-benchmark.ts <file> [runs]");
  process.exit(2);
}
const bytes = new Uint8Array(await readFile(file));
const dataDir = await mkdtemp(path.join(tmpdir(), "folio-searchable-"));
// Embedded mode whatever the shell says: the figure should not depend on a database elsewhere.
const { DATABASE_URL: _database, QDRANT_URL: _qdrant, ...environment } = process.env;
const folio = await createFolio(
  loadConfig({ ...environment, FOLIO_DATA_DIR: dataDir }),
  createLogger({ level: "warn" }),
);
const round = (milliseconds: number) => Math.round(milliseconds) / 1000;

/** The embedder alone on the document's passages: seconds, passages/s and tokens/s. */
async function measureRawRate(documentId: string) {
  const document = await folio.catalog.getDocument(documentId);
  const embedder = folio.embedder;
  if (!document || !embedder) return null;
  const texts = (await folio.catalog.listChunks(documentId)).map((chunk) => indexTextOf(document, chunk));
  const { AutoTokenizer } = await import("@huggingface/transformers");
  const tokenizer = await AutoTokenizer.from_pretrained(path.join(folio.config.modelsDir, embedder.modelId), {
    local_files_only: true,
  });
  const tokens = texts.reduce(
    (sum, text) => sum + ((tokenizer([text], { truncation: true }).input_ids as { dims: number[] }).dims[1] ?? 0),
    0,
  );
  const started = performance.now();
  await embedder.embedPassages(texts);
  const seconds = (performance.now() - started) / 1000;
  return {
    passages: texts.length,
    tokens,
    seconds: Number(seconds.toFixed(2)),
    passagesPerSecond: Number((texts.length / seconds).toFixed(2)),
    tokensPerSecond: Math.round(tokens / seconds),
  };
}
try {
  for (let run = 1; run <= runs; run += 1) {
    const spaceId = `bench:searchable-${run}`;
    const stageAt: Partial<Record<IngestStage, number>> = {};
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    // The moment the catalog lists it as ready: searchable by keywords (before the upload's bookkeeping).
    let addedAt: number | null = null;
    const stopListening =
      folio.documentEvents?.subscribe((event) => {
        if (event.type === "added" && event.spaceId === spaceId) addedAt ??= performance.now() - started;
      }) ?? (() => {});
    const result = await folio.ingestion.ingestFile({
      bytes,
      fileName: path.basename(file),
      spaceId,
      uploader: "bench",
      meaning: "background",
      onProgress: (stage) => {
        stageAt[stage] ??= performance.now() - started;
      },
    });
    const returned = performance.now() - started;
    stopListening();
    const hits = await folio.retriever.search({
      query: "total revenues net income",
      spaceIds: [spaceId],
      limit: 1,
      mode: "sparse",
    });
    const keywordSearchable = performance.now() - started;
    // Every thread of the process (parse worker, inference worker, main): on a machine shared with other
    // work the wall clock measures the neighbours too; on an idle one the two agree (the steps run in turn).
    const cpu = process.cpuUsage(cpuBefore);
    if (hits[0]?.documentId !== result.documentId) {
      throw new Error(`no passage of ${file} found: ${result.status} ${JSON.stringify(result.error ?? {})}`);
    }
    // Each run waits for the previous one's embedding: a parse sharing two cores with it is another figure.
    let meaningSeconds: number | null = null;
    if (result.documentId && folio.meaningIndexer) {
      const document = await folio.catalog.getDocument(result.documentId);
      if (document) await folio.meaningIndexer.enqueue(document);
      meaningSeconds = round(performance.now() - started);
    }
    const raw = meaningSeconds === null || !result.documentId ? null : await measureRawRate(result.documentId);
    console.log(
      JSON.stringify({
        run,
        file: path.basename(file),
        pages: result.pages,
        passages: result.chunks,
        embedder: folio.embedder?.modelId ?? "none",
        /** Upload to the first keyword search that returns one of its passages (the upload's reply first). */
        keywordSearchableSeconds: round(keywordSearchable),
        /** Upload to the moment it was marked searchable (absent before issue #21, which added the event). */
        markedSearchableSeconds: addedAt === null ? null : round(addedAt),
        cpuSecondsToKeywordSearchable: round((cpu.user + cpu.system) / 1000),
        loadAverage: os.loadavg()[0],
        stagesSeconds: {
          parseAndChunk: round((stageAt.indexing ?? 0) - (stageAt.parsing ?? 0)),
          store: round((stageAt.done ?? returned) - (stageAt.indexing ?? 0)),
          firstSearch: round(keywordSearchable - returned),
        },
        meaningSearchableSeconds: meaningSeconds,
        /** The embedder alone on the same passages, right after: the floor the meaning wait is built on. */
        rawEmbedder: raw,
        loadAverageAfter: os.loadavg()[0],
      }),
    );
  }
} finally {
  await folio.close();
  await rm(dataDir, { recursive: true, force: true });
}
