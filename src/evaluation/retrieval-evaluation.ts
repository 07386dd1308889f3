/**
 * `folio eval retrieval`: indexes a BEIR corpus into a throw-away space through the product's own
 * catalog, BM25 statistics and vector index (one chunk per BEIR document: title + text), runs every
 * judged query through the product's retriever, and scores the run with trec_eval conventions.
 */
import { createHash, randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import type { Folio } from "../composition-root.js";
import { FolioError } from "../errors.js";
import { RETRIEVAL_MODES, type Retriever } from "../retrieval/retriever.js";
import { countTerms } from "../retrieval/text-analyzer.js";
import { loadBeirDataset } from "./beir-dataset.js";
import { evaluateRun, type MetricName, type Run } from "./ir-metrics.js";
import { summarizeLatency } from "./latency.js";

/** The product's modes plus `paper-hybrid`, the seed paper's combined embedding kept for comparison. */
export const EVALUATION_MODES = [...RETRIEVAL_MODES, "paper-hybrid"] as const;
export type EvaluationMode = (typeof EVALUATION_MODES)[number];

export type RetrievalEvaluationReport = {
  dataset: string;
  mode: EvaluationMode;
  queries: number;
  documents: number;
  metrics: Record<MetricName, number>;
  latencyMs: { p50: number; p95: number };
  /**
   * Per retrieval stage (embed, sparseQuery, dense, sparse, hybrid, rerank, join), and `search`: every
   * stage but joining the hits with chunk text and document names (which grows with the 100 results
   * asked for here, not with the corpus).
   */
  stageLatencyMs: Record<string, { p50: number; p95: number }>;
  indexingSeconds: number;
};

const INDEX_BATCH = 500;

/** The text Folio indexes for one BEIR document: its title and its text, as one chunk. */
export function beirPassageText(entry: { title: string; text: string }): string {
  return `${entry.title}\n${entry.text}`;
}

export async function runRetrievalEvaluation(
  folio: Folio,
  options: {
    datasetDir: string;
    split: string;
    mode: EvaluationMode;
    depth?: number;
    /** Retrieves for `paper-hybrid`, which is not one of the product retriever's modes. */
    paperHybridRetriever?: Retriever;
    /** Writes the run as a TREC run file: `qid Q0 docid rank score tag`. */
    runOut?: string;
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
    const embedder = options.mode === "sparse" ? null : folio.embedder;
    if (options.mode !== "sparse" && !embedder) {
      throw new FolioError(
        "embedder_missing",
        `--mode ${options.mode} needs an embedding model; FOLIO_EMBED_MODEL is none.`,
      );
    }
    let pending: Array<{ chunkId: string; documentId: string; spaceId: string; text: string }> = [];
    const flush = async () => {
      const vectors = embedder ? await embedder.embedPassages(pending.map((entry) => entry.text)) : null;
      await folio.vectorIndex.upsert(
        pending.map(({ text: _text, ...entry }, index) => {
          const dense = vectors?.[index];
          return dense && embedder ? { ...entry, dense, denseModel: embedder.modelId } : entry;
        }),
      );
      pending = [];
    };
    for (const [index, entry] of dataset.corpus.entries()) {
      const text = beirPassageText(entry);
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
        // Token count is a cheap estimate here: tokenizing 5k documents only to count would dominate.
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
        pending.push({ chunkId: chunk.id, documentId: document.id, spaceId, text });
      }
      if (pending.length >= INDEX_BATCH) {
        await flush();
        options.onProgress?.(`indexed ${index + 1}/${dataset.corpus.length} documents`);
      }
    }
    await flush();
    await folio.sparseVectors.rebuild(spaceId);
    const indexingSeconds = Math.round((performance.now() - indexingStart) / 100) / 10;

    const run: Run = new Map();
    const latencies: number[] = [];
    const stageLatencies = new Map<string, number[]>();
    for (const queryId of dataset.qrels.keys()) {
      const query = dataset.queries.get(queryId);
      if (query === undefined) continue;
      const started = performance.now();
      const timingsMs: Record<string, number> = {};
      const request = { query, spaceIds: [spaceId], limit: options.depth ?? 100, timingsMs };
      const results =
        options.mode === "paper-hybrid"
          ? await requirePaperHybrid(options.paperHybridRetriever).search(request)
          : await folio.retriever.search({ ...request, mode: options.mode });
      latencies.push(performance.now() - started);
      // Stages that run side by side (embedding the question, reading BM25 statistics) overlap in time;
      // the sum is an upper bound of the search's own latency.
      timingsMs.search = Object.entries(timingsMs)
        .filter(([stage]) => stage !== "join")
        .reduce((sum, [, milliseconds]) => sum + milliseconds, 0);
      for (const [stage, milliseconds] of Object.entries(timingsMs)) {
        stageLatencies.set(stage, [...(stageLatencies.get(stage) ?? []), milliseconds]);
      }
      run.set(
        queryId,
        results.map((result) => ({ docId: docIdByChunk.get(result.chunkId) ?? result.chunkId, score: result.score })),
      );
    }
    if (options.runOut) await writeFile(options.runOut, formatTrecRun(run, `folio-${options.mode}`));
    const { queries, metrics } = evaluateRun(run, dataset.qrels);
    return {
      dataset: dataset.name,
      mode: options.mode,
      queries,
      documents: dataset.corpus.length,
      metrics,
      latencyMs: summarizeLatency(latencies),
      stageLatencyMs: Object.fromEntries(
        [...stageLatencies].map(([stage, values]) => [stage, summarizeLatency(values)]),
      ),
      indexingSeconds,
    };
  } finally {
    options.onProgress?.("removing the evaluation space");
    for (const document of await folio.catalog.listDocuments(spaceId)) await folio.core.deleteDocument(document.id);
  }
}

function requirePaperHybrid(retriever: Retriever | undefined): Retriever {
  if (!retriever) throw new FolioError("mode_unavailable", "paper-hybrid needs its retriever; none was given.");
  return retriever;
}

/** A TREC run file: one line per retrieved document, `qid Q0 docid rank score tag`, ranks from 1. */
export function formatTrecRun(run: Run, tag: string): string {
  const lines: string[] = [];
  for (const [queryId, results] of run) {
    results.forEach((result, index) => {
      lines.push(`${queryId} Q0 ${result.docId} ${index + 1} ${result.score.toFixed(6)} ${tag}`);
    });
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}
