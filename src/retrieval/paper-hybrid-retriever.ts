/**
 * The `paper-hybrid` evaluation mode (issue #9): Liang et al.'s combined TF-IDF→SVD + dense embedding,
 * kept to compare Folio's retrieval with the seed paper's. Not a product mode: each space's index is
 * fitted in memory on the first question that searches it (src/retrieval/paper-hybrid-index.ts),
 * cached, and fitted again when the space's chunk count or token total has changed since.
 *
 * Chunk vectors come from the embedder, not the vector index (whose port cannot hand vectors back):
 * `passageText` must give the text each chunk was embedded from, so a caching embedder (as `folio eval`
 * uses) serves them from its cache. Without a cache a fit re-embeds the whole space.
 */

import { indexTextOf } from "../domain/index-text.js";
import type { ChunkRecord, DocumentRecord, SearchResult, SpaceId } from "../domain/types.js";
import type { Embedder } from "../embedding/embedder.js";
import { type Logger, silentLogger } from "../logger.js";
import type { Catalog } from "../stores/catalog.js";
import {
  DEFAULT_PAPER_HYBRID_SETTINGS,
  fitPaperHybridIndex,
  type PaperHybridIndex,
  type PaperHybridSettings,
} from "./paper-hybrid-index.js";
import { type Retriever, type SearchRequest, timeSearchStage } from "./retriever.js";
import { joinSearchResults } from "./sparse-retriever.js";
import { countTerms } from "./text-analyzer.js";

export type PaperHybridRetrieverOptions = {
  catalog: Catalog;
  embedder: Embedder;
  /** Defaults: α 0.5, the embedder's dimensions as SVD components, 5 power iterations, raw tf. */
  settings?: Partial<PaperHybridSettings>;
  /** The text a chunk's dense vector was made from; by default what ingestion embeds (indexTextOf). */
  passageText?: (document: DocumentRecord, chunk: ChunkRecord) => string;
  logger?: Logger;
};

/** A space's state when its index was fitted; any change means chunks were added, replaced or removed. */
type SpaceFingerprint = { chunkCount: number; totalLength: number };

type CachedIndex = { fingerprint: SpaceFingerprint; index: Promise<PaperHybridIndex> };

/** getChunks with thousands of ids is one query; batches keep its parameter list modest. */
const CHUNK_BATCH = 1000;

export function createPaperHybridRetriever(options: PaperHybridRetrieverOptions): Retriever {
  const { catalog, embedder } = options;
  const settings: PaperHybridSettings = {
    ...DEFAULT_PAPER_HYBRID_SETTINGS,
    components: embedder.dimensions,
    ...options.settings,
  };
  const passageText = options.passageText ?? indexTextOf;
  const logger = options.logger ?? silentLogger;
  const cache = new Map<SpaceId, CachedIndex>();

  async function fitSpace(spaceId: SpaceId): Promise<PaperHybridIndex> {
    const started = performance.now();
    const chunkTerms = await catalog.listChunkTerms(spaceId);
    const chunks = new Map<string, ChunkRecord>();
    for (let start = 0; start < chunkTerms.length; start += CHUNK_BATCH) {
      const ids = chunkTerms.slice(start, start + CHUNK_BATCH).map((entry) => entry.chunkId);
      for (const chunk of await catalog.getChunks(ids)) chunks.set(chunk.id, chunk);
    }
    const documentIds = [...new Set(chunkTerms.map((entry) => entry.documentId))];
    const documents = new Map((await catalog.getDocuments(documentIds)).map((document) => [document.id, document]));
    // A chunk deleted between the two reads is left out; the changed fingerprint refits next time.
    const present = chunkTerms.flatMap((entry) => {
      const chunk = chunks.get(entry.chunkId);
      const document = documents.get(entry.documentId);
      return chunk && document ? [{ ...entry, text: passageText(document, chunk) }] : [];
    });
    const dense = await embedder.embedPassages(present.map((entry) => entry.text));
    const index = fitPaperHybridIndex(
      present.map((entry, position) => ({
        chunkId: entry.chunkId,
        documentId: entry.documentId,
        dense: dense[position] ?? [],
        terms: entry.terms,
      })),
      settings,
    );
    logger.info(
      {
        space: spaceId,
        chunks: index.size,
        reducedDimensions: index.reducedDimensions,
        latencyMs: Math.round(performance.now() - started),
      },
      "paper-hybrid index fitted",
    );
    return index;
  }

  /** The space's index, fitted now when it is missing or stale; `fitted` says whether this call fitted it. */
  async function indexFor(spaceId: SpaceId): Promise<{ index: PaperHybridIndex; fitted: boolean }> {
    const statistics = await catalog.getTermStatistics([spaceId], []);
    const fingerprint = { chunkCount: statistics.chunkCount, totalLength: statistics.totalLength };
    const cached = cache.get(spaceId);
    if (
      cached &&
      cached.fingerprint.chunkCount === fingerprint.chunkCount &&
      cached.fingerprint.totalLength === fingerprint.totalLength
    ) {
      return { index: await cached.index, fitted: false };
    }
    const index = fitSpace(spaceId);
    cache.set(spaceId, { fingerprint, index });
    // A failed fit is not cached: the next question tries again.
    index.catch(() => {
      if (cache.get(spaceId)?.index === index) cache.delete(spaceId);
    });
    return { index: await index, fitted: true };
  }

  async function search(request: SearchRequest): Promise<SearchResult[]> {
    if (request.spaceIds.length === 0 || request.limit <= 0) return [];
    const spaceIds = [...new Set(request.spaceIds)];
    const fitStarted = performance.now();
    const [dense, indexes] = await Promise.all([
      timeSearchStage(request, "embed", () => embedder.embedQuery(request.query, { signal: request.signal })),
      Promise.all(spaceIds.map(indexFor)),
    ]);
    // Only a question that fitted an index reports it, so the fit shows apart from per-question latency.
    if (request.timingsMs && indexes.some((entry) => entry.fitted)) {
      request.timingsMs.fit = Math.round((performance.now() - fitStarted) * 10) / 10;
    }
    const terms = countTerms(request.query);
    const hits = await timeSearchStage(request, "paperHybrid", async () =>
      indexes
        .flatMap(({ index }, position) =>
          index.search(dense, terms, request.limit).map((hit) => ({ ...hit, spaceId: spaceIds[position] ?? "" })),
        )
        .sort((left, right) => right.score - left.score)
        .slice(0, request.limit),
    );
    return timeSearchStage(request, "join", () => joinSearchResults(catalog, hits, { spaceIds, logger }));
  }

  return { search };
}
