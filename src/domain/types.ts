/**
 * Domain types shared by the core, ingestion and adapters. Plain data only: no behaviour, no SDKs.
 */

/** Space ids: `slack:<team>:<channel>`, `teams:<tenant>:<conversation>`, `console:<name>`, `library`, `eval:<run>`. */
export type SpaceId = string;

export type Space = {
  id: SpaceId;
  title: string;
  createdAt: Date;
};

export type MediaType =
  | "application/pdf"
  | "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
  | "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
  | "application/vnd.ms-excel"
  | "text/csv"
  | "text/tab-separated-values"
  | "text/plain"
  | "text/markdown"
  | "text/html";

/** "indexing": stored in the catalog, vectors still being written — invisible to search until "ready". */
export type DocumentStatus = "indexing" | "ready" | "deleting";

export type DocumentRecord = {
  id: string;
  spaceId: SpaceId;
  title: string;
  fileName: string;
  mediaType: MediaType;
  sha256: string;
  byteSize: number;
  /** Physical pages for PDFs; null for formats without pages. */
  pageCount: number | null;
  uploader: string | null;
  status: DocumentStatus;
  /**
   * True while a "ready" document is searchable by keywords only: its dense vectors are still being
   * written in the background (src/ingest/meaning-indexer.ts).
   */
  awaitingMeaning: boolean;
  createdAt: Date;
};

export type NewDocument = Omit<DocumentRecord, "id" | "createdAt" | "status" | "awaitingMeaning"> & {
  /** Stored as searchable by keywords only until `markDocumentMeaningReady` (default false). */
  awaitingMeaning?: boolean;
  /** The original bytes, kept for the source viewer. */
  bytes: Uint8Array;
};

/** The text of one physical page (PDF), 1-based. Chunk character offsets point into `text`. */
export type PageText = {
  pageNumber: number;
  text: string;
};

export type ChunkKind = "text" | "table";

/**
 * Where a chunk came from. PDF chunks carry pages and character offsets (`charStart` into the text of
 * `pageStart`, `charEnd` exclusive into the text of `pageEnd`); DOCX chunks a heading path; table
 * chunks a sheet and 1-based data row range (the header row is row 0 and is repeated in every piece).
 */
export type Provenance = {
  pageStart?: number;
  pageEnd?: number;
  charStart?: number;
  charEnd?: number;
  headingPath?: string[];
  sheet?: string;
  rowStart?: number;
  rowEnd?: number;
  /**
   * Table chunks whose table has a header: its column names, in order. The chunk's last
   * rowEnd - rowStart + 1 lines are its rows, cells joined by " | " (a "|" inside a cell is written "¦").
   */
  columns?: string[];
};

/** A chunk as the chunker produces it, before it has an id or a place in the catalog. */
export type ChunkDraft = {
  kind: ChunkKind;
  text: string;
  /** Length under the embedding model's tokenizer, special tokens included. */
  tokenCount: number;
  /** 0-based order of the chunk in its document. */
  position: number;
  provenance: Provenance;
};

export type ChunkRecord = ChunkDraft & {
  id: string;
  documentId: string;
  spaceId: SpaceId;
};

/** A sparse vector: parallel arrays, indices ascending and unique. */
export type SparseVector = {
  indices: number[];
  values: number[];
};

export type IngestionJobStatus = "queued" | "running" | "succeeded" | "failed";

export type IngestionJob = {
  id: string;
  spaceId: SpaceId;
  fileName: string;
  status: IngestionJobStatus;
  documentId: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export type FeedbackRating = "up" | "down";

export type Feedback = {
  id: string;
  /** The request id of the answer the feedback is about. */
  answerId: string;
  spaceId: SpaceId;
  user: string;
  rating: FeedbackRating;
  comment: string | null;
  createdAt: Date;
};

/** One result of a search, already joined with what a person needs to see it. */
export type SearchResult = {
  chunkId: string;
  documentId: string;
  spaceId: SpaceId;
  file: string;
  title: string;
  mediaType: MediaType;
  pageStart: number | null;
  pageEnd: number | null;
  score: number;
  text: string;
  provenance: Provenance;
  kind: ChunkKind;
};
