/**
 * Ingestion throughput: every enterprise PDF through the real core (worker-pool parsing, tokenizer-
 * measured chunking, PGlite catalog and pgvector index) on a throw-away data directory.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createFolio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import { createLogger } from "../src/logger.js";

export type IngestBenchmark = { files: number; pages: number; chunks: number; seconds: number; peakRssMb: number };

export async function benchmarkIngestion(pdfDirectory: string): Promise<IngestBenchmark> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "folio-bench-"));
  // Embedded mode whatever the shell says: the figure should not depend on a database elsewhere.
  const { DATABASE_URL: _database, QDRANT_URL: _qdrant, ...environment } = process.env;
  const folio = await createFolio(
    loadConfig({ ...environment, FOLIO_DATA_DIR: dataDir }),
    createLogger({ level: "warn" }),
  );
  try {
    const files = (await readdir(pdfDirectory)).filter((name) => name.toLowerCase().endsWith(".pdf")).sort();
    let pages = 0;
    let chunks = 0;
    const started = performance.now();
    for (const fileName of files) {
      const bytes = new Uint8Array(await readFile(path.join(pdfDirectory, fileName)));
      const result = await folio.ingestion.ingestFile({ bytes, fileName, spaceId: "bench", uploader: null });
      pages += result.pages ?? 0;
      chunks += result.chunks;
    }
    await folio.sparseVectors.rebuild("bench");
    const seconds = (performance.now() - started) / 1000;
    // maxRSS counts the whole process, parse worker threads included (kilobytes on Linux).
    const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    return { files: files.length, pages, chunks, seconds, peakRssMb };
  } finally {
    await folio.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
