/**
 * Keyword retrieval pieces: the BM25 query vector, whose IDF comes from the live statistics of exactly
 * the spaces being searched, and the join of index hits with chunk text and document names.
 */
import type { DocumentRecord, SearchResult, SpaceId, SparseVector } from "../domain/types.js";
import type { Logger } from "../logger.js";
import type { Catalog } from "../stores/catalog.js";
import type { ScoredChunkId } from "../stores/vector-index.js";
import { queryVector } from "./bm25.js";
import { countTerms } from "./text-analyzer.js";

/** The BM25 query vector for `query` over `spaceIds`; empty when no query term occurs there. */
export async function sparseQueryVector(catalog: Catalog, query: string, spaceIds: SpaceId[]): Promise<SparseVector> {
  const queryTerms = countTerms(query);
  if (queryTerms.termIds.length === 0) return { indices: [], values: [] };
  const statistics = await catalog.getTermStatistics(spaceIds, queryTerms.termIds);
  return queryVector(queryTerms, statistics);
}

/**
 * Turns index hits into SearchResults with chunk text, provenance and document names, keeping hit order.
 * Every row is checked against the spaces searched (issue #30): an index names chunks by id, and an
 * index saved to disk could name another space's chunk (a damaged or altered file), so a chunk or
 * document of a space not asked about is dropped, with a warning, never quoted.
 */
export async function joinSearchResults(
  catalog: Catalog,
  hits: ScoredChunkId[],
  scope: { spaceIds: readonly SpaceId[]; logger: Logger },
): Promise<SearchResult[]> {
  if (hits.length === 0) return [];
  const searched = new Set(scope.spaceIds);
  const chunks = new Map((await catalog.getChunks(hits.map((hit) => hit.chunkId))).map((chunk) => [chunk.id, chunk]));
  const documentIds = [...new Set([...chunks.values()].map((chunk) => chunk.documentId))];
  const documents = new Map<string, DocumentRecord>(
    (await catalog.getDocuments(documentIds)).map((document) => [document.id, document]),
  );
  const results: SearchResult[] = [];
  for (const hit of hits) {
    const chunk = chunks.get(hit.chunkId);
    if (!chunk) continue;
    const document = documents.get(chunk.documentId);
    if (!document) continue;
    if (!searched.has(chunk.spaceId) || document.spaceId !== chunk.spaceId) {
      scope.logger.warn(
        { chunkId: chunk.id, documentId: document.id, space: chunk.spaceId },
        "a search hit belongs to a space that was not searched: dropped (is a saved index damaged?)",
      );
      continue;
    }
    results.push({
      chunkId: chunk.id,
      documentId: document.id,
      spaceId: chunk.spaceId,
      file: document.fileName,
      title: document.title,
      mediaType: document.mediaType,
      pageStart: chunk.provenance.pageStart ?? null,
      pageEnd: chunk.provenance.pageEnd ?? null,
      score: hit.score,
      text: chunk.text,
      provenance: chunk.provenance,
      kind: chunk.kind,
    });
  }
  return results;
}
