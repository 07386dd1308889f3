/**
 * Event-loop delay while a 500-page filing is ingested and stored: what a Slack or Teams request that
 * arrives during an upload waits for. Builds a 500-page filing by joining three FinanceBench filings
 * with `pdfunite` (poppler-utils; no single filing in ../shared/data reaches 500 pages), then measures
 * the main thread's event-loop delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution as in
 * bench/ingest-benchmark.ts) in two ways, each on a fresh embedded data directory on disk:
 *
 * - `ingest`: the whole upload through the real core with FOLIO_EMBED_MODEL=none (parse in the parse
 *   worker, term counting, catalog, vector index), no embedding model.
 * - `store`: only what storing does, with a dense vector per chunk as an embedded upload has them:
 *   the same chunks and term counts (read back from the `ingest` run) stored as ingest-file.ts stores
 *   them — addDocument, term statistics, vectorIndex.upsert with 384-d vectors and BM25 vectors,
 *   markDocumentReady. The vectors are seeded random unit vectors, not a model's (the store's work does
 *   not depend on their values), so the figure is the store's and not the embedder's.
 *
 * Stalls over 20 ms (a 1 ms ticker that fell behind) are listed with the step they fell in.
 *
 *   npx tsx bench/ingest-event-loop.ts [--runs 3] [--file some.pdf] [--json]
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { createFolio, type Folio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import { createLogger, silentLogger } from "../src/logger.js";
import { documentVector } from "../src/retrieval/bm25.js";
import type { ChunkToStore } from "../src/stores/catalog.js";
import { openStores } from "../src/stores/open-stores.js";
import { mapInSlices } from "../src/workers/map-in-slices.js";
import { sharedData } from "../test/support/shared-paths.js";

type Stall = { atMs: number; ms: number; step: string };
export type EventLoopMeasure = {
  seconds: number;
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  stalls: Stall[];
};

/** 252 + 217 + 31 = 500 pages, all three unencrypted (pdfunite refuses encrypted files). */
const FILINGS = ["3M_2022_10K.pdf", "JPMORGAN_2023Q2_10Q.pdf", "FOOTLOCKER_2022_8K_dated_2022-08-19.pdf"];
const DENSE_DIMENSIONS = 384;
const toMs = (nanoseconds: number) => Math.round(nanoseconds / 1e5) / 10;

function joinedFiling(directory: string): string {
  const target = path.join(directory, "filing-500-pages.pdf");
  execFileSync("pdfunite", [...FILINGS.map((name) => sharedData("financebench-dev", "pdfs", name)), target]);
  return target;
}

/** Runs `work` with the event loop watched; `step(name)` labels the stalls that follow. */
async function watchEventLoop(work: (step: (name: string) => void) => Promise<void>): Promise<EventLoopMeasure> {
  let current = "start";
  const stalls: Stall[] = [];
  const started = performance.now();
  let last = started;
  let stepAtLastTick = current;
  const ticker = setInterval(() => {
    const now = performance.now();
    // The stall began in the step of the last tick and may have run on into later ones.
    const step = stepAtLastTick === current ? current : `${stepAtLastTick} → ${current}`;
    if (now - last > 20) stalls.push({ atMs: Math.round(last - started), ms: Math.round(now - last), step });
    last = now;
    stepAtLastTick = current;
  }, 1);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  // Garbage collections that paused the thread for 20 ms or more, as stalls of their own.
  const collections = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration >= 20) {
        stalls.push({ atMs: Math.round(entry.startTime - started), ms: Math.round(entry.duration), step: "gc" });
      }
    }
  });
  collections.observe({ entryTypes: ["gc"] });
  delay.enable();
  try {
    await work((name) => {
      current = name;
    });
    // One more turn of the loop, so a stall that lasted to the end of the work is counted too.
    current = "end";
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    delay.disable();
    clearInterval(ticker);
    collections.disconnect();
  }
  stalls.sort((left, right) => left.atMs - right.atMs);
  return {
    seconds: Math.round((performance.now() - started) / 100) / 10,
    eventLoopDelayMs: { p50: toMs(delay.percentile(50)), p99: toMs(delay.percentile(99)), max: toMs(delay.max) },
    stalls,
  };
}

/** A seeded random unit vector (xorshift), so every run stores the same vectors. */
function unitVector(seed: number): number[] {
  let state = seed * 2_654_435_761 + 1;
  const values = Array.from({ length: DENSE_DIMENSIONS }, () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) / 4_294_967_296) * 2 - 1;
  });
  const norm = Math.hypot(...values);
  return values.map((value) => value / norm);
}

type StoredFiling = Parameters<Folio["catalog"]["addDocument"]>[0];

async function ingestKeywordOnly(file: string): Promise<{ measure: EventLoopMeasure; filing: StoredFiling }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "folio-bench-loop-"));
  const { DATABASE_URL: _database, QDRANT_URL: _qdrant, ...environment } = process.env;
  const folio = await createFolio(
    loadConfig({ ...environment, FOLIO_DATA_DIR: dataDir, FOLIO_EMBED_MODEL: "none" }),
    createLogger({ level: "warn" }),
  );
  try {
    const bytes = new Uint8Array(await readFile(file));
    let documentId: string | null = null;
    const measure = await watchEventLoop(async (step) => {
      const result = await folio.ingestion.ingestFile({
        bytes,
        fileName: path.basename(file),
        spaceId: "bench",
        uploader: null,
        onProgress: step,
      });
      documentId = result.documentId;
    });
    if (documentId === null) throw new Error(`${file} was not ingested`);
    const document = await folio.catalog.getDocument(documentId);
    if (!document) throw new Error("the ingested document vanished");
    const termsByChunk = new Map(
      (await folio.catalog.listChunkTerms("bench")).map((entry) => [entry.chunkId, entry.terms]),
    );
    const chunks: ChunkToStore[] = (await folio.catalog.listChunks(documentId)).map((chunk) => ({
      kind: chunk.kind,
      text: chunk.text,
      tokenCount: chunk.tokenCount,
      position: chunk.position,
      provenance: chunk.provenance,
      terms: termsByChunk.get(chunk.id) ?? { termIds: [], counts: [], length: 0 },
    }));
    return {
      measure,
      filing: {
        document: { ...document, bytes },
        pages: await folio.catalog.getPages(documentId),
        chunks,
      },
    };
  } finally {
    await folio.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** What ingest-file.ts does once a file is parsed and embedded, on a fresh embedded store on disk. */
async function storeWithDenseVectors(filing: StoredFiling, run: number): Promise<EventLoopMeasure> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "folio-bench-store-"));
  const stores = await openStores(
    { mode: "embedded", dataDir: path.join(dataDir, "db") },
    { denseDimensions: DENSE_DIMENSIONS, logger: silentLogger },
  );
  try {
    const vectorIndex = stores.vectorIndex;
    if (!vectorIndex) throw new Error("the embedded store opened without a vector index");
    const spaceId = `bench-${run}`;
    await stores.catalog.ensureSpace(spaceId);
    // The embedder's output, made before the clock starts: the figure is the store's.
    const vectors = filing.chunks.map((_, index) => unitVector(index + 1));
    const job = await stores.catalog.createJob({ spaceId, fileName: filing.document.fileName });
    await stores.catalog.updateJob(job.id, { status: "running" });
    return await watchEventLoop(async (step) => {
      step("addDocument");
      const sha256 = createHash("sha256").update(`${filing.document.sha256}:${run}`).digest("hex");
      const stored = await stores.catalog.addDocument({
        ...filing,
        document: { ...filing.document, spaceId, sha256 },
        jobId: job.id,
      });
      step("getTermStatistics");
      const statistics = await stores.catalog.getTermStatistics([spaceId], []);
      const averageLength = statistics.chunkCount > 0 ? statistics.totalLength / statistics.chunkCount : 1;
      step("upsert");
      const termsByPosition = new Map(filing.chunks.map((chunk) => [chunk.position, chunk.terms]));
      await vectorIndex.upsert(
        await mapInSlices(stored.chunks, (chunk, index) => ({
          chunkId: chunk.id,
          documentId: stored.document.id,
          spaceId,
          dense: vectors[index],
          denseModel: "bge-small-en-v1.5",
          sparse: documentVector(
            termsByPosition.get(chunk.position) ?? { termIds: [], counts: [], length: 0 },
            averageLength,
            { k1: 0.9, b: 0.4 },
          ),
        })),
      );
      step("markDocumentReady");
      await stores.catalog.markDocumentReady(stored.document.id);
    });
  } finally {
    await stores.client.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function print(label: string, measure: EventLoopMeasure): void {
  const { p50, p99, max } = measure.eventLoopDelayMs;
  console.log(`${label}: ${measure.seconds} s; event-loop delay p50 ${p50} ms, p99 ${p99} ms, max ${max} ms`);
  for (const stall of measure.stalls) console.log(`  stall ${stall.ms} ms at ${stall.atMs} ms (${stall.step})`);
}

async function main(): Promise<void> {
  const given = process.argv.slice(2);
  const option = (name: string) => {
    const at = given.indexOf(name);
    return at >= 0 ? given[at + 1] : undefined;
  };
  const runs = Number(option("--runs") ?? 3);
  const scratch = await mkdtemp(path.join(tmpdir(), "folio-bench-filing-"));
  try {
    const file = option("--file") ?? joinedFiling(scratch);
    const ingest: EventLoopMeasure[] = [];
    const store: EventLoopMeasure[] = [];
    let pages = 0;
    let chunks = 0;
    for (let run = 0; run < runs; run += 1) {
      const { measure, filing } = await ingestKeywordOnly(file);
      ingest.push(measure);
      pages = filing.pages.length;
      chunks = filing.chunks.length;
      store.push(await storeWithDenseVectors(filing, run));
    }
    const load = loadavg().map((value) => Math.round(value * 10) / 10);
    if (given.includes("--json")) {
      console.log(JSON.stringify({ pages, chunks, loadAverage: load, ingest, store }));
      return;
    }
    console.log(`${pages} pages, ${chunks} chunks; load average ${load.join(" ")} on this machine`);
    for (let run = 0; run < runs; run += 1) {
      print(`run ${run + 1} ingest (FOLIO_EMBED_MODEL=none)`, ingest[run] as EventLoopMeasure);
      print(`run ${run + 1} store (384-d vectors)`, store[run] as EventLoopMeasure);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
