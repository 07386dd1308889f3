import { describe, expect, it } from "vitest";
import { findDocuments } from "../../src/domain/find-documents.js";
import type { DocumentRecord } from "../../src/domain/types.js";
import { readBodyWithinLimit } from "../../src/ingest/read-limited-body.js";

function streamed(parts: number[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const [index, size] of parts.entries()) controller.enqueue(new Uint8Array(size).fill(index + 1));
      controller.close();
    },
  });
  return new Response(body);
}

describe("readBodyWithinLimit", () => {
  it("joins the parts in order when they fit", async () => {
    const bytes = await readBodyWithinLimit(streamed([2, 3]), 5);
    expect([...bytes]).toEqual([1, 1, 2, 2, 2]);
  });

  it("refuses with file_too_large once more than the limit has arrived", async () => {
    const megabyte = 1024 * 1024;
    await expect(readBodyWithinLimit(streamed([megabyte, 1]), megabyte)).rejects.toMatchObject({
      code: "file_too_large",
      message: "The file is larger than 1 MB, the most Folio accepts.",
    });
  });

  it("reads an empty body as no bytes", async () => {
    expect(await readBodyWithinLimit(new Response(null), 10)).toHaveLength(0);
  });
});

describe("findDocuments", () => {
  const document = (id: string, fileName: string, title: string) => ({ id, fileName, title }) as DocumentRecord;
  const documents = [
    document("doc-1", "Rota.pdf", "Depot rota"),
    document("doc-2", "handbook.md", "Rota.pdf"),
    document("doc-3", "other.pdf", "Other"),
  ];

  it("prefers an id, in backticks or not", () => {
    expect(findDocuments(documents, " `DOC-3` ").map((found) => found.id)).toEqual(["doc-3"]);
  });

  it("otherwise matches file names and titles, ignoring case", () => {
    expect(findDocuments(documents, "rota.pdf").map((found) => found.id)).toEqual(["doc-1", "doc-2"]);
    expect(findDocuments(documents, "nothing")).toEqual([]);
  });
});
