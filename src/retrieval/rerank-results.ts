/**
 * `hybrid+rerank`: the fused head of the ranking rescored by the cross-encoder, each passage read with
 * its title and cut to the characters the model reads; ties keep their fused order.
 */
import type { SearchResult } from "../domain/types.js";
import { FolioError } from "../errors.js";
import type { Reranker } from "../rerank/reranker.js";
import type { RetrievalSettings } from "./retrieval-settings.js";
import { type SearchRequest, timeSearchStage } from "./retriever.js";

export async function rerankResults(
  reranker: Reranker | null,
  settings: Pick<RetrievalSettings, "rerankPassageCharacters">,
  request: SearchRequest,
  results: SearchResult[],
): Promise<SearchResult[]> {
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
