/**
 * The catalog's rows as the database returns them, the column lists its queries select, and the
 * mappings from rows to the domain records the Catalog port hands out.
 */
import type {
  ChunkRecord,
  DocumentRecord,
  Feedback,
  IngestionJob,
  IngestionJobStatus,
  MediaType,
  Provenance,
} from "../domain/types.js";

export type DocumentRow = {
  id: string;
  space_id: string;
  title: string;
  file_name: string;
  media_type: string;
  sha256: string;
  byte_size: number;
  page_count: number | null;
  uploader: string | null;
  status: string;
  awaiting_meaning: boolean;
  created_at: Date;
};

export type ChunkRow = {
  id: string;
  document_id: string;
  space_id: string;
  kind: string;
  text: string;
  token_count: number;
  position: number;
  provenance: Provenance;
};

export type JobRow = {
  id: string;
  space_id: string;
  file_name: string;
  status: string;
  document_id: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  updated_at: Date;
};

export type FeedbackRow = {
  id: string;
  answer_id: string;
  space_id: string;
  user_id: string;
  rating: string;
  comment: string | null;
  created_at: Date;
};

export const DOCUMENT_COLUMNS =
  "id, space_id, title, file_name, media_type, sha256, byte_size, page_count, uploader, status, awaiting_meaning, created_at";
export const CHUNK_COLUMNS = "id, document_id, space_id, kind, text, token_count, position, provenance";
/** CHUNK_COLUMNS of `chunks AS c`, for queries that join the chunk's document. */
export const JOINED_CHUNK_COLUMNS = CHUNK_COLUMNS.split(", ")
  .map((column) => `c.${column}`)
  .join(", ");

export function toDocument(row: DocumentRow): DocumentRecord {
  return {
    id: row.id,
    spaceId: row.space_id,
    title: row.title,
    fileName: row.file_name,
    mediaType: row.media_type as MediaType,
    sha256: row.sha256,
    byteSize: row.byte_size,
    pageCount: row.page_count,
    uploader: row.uploader,
    status: row.status as DocumentRecord["status"],
    awaitingMeaning: row.awaiting_meaning,
    createdAt: row.created_at,
  };
}

export function toChunk(row: ChunkRow): ChunkRecord {
  return {
    id: row.id,
    documentId: row.document_id,
    spaceId: row.space_id,
    kind: row.kind as ChunkRecord["kind"],
    text: row.text,
    tokenCount: row.token_count,
    position: row.position,
    provenance: row.provenance,
  };
}

export function toJob(row: JobRow): IngestionJob {
  return {
    id: row.id,
    spaceId: row.space_id,
    fileName: row.file_name,
    status: row.status as IngestionJobStatus,
    documentId: row.document_id,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toFeedback(row: FeedbackRow): Feedback {
  return {
    id: row.id,
    answerId: row.answer_id,
    spaceId: row.space_id,
    user: row.user_id,
    rating: row.rating as Feedback["rating"],
    comment: row.comment,
    createdAt: row.created_at,
  };
}
