/**
 * `folio eval retrieval`: indexes a BEIR corpus into a throw-away space through the product's own
 * catalog, BM25 statistics and vector index (one chunk per BEIR document: title + text), runs every
 * judged query through the product's retriever, and scores the run with trec_eval conventions.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Folio } from "../composition-root.js";
import type { RetrievalMode } from "../retrieval/retriever.js";
import { countTerms } from "../retrieval/text-analyzer.js";
import { loadBeirDataset } from "./beir-dataset.js";
import { evaluateRun, type MetricName, type Run } from "./ir-metrics.js";
import { summarizeLatency } from "./latency.js";

export type RetrievalEvaluationReport = {
  dataset: string;
  mode: RetrievalMode;
  queries: number;
  documents: number;
  metrics: Record<MetricName, number>;
  latencyMs: { p50: number; p95: number };
  indexingSeconds: number;
};

const INDEX_BATCH = 500;

export async function runRetrievalEvaluation(
  folio: Folio,
  options: {
    datasetDir: string;
    split: string;
    mode: RetrievalMode;
    depth?: number;
    onProgress?: (message: string) => void;
  },
): Promise<RetrievalEvaluationReport> {
  const dataset = await loadBeirDataset(options.datasetDir, options.split);
  const spaceId = `eval:${randomUUID()}`;
  const encoder = new TextEncoder();
  const docIdByChunk = new Map<string, string>();
  const indexingStart = performance.now();
  await folio.catalog.ensureSpace(spaceId, `evaluation of ${dataset.name}`);
  try {
    let pending: Array<{ chunkId: string; documentId: string; spaceId: string }> = [];
    for (const [index, entry] of dataset.corpus.entries()) {
      const text = `${entry.title}\n${entry.text}`;
      const bytes = encoder.encode(text);
      const { document, chunks } = await folio.catalog.addDocument({
        document: {
          spaceId,
          title: entry.title || entry.id,
          fileName: `${entry.id}.txt`,
          mediaType: "text/plain",
          sha256: createHash("sha256").update(`${entry.id}\n`).update(bytes).digest("hex"),
          byteSize: bytes.byteLength,
          pageCount: null,
          uploader: null,
          bytes,
        },
        pages: [],
        // Token count is a cheap estimate here: evaluation never embeds, and tokenizing 5k documents would dominate.
        chunks: [
          {
            kind: "text",
            text,
            tokenCount: Math.ceil(text.split(/\s+/).length * 1.3) + 2,
            position: 0,
            provenance: {},
            terms: countTerms(text),
          },
        ],
      });
      for (const chunk of chunks) {
        docIdByChunk.set(chunk.id, entry.id);
        pending.push({ chunkId: chunk.id, documentId: document.id, spaceId });
      }
      if (pending.length >= INDEX_BATCH) {
        await folio.vectorIndex.upsert(pending);
        pending = [];
        options.onProgress?.(`indexed ${index + 1}/${dataset.corpus.length} documents`);
      }
    }
    await folio.vectorIndex.upsert(pending);
    await folio.sparseVectors.rebuild(spaceId);
    const indexingSeconds = Math.round((performance.now() - indexingStart) / 100) / 10;

    const run: Run = new Map();
    const latencies: number[] = [];
    for (const queryId of dataset.qrels.keys()) {
      const query = dataset.queries.get(queryId);
      if (query === undefined) continue;
      const started = performance.now();
      const results = await folio.retriever.search({
        query,
        spaceIds: [spaceId],
        limit: options.depth ?? 100,
        mode: options.mode,
      });
      latencies.push(performance.now() - started);
      run.set(
        queryId,
        results.map((result) => ({ docId: docIdByChunk.get(result.chunkId) ?? result.chunkId, score: result.score })),
      );
    }
    const { queries, metrics } = evaluateRun(run, dataset.qrels);
    return {
      dataset: dataset.name,
      mode: options.mode,
      queries,
      documents: dataset.corpus.length,
      metrics,
      latencyMs: summarizeLatency(latencies),
      indexingSeconds,
    };
  } finally {
    options.onProgress?.("removing the evaluation space");
    for (const document of await folio.catalog.listDocuments(spaceId)) await folio.core.deleteDocument(document.id);
  }
}
