/**
 * Messages between run-in-worker.ts and the parse worker (structured-clone safe: plain data and buffers).
 * A parsed document's long lists (pages, blocks, chunks) travel packed (packed-list.ts), so the main thread
 * takes them in a slice per turn of its event loop rather than in one long deserialisation.
 */
import type { PageText } from "../src/domain/types.js";
import type { ChunkToStore } from "../src/stores/catalog.js";
import { type PackedList, packList, unpackList } from "../src/workers/packed-list.js";
import type { ParseLimits } from "./limits.js";
import type { Block, ParsedDocument } from "./parsed-document.js";

/** tokenizerDirectory: the embedder's tokenizer; null (keyword-only, no model files) sizes chunks by an estimate. */
export type ChunkingSettings = { maxTokens: number; overlapTokens: number; tokenizerDirectory: string | null };

export type ParseJob = { bytes: Uint8Array; fileName: string; limits: ParseLimits; chunking: ChunkingSettings };

export type ParseFailure = { code: string; message: string; page: number | null; parse: boolean; reason?: string };

/** The chunks carry their term counts (parse-job.ts), ready to store. */
export type Parsed = { document: ParsedDocument; chunks: ChunkToStore[] };

/** What a job yields inside the worker (parse-job.ts). */
export type ParseOutcome = ({ ok: true } & Parsed) | { ok: false; error: ParseFailure };

type PackedDocument = Omit<ParsedDocument, "pages" | "blocks"> & {
  pages: PackedList<PageText> | null;
  blocks: PackedList<Block>;
};

/** What the worker posts back. */
export type ParseReply =
  | { ok: true; document: PackedDocument; chunks: PackedList<ChunkToStore> }
  | { ok: false; error: ParseFailure };

/** Worker side: the reply to post and the buffers to transfer with it. */
export function packParseOutcome(outcome: ParseOutcome): { reply: ParseReply; transfer: ArrayBuffer[] } {
  if (!outcome.ok) return { reply: outcome, transfer: [] };
  const { pages, blocks, ...rest } = outcome.document;
  const document: PackedDocument = {
    ...rest,
    pages: pages === null ? null : packList(pages),
    blocks: packList(blocks),
  };
  const chunks = packList(outcome.chunks);
  const transfer = [...(document.pages?.slices ?? []), ...document.blocks.slices, ...chunks.slices];
  return { reply: { ok: true, document, chunks }, transfer };
}

/** Main-thread side: the parsed document and its chunks, rebuilt a slice per turn of the event loop. */
export async function unpackParsed(reply: Extract<ParseReply, { ok: true }>): Promise<Parsed> {
  const { pages, blocks, ...rest } = reply.document;
  return {
    document: {
      ...rest,
      pages: pages === null ? null : await unpackList(pages),
      blocks: await unpackList(blocks),
    },
    chunks: await unpackList(reply.chunks),
  };
}
