/**
 * The retrieval port the answer pipeline uses. Today's implementation is BM25 over the sparse index
 * (src/retrieval/sparse-retriever.ts); dense, hybrid (RRF) and reranking slot in behind the same call.
 */
import type { SearchResult, SpaceId } from "../domain/types.js";

export type RetrievalMode = "sparse" | "dense" | "hybrid" | "hybrid+rerank";

export type SearchRequest = {
  query: string;
  spaceIds: SpaceId[];
  limit: number;
  mode?: RetrievalMode;
  signal?: AbortSignal;
};

export interface Retriever {
  search(request: SearchRequest): Promise<SearchResult[]>;
}
