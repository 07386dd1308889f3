/**
 * Retrieval in every mode over one vector index: `sparse` (BM25), `dense` (embedding cosine), `hybrid`
 * (both lists fused by reciprocal rank fusion inside the index — one Query API call on Qdrant) and
 * `hybrid+rerank` (the fused top N rescored by a cross-encoder). The asker's spaces filter every list
 * inside the index query, so a chunk of another space is never a candidate.
 */
import { statementsNamedIn } from "../domain/financial-statements.js";
import type { DocumentRecord, SearchResult, SpaceId } from "../domain/types.js";
import type { Embedder } from "../embedding/embedder.js";
import { FolioError } from "../errors.js";
import { type Logger, silentLogger } from "../logger.js";
import type { Reranker } from "../rerank/reranker.js";
import type { Catalog } from "../stores/catalog.js";
import { fuseReciprocalRanks } from "../stores/reciprocal-rank-fusion.js";
import type { ScoredChunkId, VectorIndex } from "../stores/vector-index.js";
import { namingTerms, targetDocuments } from "./document-targeting.js";
import { informationNeed } from "./information-need.js";
import { correctQuerySpelling } from "./query-spelling.js";
import type { RetrievalSettings } from "./retrieval-settings.js";
import { type RetrievalMode, type Retriever, type SearchRequest, timeSearchStage } from "./retriever.js";
import { joinSearchResults, sparseQueryVector } from "./sparse-retriever.js";
import type { SpellingDictionary } from "./spelling-dictionary.js";
import { preferNamedStatements, STATEMENT_CANDIDATES } from "./statement-targeting.js";
import { termId } from "./text-analyzer.js";

const DOCUMENT_LIST_TTL_MS = 30_000;
const DOCUMENT_LIST_CACHE_LIMIT = 1_000;

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
  const { catalog, vectorIndex, embedder, reranker, spellingDictionary, settings } = options;
  const logger = options.logger ?? silentLogger;

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
    return { dense, sparse };
  }

  /** One ranked list in the request's mode, optionally kept to some documents. */
  async function rankedHits(
    request: SearchRequest,
    mode: RetrievalMode,
    vectors: Awaited<ReturnType<typeof queryVectors>>,
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

  /**
   * The spaces' ready documents, listed again only when their passage count changed or the list is older
   * than DOCUMENT_LIST_TTL_MS: a library of thousands of documents is not listed on every question.
   */
  const documentLists = new Map<string, { chunkCount: number; listedAt: number; documents: DocumentRecord[] }>();
  async function readyDocuments(spaceIds: SpaceId[], chunkCount: number): Promise<DocumentRecord[]> {
    const key = [...spaceIds].sort().join("\u0000");
    const cached = documentLists.get(key);
    if (cached && cached.chunkCount === chunkCount && Date.now() - cached.listedAt < DOCUMENT_LIST_TTL_MS)
      return cached.documents;
    const lists = await Promise.all(spaceIds.map((spaceId) => catalog.listDocuments(spaceId)));
    const documents = lists.flat().filter((document) => document.status === "ready");
    if (documentLists.size >= DOCUMENT_LIST_CACHE_LIMIT) documentLists.clear();
    documentLists.set(key, { chunkCount, listedAt: Date.now(), documents });
    return documents;
  }

  /** The documents of the searched spaces that the question names in their titles (document-targeting.ts). */
  async function namedDocuments(request: SearchRequest): Promise<string[] | null> {
    if (!settings.targeting) return null;
    const targeting = settings.targeting;
    return timeSearchStage(request, "targeting", async () => {
      const terms = namingTerms(request.query);
      if (terms.length === 0) return null;
      const statistics = await catalog.getTermStatistics(request.spaceIds, terms.map(termId));
      const documents = await readyDocuments(request.spaceIds, statistics.chunkCount);
      const passageShare = new Map(
        terms.map((term) => [
          term,
          statistics.chunkCount === 0
            ? 0
            : (statistics.documentFrequencies.get(termId(term)) ?? 0) / statistics.chunkCount,
        ]),
      );
      return targetDocuments(request.query, documents, targeting, passageShare);
    });
  }

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
    return [...(await rerank(request, head)), ...results.slice(settings.rerankCandidates)].slice(0, request.limit);
  }

  return { search };
}
