/**
 * Defence in depth behind the saved-index checksums (issue #30): the rows an answer quotes are checked
 * against the spaces searched where they are fetched by id, so an index naming another space's chunk
 * (a damaged or altered saved file) never puts that chunk in an answer.
 */
import { describe, expect, it } from "vitest";
import type { ChunkRecord, DocumentRecord } from "../../src/domain/types.js";
import { type Logger, silentLogger } from "../../src/logger.js";
import { joinSearchResults } from "../../src/retrieval/sparse-retriever.js";
import type { Catalog } from "../../src/stores/catalog.js";

function chunk(id: string, documentId: string, spaceId: string): ChunkRecord {
  return { id, documentId, spaceId, kind: "text", text: `text of ${id}`, tokenCount: 3, position: 0, provenance: {} };
}

function document(id: string, spaceId: string): DocumentRecord {
  return {
    id,
    spaceId,
    title: id,
    fileName: `${id}.pdf`,
    mediaType: "application/pdf",
    sha256: "0",
    byteSize: 1,
    pageCount: 1,
    uploader: null,
    status: "ready",
    awaitingMeaning: false,
    createdAt: new Date(0),
  };
}

const CHUNKS = [
  chunk("c1", "d1", "console:mine"),
  chunk("c2", "d2", "console:theirs"),
  chunk("c3", "d3", "console:mine"),
];
// d3 is another space's document although its chunk row says "mine": rows that disagree are dropped too.
const DOCUMENTS = [document("d1", "console:mine"), document("d2", "console:theirs"), document("d3", "console:theirs")];

const catalog = {
  async getChunks(ids: string[]) {
    return CHUNKS.filter((row) => ids.includes(row.id));
  },
  async getDocuments(ids: string[]) {
    return DOCUMENTS.filter((row) => ids.includes(row.id));
  },
} as unknown as Catalog;

describe("joinSearchResults", () => {
  it("drops a hit whose chunk or document belongs to a space not searched, with a warning", async () => {
    const warnings: unknown[] = [];
    const logger = { ...silentLogger, warn: (fields: unknown) => warnings.push(fields) } as Logger;
    // What an index whose saved files were altered reports: every hit in the asked space.
    const hits = [
      { chunkId: "c2", documentId: "d1", spaceId: "console:mine", score: 0.9 },
      { chunkId: "c1", documentId: "d1", spaceId: "console:mine", score: 0.8 },
      { chunkId: "c3", documentId: "d3", spaceId: "console:mine", score: 0.7 },
    ];
    const results = await joinSearchResults(catalog, hits, { spaceIds: ["console:mine"], logger });
    expect(results.map((result) => [result.chunkId, result.spaceId, result.score])).toEqual([
      ["c1", "console:mine", 0.8],
    ]);
    expect(warnings).toEqual([
      { chunkId: "c2", documentId: "d2", space: "console:theirs" },
      { chunkId: "c3", documentId: "d3", space: "console:mine" },
    ]);
  });
});
