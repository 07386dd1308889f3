/**
 * The ranked lists a search combines: the query's vectors (each computed once however many lists use
 * it), then one list in the request's mode — BM25, dense, or both fused inside the index — over the
 * searched spaces, optionally kept to some documents.
 */
import type { Embedder } from "../embedding/embedder.js";
import { FolioError } from "../errors.js";
import type { Catalog } from "../stores/catalog.js";
import type { ScoredChunkId, VectorIndex } from "../stores/vector-index.js";
import type { RetrievalSettings } from "./retrieval-settings.js";
import { type RetrievalMode, type SearchRequest, timeSearchStage } from "./retriever.js";
import { sparseQueryVector } from "./sparse-retriever.js";

export type QueryVectors = { dense: number[] | null; sparse: Awaited<ReturnType<typeof sparseQueryVector>> | null };

export function createRankedLists(options: {
  catalog: Catalog;
  vectorIndex: VectorIndex;
  /** Null: only sparse retrieval is possible (no embedding model). */
  embedder: Embedder | null;
  settings: Pick<RetrievalSettings, "candidates" | "fusion">;
}) {
  const { catalog, vectorIndex, embedder, settings } = options;

  function requireEmbedder(mode: RetrievalMode): Embedder {
    if (!embedder) {
      throw new FolioError("embedder_missing", `Retrieval mode ${mode} needs an embedding model; none is loaded.`);
    }
    return embedder;
  }

  /** The query's vectors, each computed once however many lists use it. */
  async function queryVectors(request: SearchRequest, mode: RetrievalMode) {
    const wantsDense = mode !== "sparse";
    const wantsSparse = mode !== "dense";
    const [dense, sparse] = await Promise.all([
      wantsDense
        ? timeSearchStage(request, "embed", () =>
            requireEmbedder(mode).embedQuery(request.query, { signal: request.signal }),
          )
        : null,
      wantsSparse
        ? timeSearchStage(request, "sparseQuery", () => sparseQueryVector(catalog, request.query, request.spaceIds))
        : null,
    ]);
    return { dense, sparse } as QueryVectors;
  }

  /** One ranked list in the request's mode, optionally kept to some documents. */
  async function rankedHits(
    request: SearchRequest,
    mode: RetrievalMode,
    vectors: QueryVectors,
    limit: number,
    documentIds: string[] | undefined,
  ): Promise<ScoredChunkId[]> {
    const query = { spaceIds: request.spaceIds, limit, documentIds };
    // The list kept to named documents runs beside the unrestricted one: each keeps its own timing.
    const stage = (name: string) => (documentIds ? `${name}.named` : name);
    if (mode === "sparse") {
      const sparse = vectors.sparse;
      if (!sparse || sparse.indices.length === 0) return [];
      return timeSearchStage(request, stage("sparse"), () => vectorIndex.querySparse(sparse, query));
    }
    if (mode === "dense") {
      const dense = vectors.dense as number[];
      return timeSearchStage(request, stage("dense"), () => vectorIndex.queryDense(dense, query));
    }
    return timeSearchStage(request, stage("hybrid"), () =>
      vectorIndex.queryHybrid({
        ...query,
        dense: vectors.dense as number[],
        sparse: vectors.sparse ?? { indices: [], values: [] },
        candidates: Math.max(settings.candidates, limit),
        fusion: settings.fusion,
      }),
    );
  }

  return { queryVectors, rankedHits };
}
