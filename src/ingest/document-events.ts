/**
 * What happens to documents, told to whoever listens in this process: the console's open tabs
 * (GET /api/documents/events) see a document appear, become searchable by meaning and disappear
 * without reloading. In-process only — on several replicas a tab hears its own replica's changes, and
 * the console's periodic refresh picks up the rest.
 */
import type { SpaceId } from "../domain/types.js";

export type DocumentEvent =
  /** Stored and searchable by keywords. */
  | { type: "added"; spaceId: SpaceId; documentId: string }
  | { type: "removed"; spaceId: SpaceId; documentId: string }
  /** Its passages being embedded in the background: `done` of `total` so far. */
  | { type: "meaning_progress"; spaceId: SpaceId; documentId: string; done: number; total: number }
  /** Every dense vector written: searchable by meaning too. */
  | { type: "meaning_ready"; spaceId: SpaceId; documentId: string }
  /** Embedding failed; the document stays searchable by keywords and is tried again at the next start. */
  | { type: "meaning_failed"; spaceId: SpaceId; documentId: string };

export type DocumentEventListener = (event: DocumentEvent) => void;

export type DocumentEvents = {
  publish(event: DocumentEvent): void;
  /** Returns the function that stops listening. */
  subscribe(listener: DocumentEventListener): () => void;
};

export function createDocumentEvents(): DocumentEvents {
  const listeners = new Set<DocumentEventListener>();
  return {
    publish(event) {
      // A listener that throws (a closed socket) must not keep the others, or the upload, from their work.
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          listeners.delete(listener);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
