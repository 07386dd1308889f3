/**
 * Versions of a document: when an upload replaces an older one of the same name, the older document
 * is deleted but a small note is kept (a catalog setting `replaced-document:<id>`), so a citation link
 * from an earlier answer can still say what happened — "replaced by a newer version on …" — and open
 * the current version, instead of a bare "no longer exists".
 */
import type { DocumentRecord } from "../domain/types.js";
import type { Catalog } from "../stores/catalog.js";

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
