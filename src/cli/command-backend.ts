/**
 * What `folio ingest|ask|search` need from Folio, whether they open the store themselves or work
 * through a running `folio serve` (src/cli/remote-command-backend.ts). The commands print; a backend
 * does the work.
 */
import type { AnswerContext, AnswerEvent } from "../answer/answer-events.js";
import type { ApprovedAnswers } from "../answer-library/approved-answers.js";
import type { Folio } from "../composition-root.js";
import type { SearchResult } from "../domain/types.js";
import type { IngestResult, SameNamePolicy } from "../ingest/ingest-result.js";
import type { RetrievalMode } from "../retrieval/retriever.js";
import { createLocalSourceFiles } from "./local-source-files.js";

export type CommandBackend = {
  ingestFile(input: {
    bytes: Uint8Array;
    fileName: string;
    spaceId: string;
    sameName: SameNamePolicy;
  }): Promise<IngestResult>;
  /** Called once after a batch of ingested files: BM25 vectors of the space share one normalisation. */
  finishIngest(spaceId: string): Promise<void>;
  search(request: {
    query: string;
    spaceId: string;
    limit: number;
    mode: RetrievalMode | undefined;
  }): Promise<SearchResult[]>;
  answerQuestion(question: string, context: Pick<AnswerContext, "spaceIds" | "requestId">): AsyncIterable<AnswerEvent>;
  /** `folio answers`: the spaces' approved answers. */
  approvedAnswers?: ApprovedAnswers;
  /**
   * Where a cited document can be opened when the viewer's links lead nowhere (no server holds this
   * embedded store): a local copy of its original (local-source-files.ts). Absent: the links work.
   */
  sourceFile?(documentId: string): Promise<string | null>;
};

export function createLocalCommandBackend(folio: Folio): CommandBackend {
  // The embedded store is this process's alone, so no server serves its viewer now; a shared database's
  // links are served by the deployment that FOLIO_PUBLIC_URL names.
  const localFiles =
    folio.config.storage.kind === "embedded"
      ? createLocalSourceFiles({ dataDir: folio.config.dataDir, catalog: folio.catalog })
      : null;
  return {
    ...(localFiles ? { sourceFile: (documentId: string) => localFiles.pathOf(documentId) } : {}),
    ingestFile: (input) => folio.ingestion.ingestFile({ ...input, uploader: null }),
    async finishIngest(spaceId) {
      await folio.sparseVectors.rebuild(spaceId);
    },
    search: (request) =>
      folio.retriever.search({
        query: request.query,
        spaceIds: [request.spaceId],
        limit: request.limit,
        mode: request.mode,
      }),
    answerQuestion: (question, context) => folio.core.answerQuestion(question, { ...context, history: [] }),
    approvedAnswers: folio.answerLibrary,
  };
}
