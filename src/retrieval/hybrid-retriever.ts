/**
 * Retrieval in every mode over one vector index: `sparse` (BM25), `dense` (embedding cosine), `hybrid`
 * (both lists fused by reciprocal rank fusion inside the index — one Query API call on Qdrant) and
 * `hybrid+rerank` (the fused top N rescored by a cross-encoder). The asker's spaces filter every list
 * inside the index query, so a chunk of another space is never a candidate.
 */
import type { SearchResult } from "../domain/types.js";
import type { Embedder } from "../embedding/embedder.js";
import { FolioError } from "../errors.js";
import type { Reranker } from "../rerank/reranker.js";
import type { Catalog } from "../stores/catalog.js";
import type { FusionParameters, ScoredChunkId, VectorIndex } from "../stores/vector-index.js";
import { correctQuerySpelling } from "./query-spelling.js";
import { type RetrievalMode, type Retriever, type SearchRequest, timeSearchStage } from "./retriever.js";
import { joinSearchResults, sparseQueryVector } from "./sparse-retriever.js";
import type { SpellingDictionary } from "./spelling-dictionary.js";

export type RetrievalSettings = {
  /** The mode used when a request names none. */
  defaultMode: RetrievalMode;
  /** Candidates each list (dense, sparse) contributes to fusion. */
  candidates: number;
  fusion: FusionParameters;
  /** How many fused results the cross-encoder rescores. */
  rerankCandidates: number;
  /** Characters of each passage the cross-encoder reads (its cost grows with length). */
  rerankPassageCharacters: number;
};

/**
 * Fusion weights were tuned on SciFact's train split (809 queries; `bench/tune-fusion.ts`) and checked
 * on Northwind, never on SciFact's test queries: at k = 60, dense weight 2 gave nDCG@10 0.7528 on train
 * (weight 1: 0.7514) and 209 of 249 Northwind page hits@5 (weight 1: 206). A smaller k (5–10) was
 * ~0.008 better on train and equal on Northwind; k stays at the customary 60.
 */
export const DEFAULT_RETRIEVAL_SETTINGS: RetrievalSettings = {
  defaultMode: "hybrid",
  candidates: 50,
  fusion: { k: 60, denseWeight: 2, sparseWeight: 1 },
  rerankCandidates: 20,
  rerankPassageCharacters: 1200,
};

export function createHybridRetriever(options: {
  catalog: Catalog;
  vectorIndex: VectorIndex;
  /** Null: only sparse retrieval is possible (no embedding model). */
  embedder: Embedder | null;
  /** Null: `hybrid+rerank` is refused (no cross-encoder configured). */
  reranker: Reranker | null;
  /** Null: questions are searched as typed (src/retrieval/query-spelling.ts). */
  spellingDictionary: SpellingDictionary | null;
  settings: RetrievalSettings;
}): Retriever {
  const { catalog, vectorIndex, embedder, reranker, spellingDictionary, settings } = options;

  function requireEmbedder(mode: RetrievalMode): Embedder {
    if (!embedder) {
      throw new FolioError("embedder_missing", `Retrieval mode ${mode} needs an embedding model; none is loaded.`);
    }
    return embedder;
  }

  async function hybridHits(request: SearchRequest, limit: number, mode: RetrievalMode): Promise<ScoredChunkId[]> {
    const model = requireEmbedder(mode);
    const [dense, sparse] = await Promise.all([
      timeSearchStage(request, "embed", () => model.embedQuery(request.query, { signal: request.signal })),
      timeSearchStage(request, "sparseQuery", () => sparseQueryVector(catalog, request.query, request.spaceIds)),
    ]);
    return timeSearchStage(request, "hybrid", () =>
      vectorIndex.queryHybrid({
        spaceIds: request.spaceIds,
        limit,
        dense,
        sparse,
        candidates: Math.max(settings.candidates, limit),
        fusion: settings.fusion,
      }),
    );
  }

  async function rerank(request: SearchRequest, results: SearchResult[]): Promise<SearchResult[]> {
    if (!reranker) {
      throw new FolioError(
        "reranker_missing",
        "Retrieval mode hybrid+rerank needs a cross-encoder — set FOLIO_RERANK_MODEL to a model folder in FOLIO_MODELS_DIR.",
      );
    }
    const scores = await timeSearchStage(request, "rerank", () =>
      reranker.score(
        request.query,
        results.map((result) => `${result.title}\n${result.text}`.slice(0, settings.rerankPassageCharacters)),
        { signal: request.signal },
      ),
    );
    return results
      .map((result, index) => ({ result: { ...result, score: scores[index] ?? Number.NEGATIVE_INFINITY }, index }))
      .sort((left, right) => right.result.score - left.result.score || left.index - right.index)
      .map((entry) => entry.result);
  }

  /** The question with misspelt words repaired from the searched spaces' own vocabulary. */
  async function correctedRequest(request: SearchRequest): Promise<SearchRequest> {
    if (!spellingDictionary) return request;
    const corrected = await timeSearchStage(request, "spelling", () =>
      correctQuerySpelling(request.query, {
        dictionary: spellingDictionary,
        documentFrequencies: async (termIds) =>
          (await catalog.getTermStatistics(request.spaceIds, termIds)).documentFrequencies,
      }),
    );
    if (corrected.corrections.length === 0) return request;
    request.onQueryCorrected?.(corrected);
    return { ...request, query: corrected.text };
  }

  async function search(original: SearchRequest): Promise<SearchResult[]> {
    if (original.spaceIds.length === 0 || original.limit <= 0) return [];
    const request = await correctedRequest(original);
    const mode = request.mode ?? settings.defaultMode;
    const query = { spaceIds: request.spaceIds, limit: request.limit };
    let hits: ScoredChunkId[];
    if (mode === "sparse") {
      const vector = await timeSearchStage(request, "sparseQuery", () =>
        sparseQueryVector(catalog, request.query, request.spaceIds),
      );
      hits =
        vector.indices.length === 0
          ? []
          : await timeSearchStage(request, "sparse", () => vectorIndex.querySparse(vector, query));
    } else if (mode === "dense") {
      const model = requireEmbedder(mode);
      const vector = await timeSearchStage(request, "embed", () =>
        model.embedQuery(request.query, { signal: request.signal }),
      );
      hits = await timeSearchStage(request, "dense", () => vectorIndex.queryDense(vector, query));
    } else if (mode === "hybrid") {
      hits = await hybridHits(request, request.limit, mode);
    } else {
      hits = await hybridHits(request, Math.max(request.limit, settings.rerankCandidates), mode);
    }
    const results = await timeSearchStage(request, "join", () => joinSearchResults(catalog, hits));
    if (mode !== "hybrid+rerank") return results;
    const head = results.slice(0, settings.rerankCandidates);
    return [...(await rerank(request, head)), ...results.slice(settings.rerankCandidates)].slice(0, request.limit);
  }

  return { search };
}
