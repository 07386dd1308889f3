/**
 * The reranking port: scores (question, passage) pairs with a cross-encoder; higher is more relevant.
 * Scores are only comparable within one call.
 */
export interface Reranker {
  readonly modelId: string;
  score(query: string, passages: string[], options?: { signal?: AbortSignal }): Promise<number[]>;
}
