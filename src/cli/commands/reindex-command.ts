/**
 * `folio reindex [--space S]`: embeds every passage again with the configured embedding model, after
 * FOLIO_EMBED_MODEL changed or for passages stored before embeddings existed. Progress per document
 * on stderr; the index stays searchable by keywords meanwhile.
 */
import type { Folio } from "../../composition-root.js";
import { FolioError } from "../../errors.js";
import { indexTextOf } from "../../ingest/index-text.js";
import { EXIT_CODES, UsageError } from "../cli-error.js";
import type { CliOptions } from "../main.js";

export async function runReindexCommand(folio: Folio, rest: string[], options: CliOptions): Promise<number> {
  if (rest.length > 0) throw new UsageError(`reindex takes no arguments, got "${rest.join(" ")}"`);
  const embedder = folio.embedder;
  if (!embedder) {
    throw new FolioError("embedder_missing", "FOLIO_EMBED_MODEL is none: there is nothing to embed with.");
  }
  const spaceIds = options.spaceGiven ? [options.space] : (await folio.catalog.listSpaces()).map((space) => space.id);
  let documents = 0;
  let passages = 0;
  const started = performance.now();
  for (const spaceId of spaceIds) {
    const spaceDocuments = await folio.catalog.listDocuments(spaceId);
    for (const [index, document] of spaceDocuments.entries()) {
      const chunks = await folio.catalog.listChunks(document.id);
      const vectors = await embedder.embedPassages(chunks.map((chunk) => indexTextOf(document, chunk)));
      await folio.vectorIndex.updateDense(
        chunks.map((chunk, position) => ({
          chunkId: chunk.id,
          dense: vectors[position] ?? [],
          denseModel: embedder.modelId,
        })),
      );
      documents += 1;
      passages += chunks.length;
      if (!options.json) {
        process.stderr.write(
          `… ${spaceId}: ${index + 1}/${spaceDocuments.length} ${document.fileName} (${chunks.length} passages)\n`,
        );
      }
    }
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const summary = { spaces: spaceIds.length, documents, passages, model: embedder.modelId, seconds };
  process.stdout.write(
    options.json
      ? `${JSON.stringify(summary)}\n`
      : `Re-embedded ${passages} passages of ${documents} documents in ${spaceIds.length} spaces with ${embedder.modelId} (${seconds} s).\n`,
  );
  return EXIT_CODES.ok;
}
