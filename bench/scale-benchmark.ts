/**
 * Vector-index scale on synthetic data: clustered unit vectors (384-d, 256 clusters) and Zipf-distributed
 * BM25 terms (100 distinct per chunk, 3–8 per query), 100 chunks a document, one chunk in twenty in
 * another space so every query filters. Per size, for the embedded store (PGlite on disk + the
 * in-memory search structures, default settings):
 * - load: chunks upserted in batches of 1,000 into a space already in memory, so its approximate index
 *   is built incrementally as they arrive (as during ingestion); then the store is closed (saving it);
 * - restart: a fresh process opens the same data directory and answers its first hybrid query — the
 *   time to that answer is "restart to ready", and its resident memory afterwards is what serving the
 *   space costs (no load-time garbage in it);
 * - that process then measures dense / sparse / hybrid p50 and p95 and dense recall@10 against an exact
 *   scan (computed here while the chunks were generated, over the queried space's float32 vectors).
 * Qdrant too when QDRANT_URL is set (load, latency and recall; a scratch collection, deleted after).
 * --structures measures the same search structures without PGlite: the chunks go straight into the
 * in-memory index, and the restarted process reads its rows from a flat file (scale-structures-file.ts)
 * — for the sizes whose ingestion through PGlite takes hours on a loaded 2-core machine.
 * Usage: tsx bench/scale-benchmark.ts [--sizes 100000,500000] [--queries 100] [--structures] [--keep DIR]
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { QdrantClient } from "@qdrant/js-client-rest";
import type { SparseVector } from "../src/domain/types.js";
import { type LatencySummary, summarizeLatency } from "../src/evaluation/latency.js";
import { silentLogger } from "../src/logger.js";
import { DEFAULT_APPROXIMATE_INDEX_SETTINGS, type DenseQuantization } from "../src/stores/approximate-dense-index.js";
import { DenseIndexSnapshots } from "../src/stores/dense-index-snapshots.js";
import { InMemorySpaceIndex, type SpaceSource } from "../src/stores/in-memory-space-index.js";
import { openStores } from "../src/stores/open-stores.js";
import { openQdrantIndex } from "../src/stores/qdrant-index.js";
import { fuseHybridLists } from "../src/stores/reciprocal-rank-fusion.js";
import { candidateQuery, type IndexedChunk, type VectorIndex } from "../src/stores/vector-index.js";
import { createSeededRandom } from "../test/support/seeded-random.js";
import { ChunkRowsWriter, fileSpaceSource, rowsFileVersion } from "./scale-structures-file.js";

const DIMENSIONS = 384;
const VOCABULARY = 50_000;
const CLUSTERS = 256;
const BATCH = 1000;
const CHUNKS_PER_DOCUMENT = 100;
const TERMS_PER_CHUNK = 100;
const CANDIDATES = 50; // the hybrid retriever's default per-list candidates
const FUSION = { k: 60, denseWeight: 2, sparseWeight: 1 };

const { values } = parseArgs({
  options: {
    sizes: { type: "string" },
    queries: { type: "string" },
    keep: { type: "string" },
    "serve-from": { type: "string" },
    workload: { type: "string" },
    structures: { type: "boolean" },
  },
});

type Query = { dense: number[]; sparse: SparseVector; exactTop10: string[] };
type Workload = { spaceId: string; queries: Query[] };
type Row = {
  store: string;
  chunks: number;
  loadSeconds: number | null;
  restartSeconds: number | null;
  rssMb: number | null;
  dense: LatencySummary;
  sparse: LatencySummary;
  hybrid: LatencySummary;
  denseRecallAt10: number;
  loadAverage: string;
};

function generator(seed: number) {
  const random = createSeededRandom(seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
  const normalize = (vector: number[]) => {
    const norm = Math.hypot(...vector);
    return vector.map((value) => value / norm);
  };
  const centers = Array.from({ length: CLUSTERS }, () => normalize(Array.from({ length: DIMENSIONS }, gaussian)));
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
  const zipfTerm = () => {
    const target = random();
    let low = 0;
    let high = VOCABULARY - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] ?? 1) < target) low = middle + 1;
      else high = middle;
    }
    return low * 7919 + 13; // spread ids like hashed terms
  };
  return {
    random,
    clusteredVector(): number[] {
      const center = centers[Math.floor(random() * CLUSTERS)] ?? [];
      return normalize(center.map((value) => value + 0.6 * (gaussian() / Math.sqrt(DIMENSIONS))));
    },
    sparseVector(terms: number): SparseVector {
      const ids = new Set<number>();
      while (ids.size < terms) ids.add(zipfTerm());
      const indices = [...ids].sort((left, right) => left - right);
      return { indices, values: indices.map(() => 0.5 + random() * 1.5) };
    },
  };
}

/** The exact top 10 of each query over the vectors seen so far, kept while the chunks are generated. */
class ExactTop10 {
  private readonly best: Array<Array<{ id: string; score: number }>>;
  constructor(private readonly queries: Float32Array[]) {
    this.best = queries.map(() => []);
  }
  offer(chunkId: string, dense: number[]): void {
    this.queries.forEach((query, index) => {
      let score = 0;
      for (let dimension = 0; dimension < DIMENSIONS; dimension += 1) {
        score += Math.fround(dense[dimension] ?? 0) * (query[dimension] ?? 0);
      }
      const list = this.best[index] ?? [];
      if (list.length === 10 && score <= (list[9]?.score ?? -2)) return;
      list.push({ id: chunkId, score });
      list.sort((left, right) => right.score - left.score);
      if (list.length > 10) list.pop();
    });
  }
  top(index: number): string[] {
    return (this.best[index] ?? []).map((entry) => entry.id);
  }
}

/** Upserts `size` chunks into `index`; returns the queries with their exact answers, and the seconds it took. */
async function load(
  index: VectorIndex,
  size: number,
  queryCount: number,
): Promise<{ workload: Workload; seconds: number }> {
  const data = generator(20261124);
  const spaceId = `scale:${randomUUID()}`;
  const queries = Array.from({ length: queryCount }, () => ({
    dense: data.clusteredVector(),
    sparse: data.sparseVector(3 + Math.floor(data.random() * 6)),
  }));
  const exact = new ExactTop10(queries.map((query) => Float32Array.from(query.dense)));
  // The space is in memory from the start, so its index grows with each batch as during ingestion.
  await index.queryDense(queries[0]?.dense ?? [], { spaceIds: [spaceId], limit: 1 });
  const started = performance.now();
  let documentId = randomUUID();
  for (let start = 0; start < size; start += BATCH) {
    const batch: IndexedChunk[] = Array.from({ length: Math.min(BATCH, size - start) }, (_, offset) => {
      if ((start + offset) % CHUNKS_PER_DOCUMENT === 0) documentId = randomUUID();
      const chunkId = randomUUID();
      const dense = data.clusteredVector();
      const inSpace = (start + offset) % 20 !== 19;
      if (inSpace) exact.offer(chunkId, dense);
      return {
        chunkId,
        documentId,
        spaceId: inSpace ? spaceId : `${spaceId}:other`,
        dense,
        denseModel: "synthetic",
        sparse: data.sparseVector(TERMS_PER_CHUNK),
      };
    });
    await index.upsert(batch);
    if ((start / BATCH) % 50 === 49) {
      process.stderr.write(`  loaded ${start + BATCH} in ${Math.round((performance.now() - started) / 1000)} s\n`);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    workload: { spaceId, queries: queries.map((query, position) => ({ ...query, exactTop10: exact.top(position) })) },
    seconds,
  };
}

async function measureQueries(index: VectorIndex, workload: Workload) {
  const timings = { dense: [] as number[], sparse: [] as number[], hybrid: [] as number[] };
  let recallHits = 0;
  let recallTotal = 0;
  const request = { spaceIds: [workload.spaceId], limit: 10 };
  for (const query of workload.queries) {
    let started = performance.now();
    const denseHits = await index.queryDense(query.dense, request);
    timings.dense.push(performance.now() - started);
    started = performance.now();
    await index.querySparse(query.sparse, request);
    timings.sparse.push(performance.now() - started);
    started = performance.now();
    await index.queryHybrid({
      ...request,
      dense: query.dense,
      sparse: query.sparse,
      candidates: CANDIDATES,
      fusion: FUSION,
    });
    timings.hybrid.push(performance.now() - started);
    const found = new Set(denseHits.map((hit) => hit.chunkId));
    recallHits += query.exactTop10.filter((chunkId) => found.has(chunkId)).length;
    recallTotal += query.exactTop10.length;
  }
  return {
    dense: summarizeLatency(timings.dense),
    sparse: summarizeLatency(timings.sparse),
    hybrid: summarizeLatency(timings.hybrid),
    denseRecallAt10: Math.round((1000 * recallHits) / Math.max(recallTotal, 1)) / 1000,
  };
}

const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");

const openEmbedded = (dataDir: string) =>
  openStores({ mode: "embedded", dataDir }, { denseDimensions: DIMENSIONS, logger: silentLogger });

/** The restarted process: opens the data directory, answers one query, then measures. Prints one JSON line. */
async function serve(dataDir: string, workloadFile: string): Promise<void> {
  const workload = JSON.parse(await readFile(workloadFile, "utf8")) as Workload;
  const started = performance.now();
  const stores = await openEmbedded(dataDir);
  const openSeconds = (performance.now() - started) / 1000;
  const index = stores.vectorIndex;
  if (!index) throw new Error("no vector index");
  const first = workload.queries[0];
  if (first) {
    await index.queryHybrid({
      spaceIds: [workload.spaceId],
      limit: 10,
      dense: first.dense,
      sparse: first.sparse,
      candidates: CANDIDATES,
      fusion: FUSION,
    });
  }
  const restartSeconds = (performance.now() - started) / 1000;
  const measured = await measureQueries(index, workload);
  globalThis.gc?.();
  const rssMb = Math.round(process.memoryUsage().rss / 2 ** 20);
  process.stderr.write(
    `  restart: database open in ${openSeconds.toFixed(1)} s, first answer at ${restartSeconds.toFixed(1)} s\n`,
  );
  writeMemoryBreakdown();
  process.stdout.write(`${JSON.stringify({ restartSeconds, rssMb, ...measured, loadAverage: loadAverage() })}\n`);
  await stores.client.close();
}

/**
 * --structures: the embedded store's search structures (InMemorySpaceIndex, its approximate index and
 * snapshots) without PGlite underneath; the rows a restart reads come from a flat file instead.
 */
function structuresIndex(memory: InMemorySpaceIndex, writer: ChunkRowsWriter | null): VectorIndex {
  const unsupported = () => Promise.reject(new Error("not used by the benchmark"));
  return {
    denseDimensions: DIMENSIONS,
    async upsert(chunks) {
      writer?.write(chunks);
      await memory.stored(chunks);
    },
    updateSparse: unsupported,
    updateDense: unsupported,
    deleteByDocument: unsupported,
    countByDenseModel: unsupported,
    queryDense: (vector, query) => memory.queryDense(vector, query),
    querySparse: (vector, query) => memory.querySparse(vector, query),
    async queryHybrid(query) {
      const perList = candidateQuery(query);
      const [dense, sparse] = await Promise.all([
        memory.queryDense(query.dense, perList),
        memory.querySparse(query.sparse, perList),
      ]);
      return fuseHybridLists(dense, sparse, query);
    },
    close: () => memory.close(),
  };
}

/**
 * FOLIO_DENSE_EF_SEARCH and FOLIO_DENSE_QUANTIZATION, when set, override the default search breadth and
 * the vectors' precision in the index (both processes read them).
 */
const structuresSettings = {
  ...DEFAULT_APPROXIMATE_INDEX_SETTINGS,
  quantization: (process.env.FOLIO_DENSE_QUANTIZATION ??
    DEFAULT_APPROXIMATE_INDEX_SETTINGS.quantization) as DenseQuantization,
  expansionSearch: Number(process.env.FOLIO_DENSE_EF_SEARCH ?? DEFAULT_APPROXIMATE_INDEX_SETTINGS.expansionSearch),
};

const structuresFiles = (directory: string, size: number) => ({
  rows: path.join(directory, `rows-${size}.bin`),
  snapshots: new DenseIndexSnapshots(path.join(directory, `dense-index-${size}`), DIMENSIONS, structuresSettings),
});

async function serveStructures(directory: string, size: number, workloadFile: string): Promise<void> {
  const workload = JSON.parse(await readFile(workloadFile, "utf8")) as Workload;
  const started = performance.now();
  const files = structuresFiles(directory, size);
  const memory = new InMemorySpaceIndex(DIMENSIONS, fileSpaceSource(files.rows), {
    snapshots: files.snapshots,
    settings: { approximate: structuresSettings },
  });
  const index = structuresIndex(memory, null);
  const first = workload.queries[0];
  if (first) {
    await index.queryHybrid({
      spaceIds: [workload.spaceId],
      limit: 10,
      dense: first.dense,
      sparse: first.sparse,
      candidates: CANDIDATES,
      fusion: FUSION,
    });
  }
  const restartSeconds = (performance.now() - started) / 1000;
  process.stderr.write(`  ${JSON.stringify(await memory.describe(workload.spaceId))}\n`);
  const measured = await measureQueries(index, workload);
  globalThis.gc?.();
  const rssMb = Math.round(process.memoryUsage().rss / 2 ** 20);
  writeMemoryBreakdown();
  process.stdout.write(`${JSON.stringify({ restartSeconds, rssMb, ...measured, loadAverage: loadAverage() })}\n`);
}

/** Where the resident memory is: V8's heap, and memory outside it (typed arrays' buffers, native code's). */
function writeMemoryBreakdown(): void {
  const usage = process.memoryUsage();
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  process.stderr.write(
    `  memory MB: rss ${mb(usage.rss)}, V8 heap used ${mb(usage.heapUsed)} of ${mb(usage.heapTotal)}, array buffers ${mb(usage.arrayBuffers)}, rest (native: usearch, PGlite's worker, Node) ${mb(usage.rss - usage.heapTotal - usage.arrayBuffers)}\n`,
  );
}

async function structuresRow(size: number, queryCount: number): Promise<Row> {
  const directory = values.keep ?? (await mkdtemp(path.join(tmpdir(), "folio-scale-")));
  try {
    const files = structuresFiles(directory, size);
    const writer = new ChunkRowsWriter(files.rows);
    // Nothing to load (the space starts empty); its version is the rows file's, as the restart reads it.
    const nothingStored: SpaceSource = {
      async *rows() {},
      async *dense() {},
      version: async () => rowsFileVersion(files.rows),
    };
    const memory = new InMemorySpaceIndex(DIMENSIONS, nothingStored, {
      snapshots: files.snapshots,
      settings: { approximate: structuresSettings },
    });
    const { workload, seconds } = await load(structuresIndex(memory, writer), size, queryCount);
    const closing = performance.now();
    await memory.close(); // saves the approximate index
    process.stderr.write(`  index saved in ${((performance.now() - closing) / 1000).toFixed(1)} s\n`);
    writer.close();
    const workloadFile = path.join(directory, `workload-${size}.json`);
    await writeFile(workloadFile, JSON.stringify(workload));
    const served = JSON.parse(
      await runChild(["--serve-from", directory, "--workload", workloadFile, "--structures", "--sizes", String(size)]),
    ) as Omit<Row, "store" | "chunks" | "loadSeconds">;
    return {
      store: "embedded search structures (no PGlite)",
      chunks: size,
      loadSeconds: Math.round(seconds),
      ...served,
    };
  } finally {
    if (!values.keep) await rm(directory, { recursive: true, force: true });
  }
}

function runChild(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--expose-gc", "--max-old-space-size=4096", "--import", "tsx", fileURLToPath(import.meta.url), ...args],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`the restarted process exited with ${code}`)),
    );
  });
}

async function embeddedRow(size: number, queryCount: number): Promise<Row> {
  const directory = values.keep ?? (await mkdtemp(path.join(tmpdir(), "folio-scale-")));
  const dataDir = path.join(directory, `db-${size}`);
  try {
    const stores = await openEmbedded(dataDir);
    if (!stores.vectorIndex) throw new Error("no vector index");
    const { workload, seconds } = await load(stores.vectorIndex, size, queryCount);
    await stores.vectorIndex.close(); // saves the approximate index
    await stores.client.close();
    const workloadFile = path.join(directory, `workload-${size}.json`);
    await writeFile(workloadFile, JSON.stringify(workload));
    const served = JSON.parse(await runChild(["--serve-from", dataDir, "--workload", workloadFile])) as Omit<
      Row,
      "store" | "chunks" | "loadSeconds"
    >;
    return { store: "embedded", chunks: size, loadSeconds: Math.round(seconds), ...served };
  } finally {
    if (!values.keep) await rm(directory, { recursive: true, force: true });
  }
}

async function qdrantRow(url: string, size: number, queryCount: number): Promise<Row> {
  const apiKey = process.env.QDRANT_API_KEY ?? null;
  const admin = new QdrantClient({ url, checkCompatibility: false, headers: apiKey ? { "api-key": apiKey } : {} });
  const collection = `folio_bench_${randomUUID().replaceAll("-", "")}`;
  const index = await openQdrantIndex({ url, apiKey, collection, denseDimensions: DIMENSIONS, logger: silentLogger });
  try {
    const { workload, seconds } = await load(index, size, queryCount);
    const measured = await measureQueries(index, workload);
    return {
      store: "qdrant",
      chunks: size,
      loadSeconds: Math.round(seconds),
      restartSeconds: null,
      rssMb: null,
      ...measured,
      loadAverage: loadAverage(),
    };
  } finally {
    await admin.deleteCollection(collection);
  }
}

const format = (value: number | null, digits = 0) => (value === null ? "n/a" : value.toFixed(digits));

if (values["serve-from"] && values.workload && values.structures) {
  await serveStructures(values["serve-from"], Number(values.sizes), values.workload);
} else if (values["serve-from"] && values.workload) {
  await serve(values["serve-from"], values.workload);
} else {
  const sizes = (values.sizes ?? "100000").split(",").map(Number);
  const queryCount = Number(values.queries ?? 100);
  const rows: Row[] = [];
  for (const size of sizes) {
    const row = values.structures ? await structuresRow(size, queryCount) : await embeddedRow(size, queryCount);
    rows.push(row);
    process.stderr.write(`${JSON.stringify(row)}\n`);
  }
  const qdrantUrl = process.env.QDRANT_URL;
  if (qdrantUrl) {
    for (const size of sizes) {
      const row = await qdrantRow(qdrantUrl, size, queryCount);
      rows.push(row);
      process.stderr.write(`${JSON.stringify(row)}\n`);
    }
  }
  process.stdout.write(
    [
      "| store | chunks | load s | restart to ready s | RSS MB | dense p50 / p95 ms | sparse p50 / p95 ms | hybrid p50 / p95 ms | dense recall@10 | load average (1/5/15 min) |",
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
      ...rows.map(
        (row) =>
          `| ${row.store} | ${row.chunks} | ${format(row.loadSeconds)} | ${format(row.restartSeconds, 1)} | ${format(row.rssMb)} | ${row.dense.p50} / ${row.dense.p95} | ${row.sparse.p50} / ${row.sparse.p95} | ${row.hybrid.p50} / ${row.hybrid.p95} | ${row.denseRecallAt10} | ${row.loadAverage} |`,
      ),
      "",
    ].join("\n"),
  );
}
