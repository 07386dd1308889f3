/**
 * Keyword retrieval: BM25 through the sparse vector index. The query vector carries IDF from the live
 * statistics of exactly the spaces being searched, and the space filter is applied inside the index
 * query, so a chunk of another space can never be returned.
 */
import type { DocumentRecord, SearchResult } from "../domain/types.js";
import type { Catalog } from "../stores/catalog.js";
import type { ScoredChunkId, VectorIndex } from "../stores/vector-index.js";
import { queryVector } from "./bm25.js";
import type { Retriever, SearchRequest } from "./retriever.js";
import { countTerms } from "./text-analyzer.js";

export function createSparseRetriever(options: { catalog: Catalog; vectorIndex: VectorIndex }): Retriever {
  const { catalog, vectorIndex } = options;

  async function search(request: SearchRequest): Promise<SearchResult[]> {
    if (request.spaceIds.length === 0 || request.limit <= 0) return [];
    const queryTerms = countTerms(request.query);
    if (queryTerms.termIds.length === 0) return [];
    const statistics = await catalog.getTermStatistics(request.spaceIds, queryTerms.termIds);
    const vector = queryVector(queryTerms, statistics);
    if (vector.indices.length === 0) return [];
    const hits = await vectorIndex.querySparse(vector, { spaceIds: request.spaceIds, limit: request.limit });
    return joinSearchResults(catalog, hits);
  }

  return { search };
}

/** Turns index hits into SearchResults with chunk text, provenance and document names, keeping hit order. */
export async function joinSearchResults(catalog: Catalog, hits: ScoredChunkId[]): Promise<SearchResult[]> {
  if (hits.length === 0) return [];
  const chunks = new Map((await catalog.getChunks(hits.map((hit) => hit.chunkId))).map((chunk) => [chunk.id, chunk]));
  const documents = new Map<string, DocumentRecord | null>();
  const results: SearchResult[] = [];
  for (const hit of hits) {
    const chunk = chunks.get(hit.chunkId);
    if (!chunk) continue;
    if (!documents.has(chunk.documentId)) documents.set(chunk.documentId, await catalog.getDocument(chunk.documentId));
    const document = documents.get(chunk.documentId);
    if (!document) continue;
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
