/**
 * What ingesting one file produced; the CLI prints it as one JSON line, adapters turn it into a
 * message in the thread.
 */
import type { SpaceId } from "../domain/types.js";

export type IngestStatus = "ingested" | "unchanged" | "rejected";

/** An older upload of the same file name that this one replaced (its citations now say so). */
export type ReplacedVersion = { documentId: string; title: string; createdAt: string };

export type IngestResult = {
  file: string;
  documentId: string | null;
  status: IngestStatus;
  pages: number | null;
  chunks: number;
  /**
   * How the document can be found now: "keywords" while its passages are still being embedded in the
   * background (or when no embedding model is configured), "meaning" once its dense vectors are written.
   * Absent for rejected files.
   */
  searchableBy?: "keywords" | "meaning";
  /** True when its passages are being embedded in the background: searchable by meaning within minutes. */
  meaningPending?: boolean;
  /** Older versions (same file name, same uploader) this upload replaced; absent or empty when none. */
  replaced?: ReplacedVersion[];
  error?: { code: string; message: string };
};

/**
 * What an upload does to an earlier document of the same name from the same uploader: "replace" (the
 * default) removes it once the new one is searchable, "keep-both" leaves both in the space.
 */
export type SameNamePolicy = "replace" | "keep-both";

export type IngestStage = "queued" | "received" | "parsing" | "chunking" | "embedding" | "indexing" | "done";

/** With the "embedding" stage: passages embedded so far and in all. */
export type IngestProgress = { done: number; total: number };

/**
 * A background upload's embedding after its reply: passages embedded so far, then the outcome — "ready"
 * (searchable by meaning too) or "failed" (by keywords only until Folio restarts and tries again).
 */
export type MeaningUpdate =
  | { state: "embedding"; done: number; total: number }
  | { state: "ready" }
  | { state: "failed" };

export type IngestInput = {
  bytes: Uint8Array;
  fileName: string;
  spaceId: SpaceId;
  uploader: string | null;
  onProgress?: (stage: IngestStage, progress?: IngestProgress) => void;
  signal?: AbortSignal;
  /** Default "replace". */
  sameName?: SameNamePolicy;
  /**
   * "wait" (the default: the CLI, evaluations) resolves once the document is searchable by meaning too;
   * "background" (chat and console uploads) resolves as soon as it is searchable by keywords.
   */
  meaning?: "wait" | "background";
  /**
   * With "background": told how the embedding goes after the upload has returned (chat adapters edit
   * their reply with it). Not called for a document deleted before its vectors were written.
   */
  onMeaning?: (update: MeaningUpdate) => void;
};
