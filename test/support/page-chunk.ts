/**
 * A search result standing for one PDF chunk that spans the given pages (their texts joined by line
 * breaks), with page and character provenance as the chunker would give it, for answer tests.
 */
import type { PageText, SearchResult } from "../../src/domain/types.js";

export function pageChunk(documentId: string, title: string, pages: PageText[]): SearchResult {
  const first = pages[0]?.pageNumber ?? 1;
  const last = pages.at(-1)?.pageNumber ?? first;
  return {
    chunkId: `${documentId}-chunk`,
    documentId,
    spaceId: "console:test",
    file: `${documentId}.pdf`,
    title,
    mediaType: "application/pdf",
    pageStart: first,
    pageEnd: last,
    score: 1,
    text: pages.map((page) => page.text).join("\n"),
    provenance: { pageStart: first, pageEnd: last, charStart: 0, charEnd: pages.at(-1)?.text.length ?? 0 },
    kind: "text",
  };
}
