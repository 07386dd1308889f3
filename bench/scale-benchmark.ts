/**
 * Vector-index latency at scale on synthetic data: clustered unit vectors (384-d) and Zipf-distributed
 * BM25 terms (~100 distinct per chunk, 3–8 per query), in one space among others. Reports, per size:
 * load time, dense / sparse / hybrid query p50 and p95, and the HNSW dense recall@10 against exact
 * search. Embedded store (PGlite + pgvector + in-memory postings) always; Qdrant (HNSW, a scratch
 * collection per size, deleted afterwards) too when QDRANT_URL is set.
 * Usage: tsx bench/scale-benchmark.ts [--sizes 10000,100000] [--queries 50]
 */
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { QdrantClient } from "@qdrant/js-client-rest";
import type { SparseVector } from "../src/domain/types.js";
import { summarizeLatency } from "../src/evaluation/latency.js";
import { silentLogger } from "../src/logger.js";
import { openStores } from "../src/stores/open-stores.js";
import { openQdrantIndex } from "../src/stores/qdrant-index.js";
import type { IndexedChunk, VectorIndex } from "../src/stores/vector-index.js";
import { createSeededRandom } from "../test/support/seeded-random.js";

const DIMENSIONS = 384;
const VOCABULARY = 50_000;
const CLUSTERS = 256;
const BATCH = 1000;

const { values } = parseArgs({ options: { sizes: { type: "string" }, queries: { type: "string" } } });
const sizes = (values.sizes ?? "10000,100000").split(",").map(Number);
const queryCount = Number(values.queries ?? 50);
const random = createSeededRandom(20261124);

function gaussian(): number {
  return Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
}
function normalize(vector: number[]): number[] {
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}
const centers = Array.from({ length: CLUSTERS }, () => normalize(Array.from({ length: DIMENSIONS }, gaussian)));
function clusteredVector(): number[] {
  const center = centers[Math.floor(random() * CLUSTERS)] ?? [];
  return normalize(center.map((value) => value + 0.6 * (gaussian() / Math.sqrt(DIMENSIONS))));
}
/** Zipf(s = 1.07) over the vocabulary by inverse transform on a precomputed cumulative table. */
const cumulative = (() => {
  const table = new Float64Array(VOCABULARY);
  let sum = 0;
  for (let rank = 1; rank <= VOCABULARY; rank += 1) {
    sum += 1 / rank ** 1.07;
    table[rank - 1] = sum;
  }
  return table.map((value) => value / sum);
})();
function zipfTerm(): number {
  const target = random();
  let low = 0;
  let high = VOCABULARY - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((cumulative[middle] ?? 1) < target) low = middle + 1;
    else high = middle;
  }
  return low * 7919 + 13; // spread ids like hashed terms
}
function sparseVector(terms: number): SparseVector {
  const ids = new Set<number>();
  while (ids.size < terms) ids.add(zipfTerm());
  const indices = [...ids].sort((left, right) => left - right);
  return { indices, values: indices.map(() => 0.5 + random() * 1.5) };
}
function exactTop(ids: string[], vectors: Float32Array, query: number[], limit: number): string[] {
  const scored: Array<{ id: string; score: number }> = [];
  for (let row = 0; row < ids.length; row += 1) {
    let score = 0;
    const offset = row * DIMENSIONS;
    for (let dimension = 0; dimension < DIMENSIONS; dimension += 1) {
      score += (vectors[offset + dimension] ?? 0) * (query[dimension] ?? 0);
    }
    scored.push({ id: ids[row] ?? "", score });
  }
  return scored
    .sort((left, right) => right.score - left.score)
    .slice(0, limit)
    .map((entry) => entry.id);
}

async function measure(name: string, index: VectorIndex, size: number) {
  const spaceId = `scale:${randomUUID()}`;
  // Every vector of the queried space, for exact search to measure the HNSW index's recall against.
  const exactIds: string[] = [];
  const exactVectors = new Float32Array(size * DIMENSIONS);
  const loadStarted = performance.now();
  for (let start = 0; start < size; start += BATCH) {
    const batch: IndexedChunk[] = Array.from({ length: Math.min(BATCH, size - start) }, (_, offset) => {
      const chunkId = randomUUID();
      const dense = clusteredVector();
      // One chunk in twenty belongs to another space, so every query filters.
      const inSpace = (start + offset) % 20 !== 19;
      if (inSpace) {
        exactVectors.set(dense, exactIds.length * DIMENSIONS);
        exactIds.push(chunkId);
      }
      return {
        chunkId,
        documentId: randomUUID(),
        spaceId: inSpace ? spaceId : `${spaceId}:other`,
        dense,
        denseModel: "synthetic",
        sparse: sparseVector(100),
      };
    });
    await index.upsert(batch);
  }
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const timings = { dense: [] as number[], sparse: [] as number[], hybrid: [] as number[] };
  let recallHits = 0;
  let recallTotal = 0;
  for (let query = 0; query < queryCount; query += 1) {
    const dense = clusteredVector();
    const sparse = sparseVector(3 + Math.floor(random() * 6));
    const request = { spaceIds: [spaceId], limit: 10 };
    let started = performance.now();
    const denseHits = await index.queryDense(dense, request);
    timings.dense.push(performance.now() - started);
    started = performance.now();
    await index.querySparse(sparse, request);
    timings.sparse.push(performance.now() - started);
    started = performance.now();
    await index.queryHybrid({
      ...request,
      dense,
      sparse,
      candidates: 50,
      fusion: { k: 60, denseWeight: 2, sparseWeight: 1 },
    });
    timings.hybrid.push(performance.now() - started);
    const exact = exactTop(exactIds, exactVectors, dense, 10);
    const found = new Set(denseHits.map((hit) => hit.chunkId));
    recallHits += exact.filter((chunkId) => found.has(chunkId)).length;
    recallTotal += exact.length;
    if (denseHits.length < 10) throw new Error(`${name}: a dense query returned ${denseHits.length} of 10`);
  }
  return {
    store: name,
    chunks: size,
    loadSeconds: Math.round(loadSeconds),
    dense: summarizeLatency(timings.dense),
    sparse: summarizeLatency(timings.sparse),
    hybrid: summarizeLatency(timings.hybrid),
    denseRecallAt10: Math.round((1000 * recallHits) / Math.max(recallTotal, 1)) / 1000,
  };
}

const rows = [];
for (const size of sizes) {
  const stores = await openStores(
    { mode: "embedded", dataDir: "memory://" },
    { denseDimensions: DIMENSIONS, logger: silentLogger },
  );
  if (!stores.vectorIndex) throw new Error("no vector index");
  const row = await measure("embedded", stores.vectorIndex, size);
  rows.push(row);
  process.stderr.write(`${JSON.stringify(row)}\n`);
  await stores.client.close();
}
const qdrantUrl = process.env.QDRANT_URL;
if (qdrantUrl) {
  const apiKey = process.env.QDRANT_API_KEY ?? null;
  const admin = new QdrantClient({
    url: qdrantUrl,
    checkCompatibility: false,
    headers: apiKey ? { "api-key": apiKey } : {},
  });
  for (const size of sizes) {
    const collection = `folio_bench_${randomUUID().replaceAll("-", "")}`;
    const index = await openQdrantIndex({
      url: qdrantUrl,
      apiKey,
      collection,
      denseDimensions: DIMENSIONS,
      logger: silentLogger,
    });
    try {
      const row = await measure("qdrant", index, size);
      rows.push(row);
      process.stderr.write(`${JSON.stringify(row)}\n`);
    } finally {
      await admin.deleteCollection(collection);
    }
  }
}
process.stdout.write(
  [
    "| store | chunks | load s | dense p50/p95 ms | sparse p50/p95 ms | hybrid p50/p95 ms | dense recall@10 |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map(
      (row) =>
        `| ${row.store} | ${row.chunks} | ${row.loadSeconds} | ${row.dense.p50} / ${row.dense.p95} | ${row.sparse.p50} / ${row.sparse.p95} | ${row.hybrid.p50} / ${row.hybrid.p95} | ${row.denseRecallAt10} |`,
    ),
    "",
  ].join("\n"),
);
