/**
 * After an upload is searchable by keywords its passages are embedded in the background
 * (meaning-indexer.ts). An upload with `meaning: "background"` returns now, told of the embedding's
 * progress and outcome through `onMeaning`; the default ("wait") returns once the vectors are written,
 * or failed (then the document stays searchable by keywords).
 */
import type { DocumentRecord } from "../domain/types.js";
import type { Logger } from "../logger.js";
import type { IngestInput } from "./ingest-result.js";
import type { MeaningIndexer } from "./meaning-indexer.js";

export async function searchableByMeaning(
  meaning: MeaningIndexer | null,
  input: IngestInput,
  document: DocumentRecord,
  logger: Logger,
): Promise<"keywords" | "meaning"> {
  if (meaning === null) return "keywords";
  const written = meaning.enqueue(document, ({ done, total }) => {
    if (input.meaning !== "background") input.onProgress?.("embedding", { done, total });
    else input.onMeaning?.({ state: "embedding", done, total });
  });
  if (input.meaning === "background") {
    const { onMeaning } = input;
    if (onMeaning) {
      written.then(
        (stored) => {
          if (stored) onMeaning({ state: "ready" });
        },
        () => onMeaning({ state: "failed" }),
      );
    }
    return "keywords";
  }
  try {
    return (await written) ? "meaning" : "keywords";
  } catch (error) {
    logger.warn({ err: error, documentId: document.id }, "searchable by keywords only: embedding failed");
    return "keywords";
  }
}
