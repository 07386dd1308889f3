/**
 * The pages a person sees when a citation link is opened in a browser: the document under a title bar
 * naming it as Folio does everywhere ("title (file name)" — a 10-K's own metadata title is often just its
 * accession number) — a PDF or spreadsheet inside a frame, a Markdown, HTML, Word or text document as
 * its sections rendered plainly (section-rendering.ts), opened at the cited one — and, for a version an
 * upload has since replaced, a page that says so and opens the current version. All are built from data
 * that came from documents, so every piece is escaped; a page runs only its own script (a per-response
 * nonce), and the sections page none at all.
 */
import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { labelDocument } from "../domain/document-label.js";
import type { DocumentRecord } from "../domain/types.js";
import { showInvisibleCharacters } from "../domain/visible-text.js";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function sendPage(response: ServerResponse, status: number, html: (nonce: string) => string): void {
  const nonce = randomBytes(16).toString("base64");
  const body = Buffer.from(html(nonce), "utf8");
  response.writeHead(status, {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": body.byteLength,
    "Content-Security-Policy": `default-src 'none'; frame-src 'self'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, no-store",
    // The URL carries the link's signature: it must not leak to whatever the document links to.
    "Referrer-Policy": "no-referrer",
  });
  response.end(body);
}

const PAGE_STYLE = `html, body { margin: 0; height: 100%; font-family: system-ui, sans-serif; }
body { display: flex; flex-direction: column; }
header { padding: 8px 14px; border-bottom: 1px solid #d9dde3; background: #f6f7f9; font-size: 14px; display: flex; gap: 12px; align-items: baseline; }
header h1 { font-size: 15px; margin: 0; flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
header .file { color: #5b6472; font-weight: normal; }
iframe { border: 0; flex: 1; width: 100%; }
main { max-width: 640px; margin: 48px auto; padding: 0 16px; line-height: 1.5; }`;

const SECTIONS_STYLE = `${PAGE_STYLE}
body { display: block; height: auto; }
header { position: sticky; top: 0; }
article { max-width: 760px; margin: 0 auto; padding: 8px 16px 48px; line-height: 1.5; overflow-wrap: anywhere; }
article section { padding: 2px 10px; margin: 0 -10px; border-radius: 6px; scroll-margin-top: 56px; }
article section:target { background: #fff6d6; box-shadow: inset 3px 0 0 #d4a72c; }
article p { white-space: pre-line; margin: 0.6em 0; }
article h1, article h2, article h3, article h4, article h5, article h6 { line-height: 1.25; margin: 1em 0 0.4em; }
.table { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 14px; }
th, td { border: 1px solid #d9dde3; padding: 4px 8px; text-align: left; vertical-align: top; }
caption { text-align: left; font-weight: 600; padding-bottom: 4px; }`;

/** The title bar's heading: "title file-name", or the file name alone when the title is only that. */
function headingOf(document: DocumentRecord): { title: string; heading: string; fileName: string } {
  const label = labelDocument(document.title, document.fileName);
  // Direction controls shown, zero-width characters dropped: "invoice\u202Efdp.exe" must not read "invoiceexe.pdf".
  const fileName = showInvisibleCharacters(document.fileName);
  const heading =
    label === fileName
      ? escapeHtml(fileName)
      : `${escapeHtml(showInvisibleCharacters(document.title).replace(/\s+/g, " ").trim())} <span class="file">${escapeHtml(fileName)}</span>`;
  return { title: escapeHtml(label), heading, fileName };
}

/**
 * A document without pages as its sections, rendered plainly (`sectionsHtml`, already escaped). The
 * link's `#section=…` is the id of the cited section: the browser scrolls there and marks it, with no
 * script. `rawUrl` downloads the original file.
 */
export function sendSectionsPage(
  response: ServerResponse,
  document: DocumentRecord,
  sectionsHtml: string,
  rawUrl: string,
): void {
  const { title, heading, fileName } = headingOf(document);
  const source = escapeHtml(rawUrl);
  sendPage(
    response,
    200,
    (nonce) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style nonce="${nonce}">${SECTIONS_STYLE}</style>
</head>
<body>
<header><h1 data-role="viewer-title">${heading}</h1><a href="${source}" download="${escapeHtml(fileName)}">Download</a></header>
<article data-role="document-sections">
${sectionsHtml}
</article>
</body>
</html>
`,
  );
}

/**
 * The document framed under its name. `rawUrl` serves the bytes themselves; the script adds the link's
 * `#page=N` (which browsers never send to the server) so the PDF opens at the cited page.
 */
export function sendViewerPage(response: ServerResponse, document: DocumentRecord, rawUrl: string): void {
  const { title, heading, fileName } = headingOf(document);
  const source = escapeHtml(rawUrl);
  sendPage(
    response,
    200,
    (nonce) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style nonce="${nonce}">${PAGE_STYLE}</style>
</head>
<body>
<header><h1 data-role="viewer-title">${heading}</h1><a href="${source}" download="${escapeHtml(fileName)}">Download</a></header>
<iframe id="document" title="${title}" data-src="${source}"></iframe>
<noscript><p><a href="${source}">Open ${title}</a></p></noscript>
<script nonce="${nonce}">
const frame = document.getElementById("document");
frame.src = frame.dataset.src + location.hash;
</script>
</body>
</html>
`,
  );
}

/**
 * An earlier answer's link to a version that has been replaced: what happened, when, and a link to the
 * current version (at the same page, which may now hold something else), or that none is left.
 */
export function sendReplacedPage(
  response: ServerResponse,
  replaced: { title: string; fileName: string; replacedAt: string },
  current: { document: DocumentRecord; url: string } | null,
): void {
  const oldLabel = escapeHtml(labelDocument(replaced.title, replaced.fileName));
  const when = escapeHtml(replaced.replacedAt.slice(0, 10));
  const next = current
    ? `<p>Open the current version: <a id="current" data-role="current-version" href="${escapeHtml(current.url)}">${escapeHtml(
        labelDocument(current.document.title, current.document.fileName),
      )}</a>. The page this answer cited may read differently there — ask again for an answer from the new version.</p>`
    : "<p>That newer version has since been deleted too; ask again to get an answer from the documents there are now.</p>";
  sendPage(
    response,
    410,
    (nonce) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Replaced: ${oldLabel}</title>
<style nonce="${nonce}">${PAGE_STYLE}</style>
</head>
<body>
<main data-role="replaced-version">
<h1>This version was replaced</h1>
<p>${oldLabel} was replaced by a newer upload of the same file on ${when}, so this link no longer opens the version the answer quoted.</p>
${next}
</main>
<script nonce="${nonce}">
const link = document.getElementById("current");
if (link) link.href += location.hash;
</script>
</body>
</html>
`,
  );
}
