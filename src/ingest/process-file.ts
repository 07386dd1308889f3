/**
 * How ingestion has a file parsed and chunked: in isolation (a worker thread in production), each chunk
 * with its term counts under its contextual header (src/domain/index-text.ts, `indexedDocument` for the
 * title). Throws ParseError.
 */
import type { Block, ParsedDocument } from "../../ingestion/parsed-document.js";
import type { ChunkToStore } from "../stores/catalog.js";

export type ProcessedFile = { document: ParsedDocument; chunks: ChunkToStore[] };

export type ProcessFile = (input: {
  bytes: Uint8Array;
  fileName: string;
  signal?: AbortSignal;
}) => Promise<ProcessedFile>;

/** A stored file's blocks read again, in the same isolation (the source viewer's sections page). */
export type ReadDocumentBlocks = (bytes: Uint8Array, fileName: string) => Promise<readonly Block[]>;
