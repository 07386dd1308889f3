/**
 * A throw-away space for an evaluation: the documents go in through the normal ingestion path (so the
 * evaluation measures what users get), the BM25 statistics are rebuilt once at the end, and everything
 * is deleted afterwards. Shared by `folio eval answers` and `folio eval conversations`.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Folio } from "../composition-root.js";

export type EvaluationSpace = { spaceId: string; ingested: number; rejected: string[] };

export function newEvaluationSpaceId(): string {
  return `eval:${randomUUID()}`;
}

/** Ingests each file once, under its own file name, into the space; rejected files are listed, not fatal. */
export async function ingestIntoEvaluationSpace(
  folio: Pick<Folio, "ingestion" | "sparseVectors">,
  spaceId: string,
  filePaths: readonly string[],
  onProgress?: (message: string) => void,
): Promise<EvaluationSpace> {
  let ingested = 0;
  const rejected: string[] = [];
  for (const filePath of new Set(filePaths)) {
    const fileName = path.basename(filePath);
    const bytes = new Uint8Array(await readFile(filePath));
    const result = await folio.ingestion.ingestFile({ bytes, fileName, spaceId, uploader: null });
    if (result.status === "rejected") rejected.push(fileName);
    else ingested += 1;
    onProgress?.(`ingested ${fileName}: ${result.status}`);
  }
  await folio.sparseVectors.rebuild(spaceId);
  return { spaceId, ingested, rejected };
}

export async function deleteEvaluationSpace(folio: Pick<Folio, "catalog" | "core">, spaceId: string): Promise<void> {
  for (const document of await folio.catalog.listDocuments(spaceId)) await folio.core.deleteDocument(document.id);
}
