/**
 * Ingestion throughput: enterprise PDFs through the real core (worker-pool parsing, tokenizer-measured
 * chunking, embedding in the inference worker, PGlite catalog and pgvector index) on a throw-away data
 * directory, two files at a time, with the main event loop's delay sampled throughout. Then, in the same run, the embedder
 * alone on the very same chunk texts, so ingestion's rate can be set against the raw embedding rate.
 */

import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createFolio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import { createLogger } from "../src/logger.js";

export type IngestBenchmark = {
  files: number;
  pages: number;
  chunks: number;
  seconds: number;
  peakRssMb: number;
  /** The main thread's event-loop delay while ingesting (ms). */
  eventLoopDelayMs: { p99: number; max: number };
  /** The embedder alone on the same chunk texts; null without an embedding model. */
  rawEmbedding: { passagesPerSecond: number; seconds: number; eventLoopDelayMaxMs: number } | null;
};

/** `limit`: the first N PDFs by name (embedding all 45 takes minutes on two cores). */
export async function benchmarkIngestion(
  pdfDirectory: string,
  options: { limit?: number } = {},
): Promise<IngestBenchmark> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "folio-bench-"));
  // Embedded mode whatever the shell says: the figure should not depend on a database elsewhere.
  const { DATABASE_URL: _database, QDRANT_URL: _qdrant, ...environment } = process.env;
  const folio = await createFolio(
    loadConfig({ ...environment, FOLIO_DATA_DIR: dataDir }),
    createLogger({ level: "warn" }),
  );
  try {
    const files = (await readdir(pdfDirectory))
      .filter((name) => name.toLowerCase().endsWith(".pdf"))
      .sort()
      .slice(0, options.limit ?? Number.POSITIVE_INFINITY);
    let pages = 0;
    let chunks = 0;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    // Two uploads at a time, as a busy channel would send them: one file parses while another embeds.
    const queue = [...files];
    const ingestNext = async (): Promise<void> => {
      for (let fileName = queue.shift(); fileName !== undefined; fileName = queue.shift()) {
        const bytes = new Uint8Array(await readFile(path.join(pdfDirectory, fileName)));
        const result = await folio.ingestion.ingestFile({ bytes, fileName, spaceId: "bench", uploader: null });
        pages += result.pages ?? 0;
        chunks += result.chunks;
      }
    };
    await Promise.all([ingestNext(), ingestNext()]);
    await folio.sparseVectors.rebuild("bench");
    const seconds = (performance.now() - started) / 1000;
    delay.disable();
    const eventLoopDelayMs = {
      p99: Math.round(delay.percentile(99) / 1e5) / 10,
      max: Math.round(delay.max / 1e5) / 10,
    };
    let rawEmbedding: IngestBenchmark["rawEmbedding"] = null;
    if (folio.embedder) {
      const texts: string[] = [];
      for (const document of await folio.catalog.listDocuments("bench")) {
        for (const chunk of await folio.catalog.listChunks(document.id)) texts.push(chunk.text);
      }
      const embeddingDelay = monitorEventLoopDelay({ resolution: 10 });
      embeddingDelay.enable();
      const embedStarted = performance.now();
      await folio.embedder.embedPassages(texts);
      const embedSeconds = (performance.now() - embedStarted) / 1000;
      embeddingDelay.disable();
      rawEmbedding = {
        passagesPerSecond: texts.length / embedSeconds,
        seconds: embedSeconds,
        eventLoopDelayMaxMs: Math.round(embeddingDelay.max / 1e5) / 10,
      };
    }
    // maxRSS counts the whole process, parse worker threads included (kilobytes on Linux).
    const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    return { files: files.length, pages, chunks, seconds, peakRssMb, eventLoopDelayMs, rawEmbedding };
  } finally {
    await folio.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
