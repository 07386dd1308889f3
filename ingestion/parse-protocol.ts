/** Messages between run-in-worker.ts and the parse worker (structured-clone safe: plain data only). */
import type { ChunkDraft } from "../src/domain/types.js";
import type { ParseLimits } from "./limits.js";
import type { ParsedDocument } from "./parsed-document.js";

/** tokenizerDirectory: the embedder's tokenizer; null (keyword-only, no model files) sizes chunks by an estimate. */
export type ChunkingSettings = { maxTokens: number; overlapTokens: number; tokenizerDirectory: string | null };

export type ParseJob = { bytes: Uint8Array; fileName: string; limits: ParseLimits; chunking: ChunkingSettings };

export type ParseReply =
  | { ok: true; document: ParsedDocument; chunks: ChunkDraft[] }
  | { ok: false; error: { code: string; message: string; page: number | null; parse: boolean; reason?: string } };
