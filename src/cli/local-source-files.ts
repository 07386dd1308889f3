/**
 * Where `folio ask` without a server points its sources: the source viewer's links (/files/<id>#page=N)
 * work only while `folio serve` runs, and no server holds this embedded data directory now, so each
 * cited document's original is copied once to `<data dir>/files/<document id>/<file name>` and the answer
 * points there, page included (`file://…#page=N` opens a PDF at the page in a browser). Copying rather
 * than starting the viewer on demand: a viewer started by `ask` would have to outlive the command to be
 * of use, holding the store's lock (one process at a time) and a port that `folio serve` wants next.
 * The data directory is private to its owner (private-data-directory.ts), and so are the copies.
 */
import { mkdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Catalog } from "../stores/catalog.js";

export type LocalSourceFiles = {
  /** The local copy of the document's original file, made on first use; null when it has no stored bytes. */
  pathOf(documentId: string): Promise<string | null>;
};

/** A link to the copy at the page: `file:///…/report.pdf#page=12`. */
export function localFileLink(file: string, page: number | null): string {
  return `${pathToFileURL(file).href}${page === null ? "" : `#page=${page}`}`;
}

/** A file name safe to create: no folders, no leading dots, no control characters. */
function safeFileName(fileName: string, documentId: string): string {
  const base = [...path.basename(fileName.replaceAll("\\", "/"))]
    .map((character) => ((character.codePointAt(0) ?? 0) < 0x20 ? "_" : character))
    .join("")
    .replace(/^\.+/, "");
  return base === "" ? documentId : base;
}

export function createLocalSourceFiles(options: {
  dataDir: string;
  catalog: Pick<Catalog, "getDocument" | "getDocumentBytes">;
}): LocalSourceFiles {
  const copies = new Map<string, Promise<string | null>>();

  async function copy(documentId: string): Promise<string | null> {
    const document = await options.catalog.getDocument(documentId);
    if (!document) return null;
    const directory = path.join(path.resolve(options.dataDir), "files", documentId);
    const file = path.join(directory, safeFileName(document.fileName, documentId));
    const existing = await stat(file).catch(() => null);
    if (existing?.isFile()) return file;
    const bytes = await options.catalog.getDocumentBytes(documentId);
    if (!bytes) return null;
    await mkdir(directory, { recursive: true, mode: 0o700 });
    await writeFile(file, bytes, { mode: 0o600 });
    return file;
  }

  return {
    pathOf(documentId) {
      let pending = copies.get(documentId);
      if (!pending) {
        pending = copy(documentId);
        copies.set(documentId, pending);
      }
      return pending;
    },
  };
}
