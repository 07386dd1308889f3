/**
 * The source viewer: `GET /files/<documentId>?exp=&sig=` serves a document's original bytes to
 * whoever holds a valid signed link, so a citation opens the file at its page (`#page=N`). A browser
 * (asking for HTML) gets a page naming the document — title and file name — with the file framed
 * below it (`&raw=1`: the bytes), or, for Markdown, HTML, Word and text, its sections rendered plainly
 * and opened at the cited one (`#section=…`); a link to a version since replaced says so and opens the
 * current one.
 * Served files are never trusted: no sniffing, and anything that is not a PDF runs sandboxed. HEAD
 * and single byte ranges are answered (PDF viewers ask for a large file in pieces).
 */

import type { ServerResponse } from "node:http";
import { decodeText } from "../../ingestion/decode-text.js";
import type { DocumentRecord, MediaType } from "../domain/types.js";
import { showInvisibleCharacters } from "../domain/visible-text.js";
import { findCurrentVersion } from "../ingest/document-versions.js";
import type { ReadDocumentBlocks } from "../ingest/process-file.js";
import type { LinkSigner } from "../links/signed-links.js";
import type { Catalog } from "../stores/catalog.js";
import { parseByteRange } from "./byte-range.js";
import { sendJsonError } from "./http-responses.js";
import { renderSections } from "./section-rendering.js";
import { sendReplacedPage, sendSectionsPage, sendViewerPage } from "./viewer-page.js";

export const FILES_PATH_PREFIX = "/files/";

/** Documents cited by section: shown as their sections, not as the file in a frame. */
const SECTIONED_TYPES = new Set<MediaType>([
  "text/markdown",
  "text/html",
  "text/plain",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
]);

export async function serveSourceFile(options: {
  url: URL;
  response: ServerResponse;
  catalog: Catalog;
  linkSigner: LinkSigner;
  /** GET (default) or HEAD: HEAD answers the same headers without the body. */
  method?: "GET" | "HEAD";
  /** The request's Range header. */
  range?: string | undefined;
  /** The request's Accept header: a browser opening a link asks for text/html first. */
  accept?: string | undefined;
  /** Absent: every document is shown framed, as the file itself. */
  readDocumentBlocks?: ReadDocumentBlocks;
}): Promise<void> {
  const { url, response } = options;
  let documentId: string;
  try {
    documentId = decodeURIComponent(url.pathname.slice(FILES_PATH_PREFIX.length));
  } catch {
    sendJsonError(response, 404, "document_not_found", "No such document.");
    return;
  }
  const verdict = options.linkSigner.verifyDocumentLink({
    documentId,
    exp: url.searchParams.get("exp"),
    sig: url.searchParams.get("sig"),
  });
  if (verdict !== "valid") {
    const message =
      verdict === "expired"
        ? "This link has expired. Ask Folio again for a fresh link."
        : "This link is not valid. Use the link exactly as Folio gave it.";
    response.writeHead(403, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
    response.end(`${message}\n`);
    return;
  }
  const wantsPage =
    options.method !== "HEAD" && url.searchParams.get("raw") !== "1" && (options.accept ?? "").includes("text/html");
  const document = await options.catalog.getDocument(documentId);
  const bytes = document ? await options.catalog.getDocumentBytes(documentId) : null;
  if (!document || !bytes) {
    await sendMissingDocument(options, documentId, wantsPage);
    return;
  }
  if (wantsPage) {
    const raw = new URLSearchParams(url.searchParams);
    raw.set("raw", "1");
    const rawUrl = `${FILES_PATH_PREFIX}${encodeURIComponent(documentId)}?${raw.toString()}`;
    const sections = await readSections(options.readDocumentBlocks, document, bytes);
    if (sections === null) sendViewerPage(response, document, rawUrl);
    else sendSectionsPage(response, document, sections, rawUrl);
    return;
  }
  const headers: Record<string, string | number> = {
    "Content-Type": document.mediaType.startsWith("text/")
      ? `${document.mediaType}; charset=${textEncodingOf(bytes)}`
      : document.mediaType,
    "Content-Length": bytes.byteLength,
    "Content-Disposition": contentDisposition(document.fileName),
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, max-age=300",
    "Referrer-Policy": "no-referrer",
  };
  // The browser's PDF viewer does not run inside a sandboxed document; every other type (HTML above all) does.
  if (document.mediaType !== "application/pdf") headers["Content-Security-Policy"] = "sandbox";
  headers["Accept-Ranges"] = "bytes";
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const range = parseByteRange(options.range, body.byteLength);
  if (range === "unsatisfiable") {
    response.writeHead(416, { ...headers, "Content-Range": `bytes */${body.byteLength}`, "Content-Length": 0 });
    response.end();
    return;
  }
  const part = range === null ? body : body.subarray(range.start, range.end + 1);
  if (range !== null) {
    headers["Content-Range"] = `bytes ${range.start}-${range.end}/${body.byteLength}`;
    headers["Content-Length"] = part.byteLength;
  }
  response.writeHead(range === null ? 200 : 206, headers);
  response.end(options.method === "HEAD" ? undefined : part);
}

/**
 * The sections page's body for a Markdown, HTML, Word or text document; null for other types, without a
 * reader, or when the stored file no longer reads (then it is shown framed, as the file itself).
 */
async function readSections(
  readDocumentBlocks: ReadDocumentBlocks | undefined,
  document: DocumentRecord,
  bytes: Uint8Array,
): Promise<string | null> {
  if (!readDocumentBlocks || !SECTIONED_TYPES.has(document.mediaType)) return null;
  try {
    return renderSections(await readDocumentBlocks(bytes, document.fileName));
  } catch {
    // It was read when it was uploaded; a parser change since must not make its citations unopenable.
    return null;
  }
}

/** A deleted document: plainly gone, or replaced by a newer version (document-versions.ts), then said so. */
async function sendMissingDocument(
  options: { response: ServerResponse; catalog: Catalog; linkSigner: LinkSigner },
  documentId: string,
  wantsPage: boolean,
): Promise<void> {
  const version = await findCurrentVersion(options.catalog, documentId);
  if (!version) {
    sendJsonError(options.response, 404, "document_not_found", "This document no longer exists.");
    return;
  }
  const current = version.current
    ? { document: version.current, url: options.linkSigner.signDocumentUrl({ documentId: version.current.id }) }
    : null;
  if (wantsPage) {
    sendReplacedPage(options.response, version.note, current);
    return;
  }
  const replacedName = showInvisibleCharacters(version.note.fileName);
  const message = current
    ? `This version of ${replacedName} was replaced by a newer upload on ${version.note.replacedAt.slice(0, 10)}; the current version is at ${current.url}`
    : `This version of ${replacedName} was replaced by a newer upload on ${version.note.replacedAt.slice(0, 10)}, which has since been deleted too.`;
  const body = JSON.stringify({
    error: { code: "document_replaced", message },
    ...(current ? { currentUrl: current.url } : {}),
  });
  options.response.writeHead(410, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
  });
  options.response.end(body);
}

/**
 * `inline` with an ASCII fallback name and the UTF-8 name (RFC 6266 / 5987), direction controls shown
 * and zero-width characters dropped (visible-text.ts): a saved `invoice\u202Efdp.exe` must not be
 * named "invoiceexe.pdf" in the downloads list.
 */
export function contentDisposition(rawFileName: string): string {
  const fileName = showInvisibleCharacters(rawFileName);
  const fallback = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `inline; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Text uploads are stored as sent (UTF-16, Shift-JIS or Windows-1252 included): name the encoding the
 * parser detected, so the browser shows the same characters Folio indexed.
 */
function textEncodingOf(bytes: Uint8Array): string {
  return decodeText(bytes)?.encoding ?? "utf-8";
}
