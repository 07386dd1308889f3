/**
 * Retrieval in every mode over one vector index: `sparse` (BM25), `dense` (embedding cosine), `hybrid`
 * (both lists fused by reciprocal rank fusion inside the index — one Query API call on Qdrant) and
 * `hybrid+rerank` (the fused top N rescored by a cross-encoder). The asker's spaces filter every list
 * inside the index query, so a chunk of another space is never a candidate.
 */
import { statementsNamedIn } from "../domain/financial-statements.js";
import type { SearchResult } from "../domain/types.js";
import type { Embedder } from "../embedding/embedder.js";
import { type Logger, silentLogger } from "../logger.js";
import type { Reranker } from "../rerank/reranker.js";
import type { Catalog } from "../stores/catalog.js";
import { fuseReciprocalRanks } from "../stores/reciprocal-rank-fusion.js";
import type { ScoredChunkId, VectorIndex } from "../stores/vector-index.js";
import { informationNeed } from "./information-need.js";
import { createNamedDocuments } from "./named-documents.js";
import { correctQuerySpelling } from "./query-spelling.js";
import { createRankedLists } from "./ranked-lists.js";
import { rerankResults } from "./rerank-results.js";
import type { RetrievalSettings } from "./retrieval-settings.js";
import { type RetrievalMode, type Retriever, type SearchRequest, timeSearchStage } from "./retriever.js";
import { joinSearchResults } from "./sparse-retriever.js";
import type { SpellingDictionary } from "./spelling-dictionary.js";
import { preferNamedStatements, STATEMENT_CANDIDATES } from "./statement-targeting.js";

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
  /** Told of a hit outside the searched spaces (sparse-retriever.ts); silent when absent. */
  logger?: Logger;
}): Retriever {
  const { catalog, reranker, spellingDictionary, settings } = options;
  const logger = options.logger ?? silentLogger;
  const { queryVectors, rankedHits } = createRankedLists(options);
  const namedDocuments = createNamedDocuments({ catalog, targeting: settings.targeting });

  /**
   * The ranking over the spaces, with the named documents' passages preferred: the list kept to those
   * documents and the unrestricted list are fused with equal weight, so a passage of a named document
   * counts twice, yet a better passage elsewhere can still make the top.
   */
  async function hits(
    request: SearchRequest,
    mode: RetrievalMode,
    limit: number,
  ): Promise<{ ranked: ScoredChunkId[]; named: string[] | null }> {
    const [vectors, named] = await Promise.all([queryVectors(request, mode), namedDocuments(request)]);
    const everywhere = rankedHits(request, mode, vectors, limit, undefined);
    if (!named) return { ranked: await everywhere, named };
    const [all, preferred] = await Promise.all([everywhere, rankedHits(request, mode, vectors, limit, named)]);
    const ranked = fuseReciprocalRanks(
      [
        { results: preferred, weight: 1 },
        { results: all, weight: 1 },
      ],
      { k: settings.fusion.k, limit },
    );
    return { ranked, named };
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
    // Instructions and persona text around the question are in no document (information-need.ts).
    const need = informationNeed(original.query);
    const request = await correctedRequest(need === original.query ? original : { ...original, query: need });
    const mode = request.mode ?? settings.defaultMode;
    const limit = mode === "hybrid+rerank" ? Math.max(request.limit, settings.rerankCandidates) : request.limit;
    // A question naming a financial statement looks further down the ranking for that statement's passages.
    const statements = settings.statementTargeting ? statementsNamedIn(request.query) : [];
    const pool = statements.length > 0 ? Math.max(limit, STATEMENT_CANDIDATES) : limit;
    const { ranked, named } = await hits(request, mode, pool);
    const joined = await timeSearchStage(request, "join", () =>
      joinSearchResults(catalog, ranked, { spaceIds: request.spaceIds, logger }),
    );
    const results = preferNamedStatements(joined, statements, { k: settings.fusion.k, limit, documentIds: named });
    if (mode !== "hybrid+rerank") return results;
    const head = results.slice(0, settings.rerankCandidates);
    const reranked = await rerankResults(reranker, settings, request, head);
    return [...reranked, ...results.slice(settings.rerankCandidates)].slice(0, request.limit);
  }

  return { search };
}
