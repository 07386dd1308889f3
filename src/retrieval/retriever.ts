/**
 * The retrieval port the answer pipeline uses (src/retrieval/hybrid-retriever.ts implements every mode):
 * BM25 alone, dense alone, both fused by reciprocal rank fusion, and fused then reranked.
 */
import type { SearchResult, SpaceId } from "../domain/types.js";
import type { CorrectedQuery } from "./query-spelling.js";

export const RETRIEVAL_MODES = ["sparse", "dense", "hybrid", "hybrid+rerank"] as const;
export type RetrievalMode = (typeof RETRIEVAL_MODES)[number];

export type SearchRequest = {
  query: string;
  spaceIds: SpaceId[];
  limit: number;
  mode?: RetrievalMode;
  signal?: AbortSignal;
  /** Filled with the milliseconds each stage took (embed, sparse, dense, hybrid, join, rerank). */
  timingsMs?: Record<string, number>;
  /** Told when misspelt words of the query were repaired before searching (and what they became). */
  onQueryCorrected?: (corrected: CorrectedQuery) => void;
};

export interface Retriever {
  search(request: SearchRequest): Promise<SearchResult[]>;
}

/** Runs one stage of a search and records its milliseconds in the request's `timingsMs`, if asked. */
export async function timeSearchStage<T>(request: SearchRequest, stage: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    if (request.timingsMs) request.timingsMs[stage] = Math.round((performance.now() - started) * 10) / 10;
  }
}
