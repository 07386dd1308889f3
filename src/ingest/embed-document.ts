/**
 * One document made searchable by meaning: its passages embedded under their contextual header
 * (src/domain/index-text.ts), in slices with a pause before each (meaning-indexer.ts steps aside there),
 * their dense vectors written, and the catalog told. False when the document has no passages or was
 * deleted meanwhile.
 */
import { indexTextOf } from "../domain/index-text.js";
import type { DocumentRecord } from "../domain/types.js";
import type { Embedder } from "../embedding/embedder.js";
import type { Logger } from "../logger.js";
import type { Catalog } from "../stores/catalog.js";
import type { VectorIndex } from "../stores/vector-index.js";

export type MeaningProgress = { done: number; total: number };

/** Passages embedded between two looks at whether an upload is being parsed (a few seconds of work). */
const PASSAGES_PER_SLICE = 32;

export async function embedDocument(
  stores: { catalog: Catalog; vectorIndex: VectorIndex; embedder: Embedder },
  document: DocumentRecord,
  steps: {
    signal: AbortSignal;
    report(progress: MeaningProgress): void;
    beforeSlice(): Promise<void>;
    logger: Logger;
  },
): Promise<boolean> {
  const { catalog, vectorIndex, embedder } = stores;
  const chunks = await catalog.listChunks(document.id);
  if (chunks.length === 0) return false;
  steps.report({ done: 0, total: chunks.length });
  const startedAt = Date.now();
  const texts = chunks.map((chunk) => indexTextOf({ title: document.title, fileName: document.fileName }, chunk));
  const dense: number[][] = [];
  // In slices, stepping aside while an upload is parsed (its keyword search waits on that parse alone)
  // and, for catch-up work, while uploads wait to be embedded.
  for (let start = 0; start < texts.length; start += PASSAGES_PER_SLICE) {
    await steps.beforeSlice();
    const slice = await embedder.embedPassages(texts.slice(start, start + PASSAGES_PER_SLICE), {
      signal: steps.signal,
      priority: "background",
      onProgress: (done) => steps.report({ done: start + done, total: texts.length }),
    });
    dense.push(...slice);
  }
  await vectorIndex.updateDense(
    chunks.map((chunk, index) => ({ chunkId: chunk.id, dense: dense[index] ?? [], denseModel: embedder.modelId })),
  );
  const marked = await catalog.markDocumentMeaningReady(document.id);
  steps.logger.info(
    { documentId: document.id, space: document.spaceId, chunks: chunks.length, latencyMs: Date.now() - startedAt },
    marked ? "searchable by meaning" : "embedded a document deleted meanwhile",
  );
  return marked;
}
