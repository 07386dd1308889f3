/**
 * `folio eval conversations`: reads the dataset, ingests every document it names into one evaluation
 * space (each once, so a question about an absent company faces the other companies' filings, as it
 * would in a real channel), asks the conversations, and deletes the space.
 */
import { access, readFile } from "node:fs/promises";
import path from "node:path";
import type { Folio } from "../composition-root.js";
import { FolioError } from "../errors.js";
import { askConversations, type ConversationEvaluationReport } from "./ask-conversations.js";
import { parseConversationDataset } from "./conversation-dataset.js";
import { deleteEvaluationSpace, ingestIntoEvaluationSpace, newEvaluationSpaceId } from "./evaluation-space.js";

export type ConversationEvaluationRun = ConversationEvaluationReport & {
  dataset: string;
  /** The retrieval mode the answers used, and who wrote them: the "before" and "after" must say. */
  mode: string;
  generator: "llm" | "extractive";
  documents: { ingested: number; rejected: string[] };
};

export async function runConversationEvaluation(
  folio: Pick<Folio, "core" | "catalog" | "ingestion" | "sparseVectors" | "retrievalMode" | "languageModel">,
  options: {
    datasetPath: string;
    docsDir: string;
    /** Ask only the first N conversations; the documents of all of them are still ingested. */
    limit?: number;
    onProgress?: (message: string) => void;
  },
): Promise<ConversationEvaluationRun> {
  const conversations = parseConversationDataset(await readFile(options.datasetPath, "utf8"), options.datasetPath);
  const documentPaths = [...new Set(conversations.flatMap((conversation) => conversation.documents))].map((document) =>
    path.resolve(options.docsDir, document),
  );
  const names = documentPaths.map((documentPath) => path.basename(documentPath));
  const clash = names.find((name, index) => names.indexOf(name) !== index);
  // Citations name files, not folders: two documents with one name could not be told apart in `pages`.
  if (clash) throw new FolioError("dataset_unusable", `${options.datasetPath} names two documents called ${clash}.`);
  const missing: string[] = [];
  for (const documentPath of documentPaths) await access(documentPath).catch(() => missing.push(documentPath));
  if (missing.length > 0) {
    throw new FolioError(
      "dataset_unusable",
      `${missing.length} document(s) of ${options.datasetPath} are not under ${options.docsDir} (first: ${missing[0]}); pass --docs <data folder> or set FOLIO_SHARED_DATA_DIR.`,
    );
  }
  const spaceId = newEvaluationSpaceId();
  try {
    const space = await ingestIntoEvaluationSpace(folio, spaceId, documentPaths, options.onProgress);
    const report = await askConversations(folio.core, {
      spaceId,
      conversations: conversations.slice(0, options.limit ?? Number.POSITIVE_INFINITY),
      onProgress: options.onProgress,
    });
    return {
      dataset: path.basename(options.datasetPath),
      mode: folio.retrievalMode,
      generator: folio.languageModel ? "llm" : "extractive",
      documents: { ingested: space.ingested, rejected: space.rejected },
      ...report,
    };
  } finally {
    await deleteEvaluationSpace(folio, spaceId);
  }
}
