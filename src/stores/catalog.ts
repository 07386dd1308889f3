/**
 * The catalog port: everything Folio remembers except vectors. Implemented once in SQL
 * (src/stores/sql-catalog.ts) and run on PGlite (embedded) and PostgreSQL (`pg`).
 */
import type {
  ChunkDraft,
  ChunkRecord,
  DocumentRecord,
  Feedback,
  FeedbackRating,
  IngestionJob,
  IngestionJobStatus,
  NewDocument,
  PageText,
  Space,
  SpaceId,
} from "../domain/types.js";

/**
 * Raw term counts of a chunk under the BM25 analyzer (term ids from `termId`, see
 * src/retrieval/text-analyzer.ts). Kept so BM25 vectors can be rebuilt when corpus statistics drift.
 */
export type TermCounts = {
  termIds: number[];
  counts: number[];
  /** Total number of analyzed tokens in the chunk (BM25 document length). */
  length: number;
};

export type ChunkToStore = ChunkDraft & { terms: TermCounts };

/** Corpus statistics over a set of spaces, for BM25's IDF and length normalisation. */
export type TermStatistics = {
  chunkCount: number;
  totalLength: number;
  /** term id -> number of chunks in the spaces that contain it; absent terms are 0. */
  documentFrequencies: Map<number, number>;
};

export type JobUpdate = {
  status: IngestionJobStatus;
  documentId?: string | null;
  errorCode?: string | null;
  errorMessage?: string | null;
};

export interface Catalog {
  ensureSpace(id: SpaceId, title?: string): Promise<Space>;
  getSpace(id: SpaceId): Promise<Space | null>;
  /** Gives a space another title (its id, and so everything in it, stays); null when there is no such space. */
  renameSpace(id: SpaceId, title: string): Promise<Space | null>;
  /** Every space, oldest first. */
  listSpaces(): Promise<Space[]>;

  findDocumentBySha256(spaceId: SpaceId, sha256: string): Promise<DocumentRecord | null>;
  /**
   * Adds a document, its pages and chunks (and their term statistics) in one transaction. With `jobId`
   * the document is stored as "indexing" and linked to that job in the same transaction: search skips
   * it until `markDocumentReady`, and start-up recovery removes it if the process dies first.
   */
  addDocument(input: {
    document: NewDocument;
    pages: PageText[];
    chunks: ChunkToStore[];
    jobId?: string;
  }): Promise<{ document: DocumentRecord; chunks: ChunkRecord[] }>;
  /** "indexing" -> "ready": its vectors are all written. Throws `document_not_indexing` when it is not indexing. */
  markDocumentReady(id: string): Promise<void>;
  /**
   * Its dense vectors are all written: it is searchable by meaning now, not only by keywords. False when
   * it was not awaiting meaning (deleted meanwhile, or marked already).
   */
  markDocumentMeaningReady(id: string): Promise<boolean>;
  /** "ready" documents whose dense vectors are still to be written (oldest first), to resume after a restart. */
  listDocumentsAwaitingMeaning(): Promise<DocumentRecord[]>;
  getDocument(id: string): Promise<DocumentRecord | null>;
  /** Documents by id, in no particular order; unknown ids are skipped. */
  getDocuments(ids: string[]): Promise<DocumentRecord[]>;
  getDocumentBytes(id: string): Promise<Uint8Array | null>;
  listDocuments(spaceId: SpaceId): Promise<DocumentRecord[]>;
  /** Removes a document with its pages, chunks and term statistics. Returns false when it did not exist. */
  deleteDocument(id: string): Promise<boolean>;

  getPages(documentId: string): Promise<PageText[]>;
  listChunks(documentId: string): Promise<ChunkRecord[]>;
  /** Chunks of "ready" documents by id, in the order asked; unknown ids (and chunks still indexing) are skipped. */
  getChunks(ids: string[]): Promise<ChunkRecord[]>;
  /** Term counts of every chunk of the space's "ready" documents, for rebuilding BM25 vectors. */
  listChunkTerms(spaceId: SpaceId): Promise<Array<{ chunkId: string; documentId: string; terms: TermCounts }>>;
  getTermStatistics(spaceIds: SpaceId[], termIds: number[]): Promise<TermStatistics>;

  createJob(input: { spaceId: SpaceId; fileName: string }): Promise<IngestionJob>;
  /** Moves a job along queued -> running -> succeeded|failed; any other move throws `invalid_job_transition`. */
  updateJob(id: string, update: JobUpdate): Promise<IngestionJob>;
  getJob(id: string): Promise<IngestionJob | null>;
  /** Records that a running job is still alive (its `updatedAt` moves), so no replica takes it for interrupted. */
  touchJob(id: string): Promise<void>;
  /** Queued or running jobs not touched for `staleForMs` (0: all of them): left behind by a process that died. */
  listInterruptedJobs(staleForMs: number): Promise<IngestionJob[]>;

  /** Records a chat platform event id; true the first time it is seen, false for every repeat (across processes). */
  markEventProcessed(eventId: string): Promise<boolean>;
  /** Forgets an event id, so its work may be tried again (after a failure that a retry could fix). */
  releaseEvent(eventId: string): Promise<void>;

  addFeedback(input: {
    answerId: string;
    spaceId: SpaceId;
    user: string;
    rating: FeedbackRating;
    comment?: string | null;
  }): Promise<Feedback>;
  listFeedback(answerId: string): Promise<Feedback[]>;

  /** A small named setting (e.g. an adapter's per-channel mode), shared by every replica; null when unset. */
  getSetting(key: string): Promise<string | null>;
  /** Sets a setting; null removes it. */
  setSetting(key: string, value: string | null): Promise<void>;

  close(): Promise<void>;
}
