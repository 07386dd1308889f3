/**
 * `folio reindex [--space S]`: embeds every passage again with the configured embedding model, after
 * FOLIO_EMBED_MODEL changed or for passages stored before embeddings existed. Progress per document
 * on stderr; the index stays searchable by keywords meanwhile.
 */
import type { Folio } from "../../composition-root.js";
import { FolioError } from "../../errors.js";
import { reindexEmbeddings } from "../../ingest/reindex-embeddings.js";
import { EXIT_CODES, UsageError } from "../cli-error.js";
import type { CliOptions } from "../cli-options.js";

export async function runReindexCommand(folio: Folio, rest: string[], options: CliOptions): Promise<number> {
  if (rest.length > 0) throw new UsageError(`reindex takes no arguments, got "${rest.join(" ")}"`);
  const embedder = folio.embedder;
  if (!embedder) {
    throw new FolioError("embedder_missing", "FOLIO_EMBED_MODEL is none: there is nothing to embed with.");
  }
  const spaceIds = options.spaceGiven ? [options.space] : (await folio.catalog.listSpaces()).map((space) => space.id);
  const started = performance.now();
  const { documents, passages } = await reindexEmbeddings({
    catalog: folio.catalog,
    vectorIndex: folio.vectorIndex,
    embedder,
    spaceIds,
    onDocument(progress) {
      if (options.json) return;
      process.stderr.write(
        `… ${progress.spaceId}: ${progress.document}/${progress.documents} ${progress.fileName} (${progress.passages} passages)\n`,
      );
    },
  });
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const summary = { spaces: spaceIds.length, documents, passages, model: embedder.modelId, seconds };
  process.stdout.write(
    options.json
      ? `${JSON.stringify(summary)}\n`
      : `Re-embedded ${passages} passages of ${documents} documents in ${spaceIds.length} spaces with ${embedder.modelId} (${seconds} s).\n`,
  );
  return EXIT_CODES.ok;
}
