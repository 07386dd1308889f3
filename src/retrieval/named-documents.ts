/**
 * The documents a question names in their titles (document-targeting.ts), among the searched spaces'
 * ready documents — listed again only when their passage count changed or the list is older than
 * DOCUMENT_LIST_TTL_MS, so a library of thousands of documents is not listed on every question.
 */
import type { DocumentRecord, SpaceId } from "../domain/types.js";
import type { Catalog } from "../stores/catalog.js";
import { namingTerms, type TargetingSettings, targetDocuments } from "./document-targeting.js";
import { type SearchRequest, timeSearchStage } from "./retriever.js";
import { termId } from "./text-analyzer.js";

const DOCUMENT_LIST_TTL_MS = 30_000;
const DOCUMENT_LIST_CACHE_LIMIT = 1_000;

export function createNamedDocuments(options: { catalog: Catalog; targeting: TargetingSettings | null }) {
  const { catalog, targeting } = options;
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
    if (!targeting) return null;
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

  return namedDocuments;
}
