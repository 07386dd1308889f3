/**
 * What ingesting one file produced; the CLI prints it as one JSON line, adapters turn it into a
 * message in the thread.
 */
import type { SpaceId } from "../domain/types.js";

export type IngestStatus = "ingested" | "unchanged" | "rejected";

export type IngestResult = {
  file: string;
  documentId: string | null;
  status: IngestStatus;
  pages: number | null;
  chunks: number;
  error?: { code: string; message: string };
};

export type IngestStage = "queued" | "received" | "parsing" | "chunking" | "embedding" | "indexing" | "done";

/** With the "embedding" stage: passages embedded so far and in all. */
export type IngestProgress = { done: number; total: number };

export type IngestInput = {
  bytes: Uint8Array;
  fileName: string;
  spaceId: SpaceId;
  uploader: string | null;
  onProgress?: (stage: IngestStage, progress?: IngestProgress) => void;
  signal?: AbortSignal;
};
