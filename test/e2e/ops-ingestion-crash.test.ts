/**
 * An ingestion killed mid-file: a real `folio serve` child (embedded catalog, vectors in the Qdrant
 * stand-in) is stopped with SIGKILL while it writes a PDF's vectors — the catalog holds the document
 * as "indexing" and Qdrant holds a batch of its points. A question asked at that moment gets none of
 * its chunks. On restart the interrupted job is failed with a log line, the partial document, its
 * points and its stored bytes are gone, and the same file ingests again and is answered from.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPgliteClient } from "../../src/stores/pglite-client.js";
import { askConsole, CONSOLE_HEADERS, uploadToConsole } from "../support/console-client.js";
import { type FolioProcess, startFolioServe } from "../support/ops-folio-process.js";
import { type HoldingProxy, startHoldingProxy } from "../support/ops-holding-proxy.js";
import { keepUpsertedPoints } from "../support/ops-qdrant-points.js";
import { type QdrantStandIn, startQdrantStandIn } from "../support/qdrant-stand-in.js";
import { hasSharedData, sharedData, sharedModel } from "../support/shared-paths.js";

const COLLECTION = "ops_ingestion_crash";
const SPACE = "console:default";
const PDF_NAME = "nist-sp800-61r2-incident-handling.pdf";

if (!hasSharedData)
  console.warn("ops-ingestion-crash: skipped — no shared data (../shared) for the PDF and tokenizer.");

/** Embedded catalog in `dataDir`, vectors in Qdrant at `qdrantUrl`, keyword search only. */
function environment(dataDir: string, qdrantUrl: string): Record<string, string> {
  return {
    FOLIO_DATA_DIR: dataDir,
    FOLIO_MODELS_DIR: path.dirname(sharedModel("bge-small-en-v1.5")),
    FOLIO_EMBED_MODEL: "none",
    QDRANT_URL: qdrantUrl,
    QDRANT_COLLECTION: COLLECTION,
  };
}

async function documentNames(url: string): Promise<string[]> {
  const response = await fetch(`${url}/api/documents`, { headers: CONSOLE_HEADERS });
  expect(response.status).toBe(200);
  return ((await response.json()) as { documents: Array<{ fileName: string }> }).documents.map((d) => d.fileName);
}

describe.skipIf(!hasSharedData)("ingestion killed mid-file", () => {
  let standIn: QdrantStandIn;
  let proxy: HoldingProxy;
  let dataDir: string;
  const children: FolioProcess[] = [];

  beforeAll(async () => {
    standIn = await startQdrantStandIn({ collection: COLLECTION, exists: false });
    proxy = await startHoldingProxy(standIn.url);
    dataDir = await mkdtemp(path.join(os.tmpdir(), "folio-ops-crash-"));
  });

  afterAll(async () => {
    for (const served of children) await served.kill();
    await proxy?.close();
    await standIn?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("leaves no partial document, never searches one, and ingests the file again after a restart", async () => {
    const stored = keepUpsertedPoints(standIn, COLLECTION, { spaceId: SPACE });
    const bytes = new Uint8Array(await readFile(sharedData("enterprise-pdfs", "pdfs", PDF_NAME)));
    const first = await startFolioServe(environment(dataDir, proxy.url));
    children.push(first);
    // A complete document already in the space, so questions go to search (an empty space is answered without it).
    const rota =
      "# Depot rota\n\nForklift inspections are recorded by the shift supervisor before the morning briefing.\n";
    expect(await (await uploadToConsole(first.url, "rota.md", rota)).text()).toContain('"status":"ingested"');

    // The first batch of the PDF's points reaches Qdrant; its acknowledgement never reaches Folio.
    proxy.holdWhen((method, requestPath) => method === "PUT" && requestPath.includes("/points?"));
    const held = proxy.nextHeld();
    const interrupted = uploadToConsole(first.url, PDF_NAME, bytes)
      .then((response) => response.text())
      .catch((error: unknown) => `upload cut off: ${String(error)}`);
    await held;
    const documentIdsInQdrant = new Set([...stored.points.values()].map((payload) => String(payload.documentId)));
    expect(documentIdsInQdrant.size).toBe(2);
    const rotaDocumentId = [...stored.points.values()][0]?.documentId;
    const partialDocumentId = [...documentIdsInQdrant].find((id) => id !== rotaDocumentId) ?? "";
    const partialPointIds = [...stored.points].filter(([, payload]) => payload.documentId === partialDocumentId);
    expect(partialPointIds.length).toBeGreaterThan(0);

    // Mid-ingestion, Qdrant returns the partial document's points, and search drops every one of them.
    const queriesBefore = stored.queried.length;
    const during = await askConsole(first.url, "How should an incident response team handle a security incident?");
    const returnedByQdrant = new Set(stored.queried.slice(queriesBefore).flat());
    expect(partialPointIds.some(([id]) => returnedByQdrant.has(id))).toBe(true);
    const duringDone = during.at(-1);
    expect(duringDone?.type).toBe("done");
    if (duringDone?.type === "done") {
      expect(duringDone.answer.citations.map((citation) => citation.file)).not.toContain(PDF_NAME);
    }
    expect(await documentNames(first.url)).toEqual(["rota.md"]);

    await first.kill();
    expect(await interrupted).not.toContain('"status":"ingested"');

    proxy.holdWhen(null);
    const second = await startFolioServe(environment(dataDir, proxy.url));
    children.push(second);
    expect(second.output()).toContain("interrupted ingestion cleaned up");
    expect(second.output()).toContain(partialDocumentId);
    // Its points are gone from Qdrant, its rows (and stored bytes) from the catalog.
    expect([...stored.points.values()].filter((payload) => payload.documentId === partialDocumentId)).toEqual([]);
    expect(await documentNames(second.url)).toEqual(["rota.md"]);

    // The same bytes are ingested afresh (not "unchanged"), and questions are answered from them.
    const again = await (await uploadToConsole(second.url, PDF_NAME, bytes)).text();
    expect(again).toContain('"status":"ingested"');
    expect(await documentNames(second.url)).toEqual(["rota.md", PDF_NAME]);
    const after = await askConsole(second.url, "How should an incident response team handle a security incident?");
    const afterDone = after.at(-1);
    expect(afterDone?.type).toBe("done");
    if (afterDone?.type === "done") {
      expect(afterDone.answer.citations.map((citation) => citation.file)).toContain(PDF_NAME);
    }

    // In the database itself: the rota and the re-upload, both ready; the interrupted job failed cleanly.
    await second.kill();
    const database = await openPgliteClient(path.join(dataDir, "db"));
    try {
      const documents = await database.query<{ id: string; status: string; bytes: number }>(
        "SELECT id, status, octet_length(bytes) AS bytes FROM documents WHERE file_name = $1",
        [PDF_NAME],
      );
      expect(documents.rows).toHaveLength(1);
      expect(documents.rows[0]).toMatchObject({ status: "ready", bytes: bytes.byteLength });
      expect(documents.rows[0]?.id).not.toBe(partialDocumentId);
      const leftovers = await database.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM chunks WHERE document_id = $1",
        [partialDocumentId],
      );
      expect(leftovers.rows[0]?.count).toBe(0);
      const jobs = await database.query<{ status: string; error_code: string | null; document_id: string | null }>(
        "SELECT status, error_code, document_id FROM ingestion_jobs WHERE file_name = $1 ORDER BY created_at",
        [PDF_NAME],
      );
      expect(jobs.rows).toEqual([
        { status: "failed", error_code: "ingestion_interrupted", document_id: partialDocumentId },
        { status: "succeeded", error_code: null, document_id: documents.rows[0]?.id },
      ]);
    } finally {
      await database.close();
    }
  }, 240_000);
});
