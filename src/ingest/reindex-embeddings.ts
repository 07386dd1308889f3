/**
 * Embeds stored passages again with the current embedding model (after FOLIO_EMBED_MODEL changed, or
 * for passages stored before embeddings existed). One document at a time, so progress is visible
 * and the index stays searchable by keywords meanwhile.
 */

import { indexTextOf } from "../domain/index-text.js";
import type { SpaceId } from "../domain/types.js";
import type { Embedder } from "../embedding/embedder.js";
import type { Catalog } from "../stores/catalog.js";
import type { VectorIndex } from "../stores/vector-index.js";

export type ReindexProgress = {
  spaceId: SpaceId;
  fileName: string;
  document: number;
  documents: number;
  passages: number;
};

export async function reindexEmbeddings(options: {
  catalog: Catalog;
  vectorIndex: VectorIndex;
  embedder: Embedder;
  spaceIds: SpaceId[];
  onDocument?: (progress: ReindexProgress) => void;
}): Promise<{ documents: number; passages: number }> {
  const { catalog, vectorIndex, embedder } = options;
  let documents = 0;
  let passages = 0;
  for (const spaceId of options.spaceIds) {
    const spaceDocuments = await catalog.listDocuments(spaceId);
    for (const [index, document] of spaceDocuments.entries()) {
      const chunks = await catalog.listChunks(document.id);
      const vectors = await embedder.embedPassages(chunks.map((chunk) => indexTextOf(document, chunk)));
      await vectorIndex.updateDense(
        chunks.map((chunk, position) => ({
          chunkId: chunk.id,
          dense: vectors[position] ?? [],
          denseModel: embedder.modelId,
        })),
      );
      // One still waiting for its background embedding (meaning-indexer.ts) needs none now.
      await catalog.markDocumentMeaningReady(document.id);
      documents += 1;
      passages += chunks.length;
      options.onDocument?.({
        spaceId,
        fileName: document.fileName,
        document: index + 1,
        documents: spaceDocuments.length,
        passages: chunks.length,
      });
    }
  }
  return { documents, passages };
}
