/**
 * Versions of a document: when an upload replaces an older one of the same name, the older document
 * is deleted but a small note is kept (a catalog setting `replaced-document:<id>`), so a citation link
 * from an earlier answer can still say what happened — "replaced by a newer version on …" — and open
 * the current version, instead of a bare "no longer exists".
 */
import type { DocumentRecord } from "../domain/types.js";
import type { Logger } from "../logger.js";
import type { Catalog } from "../stores/catalog.js";
import type { VectorIndex } from "../stores/vector-index.js";
import type { DocumentEvents } from "./document-events.js";
import type { ReplacedVersion } from "./ingest-result.js";

export type ReplacementNote = {
  /** The document that replaced it. */
  replacedBy: string;
  replacedAt: string;
  title: string;
  fileName: string;
};

/** A version replaced by a version replaced by …: followed this far, which no real history reaches. */
const MAX_VERSION_HOPS = 20;

const noteKey = (documentId: string) => `replaced-document:${documentId}`;

export async function recordReplacement(catalog: Catalog, replaced: DocumentRecord, by: DocumentRecord): Promise<void> {
  const note: ReplacementNote = {
    replacedBy: by.id,
    replacedAt: new Date().toISOString(),
    title: replaced.title,
    fileName: replaced.fileName,
  };
  await catalog.setSetting(noteKey(replaced.id), JSON.stringify(note));
}

function parseNote(value: string | null): ReplacementNote | null {
  if (value === null) return null;
  try {
    const note = JSON.parse(value) as Partial<ReplacementNote>;
    if (typeof note.replacedBy !== "string" || typeof note.replacedAt !== "string") return null;
    return {
      replacedBy: note.replacedBy,
      replacedAt: note.replacedAt,
      title: note.title ?? "",
      fileName: note.fileName ?? "",
    };
  } catch {
    return null;
  }
}

/**
 * For a document that no longer exists: what replaced it and the version there is now (the newest one
 * still in the catalog, following later replacements), or null when it was deleted outright.
 */
export async function findCurrentVersion(
  catalog: Catalog,
  documentId: string,
): Promise<{ note: ReplacementNote; current: DocumentRecord | null } | null> {
  const note = parseNote(await catalog.getSetting(noteKey(documentId)));
  if (!note) return null;
  let nextId = note.replacedBy;
  for (let hop = 0; hop < MAX_VERSION_HOPS; hop += 1) {
    const current = await catalog.getDocument(nextId);
    if (current) return { note, current };
    const later = parseNote(await catalog.getSetting(noteKey(nextId)));
    if (!later) break;
    nextId = later.replacedBy;
  }
  return { note, current: null };
}

/**
 * A new version of a file (same name, same uploader, new bytes) replaces the older one in that space.
 * Someone else's file of the same name is left alone: an upload must never remove another person's
 * document (that is what /folio forget, with its permission check, is for). Each replaced document
 * leaves a note (recordReplacement), so links in earlier answers say the version changed and open the
 * new one.
 */
export async function replaceEarlierVersions(
  stores: { catalog: Catalog; vectorIndex: VectorIndex; events: DocumentEvents | undefined },
  upload: { spaceId: string; fileName: string; uploader: string | null },
  kept: DocumentRecord,
  logger: Logger,
): Promise<ReplacedVersion[]> {
  const { catalog, vectorIndex, events } = stores;
  const documents = await catalog.listDocuments(upload.spaceId);
  const replaced: ReplacedVersion[] = [];
  for (const document of documents) {
    if (document.fileName !== upload.fileName || document.id === kept.id) continue;
    // Another upload of this name still indexing is that upload's business (it replaces this one when done).
    if (document.status !== "ready") continue;
    if (document.uploader !== upload.uploader) continue;
    await recordReplacement(catalog, document, kept);
    await vectorIndex.deleteByDocument(document.id);
    await catalog.deleteDocument(document.id);
    events?.publish({ type: "removed", spaceId: document.spaceId, documentId: document.id });
    logger.info({ documentId: document.id, replacedBy: kept.id }, "older version replaced");
    replaced.push({ documentId: document.id, title: document.title, createdAt: document.createdAt.toISOString() });
  }
  return replaced;
}
