/**
 * Decompression bombs through the real upload path (issue #22): the console's multipart upload, the
 * ingestion queue, the parse worker pool. Every bomb is built in code and refused with its own code;
 * the server's resident memory stays far below the budget while it refuses them (the peak is printed),
 * it keeps serving, and the document uploaded before is intact. Then the watchdog: a bomb that no
 * format check sees (Flate behind an ASCIIHex filter) is stopped when the worker grows past its budget.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveParseLimits } from "../../ingestion/limits.js";
import { closeParseWorkers, processFileInWorker } from "../../ingestion/run-in-worker.js";
import { isFolioError } from "../../src/errors.js";
import {
  buildDocx,
  buildLyingDocx,
  buildLyingXlsx,
  buildPdfBomb,
  buildStoredMismatchDocx,
  buildTextPdf,
} from "../support/bomb-fixtures.js";
import { uploadToConsole } from "../support/console-client.js";
import { robustnessChunking } from "../support/robustness-corpus.js";
import { hasSharedData } from "../support/shared-paths.js";
import { startTestServer, type TestServer } from "../support/start-test-server.js";

const megabyte = 1024 * 1024;
/** What refusing one bomb may add to the server's resident memory; the budget (maxMemoryMb) is 1536 MB. */
const MAX_GROWTH_PER_BOMB_MB = 192;

if (!hasSharedData)
  console.warn("decompression-bombs: skipped — no shared models (../shared) for the tokenizer and embedder.");

/** Samples RSS while `run` is pending and returns its result with the highest growth over the start. */
async function withPeakGrowth<T>(run: () => Promise<T>): Promise<{ result: T; peakGrowthMb: number }> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    const result = await run();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, peakGrowthMb: Math.round((peak - start) / megabyte) };
  } finally {
    clearInterval(sampler);
  }
}

type UploadLine = { type: string; result?: { status: string; error?: { code: string; message: string } } };

async function uploadResult(server: TestServer, fileName: string, bytes: Uint8Array) {
  const response = await uploadToConsole(server.url, fileName, bytes);
  expect(response.status).toBe(200);
  const lines = (await response.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as UploadLine);
  const result = lines.find((line) => line.type === "result")?.result;
  if (!result) throw new Error(`no result line for ${fileName}`);
  return result;
}

describe.skipIf(!hasSharedData)("decompression bombs through the console upload", () => {
  let server: TestServer;
  const peaks: Record<string, number> = {};

  beforeAll(async () => {
    server = await startTestServer();
    const honest = await uploadResult(
      server,
      "policy.docx",
      buildDocx("Receipts are required for every expense over twenty-five dollars."),
    );
    expect(honest.status).toBe("ingested");
    const control = await uploadResult(server, "revenue.pdf", buildTextPdf());
    expect(control.status).toBe("ingested");
  }, 120_000);

  afterAll(async () => {
    console.info(`decompression-bombs: peak RSS growth per refused bomb (MB): ${JSON.stringify(peaks)}`);
    await server?.close();
  });

  const bombs: Array<{ fileName: string; build: () => Uint8Array; code: string }> = [
    { fileName: "lying-2gb.docx", build: () => buildLyingDocx(900 * 1024, 2048), code: "zip_size_mismatch" },
    { fileName: "stored-mismatch.docx", build: buildStoredMismatchDocx, code: "zip_size_mismatch" },
    { fileName: "lying-1gb.xlsx", build: () => buildLyingXlsx(1024), code: "zip_size_mismatch" },
    {
      fileName: "nested.docx",
      build: () => buildDocx("outer", { "word/embeddings/inner.zip": buildLyingDocx(900 * 1024, 1024) }),
      code: "zip_bomb",
    },
    { fileName: "content-2gb.pdf", build: () => buildPdfBomb("content", 2048), code: "pdf_stream_too_large" },
    {
      fileName: "object-stream-2gb.pdf",
      build: () => buildPdfBomb("object-stream", 2048),
      code: "pdf_stream_too_large",
    },
    { fileName: "image-2gb.pdf", build: () => buildPdfBomb("image", 2048), code: "pdf_stream_too_large" },
  ];

  it.each(bombs)(
    "refuses $fileName with $code, within the memory bound",
    async ({ fileName, build, code }) => {
      const bytes = build();
      expect(bytes.byteLength).toBeLessThan(5 * megabyte);
      const { result, peakGrowthMb } = await withPeakGrowth(() => uploadResult(server, fileName, bytes));
      peaks[fileName] = peakGrowthMb;
      expect({ status: result.status, code: result.error?.code }).toEqual({ status: "rejected", code });
      expect(result.error?.message).toMatch(/^[A-Z].{15,} — .{10,}[.]$/);
      expect(peakGrowthMb).toBeLessThan(MAX_GROWTH_PER_BOMB_MB);
    },
    60_000,
  );

  it("keeps serving, with the documents uploaded before intact", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const documents = await server.folio.core.listDocuments("console:default");
    expect(documents.map((document) => document.fileName).sort()).toEqual(["policy.docx", "revenue.pdf"]);
  });
});

describe.skipIf(!hasSharedData)("memory watchdog over the parse workers", () => {
  afterAll(async () => {
    await closeParseWorkers();
  });

  it("stops a bomb no format check sees once the worker grows past its budget, and the pool carries on", async () => {
    // Its own heap cap gives this test a pool of its own. The first file in a fresh worker also loads
    // pdf.js and the tokenizer, so the warm-up runs under the default budget; then 128 MB, far above what
    // a small PDF's parse takes.
    const limits = resolveParseLimits({ maxHeapMb: 900, maxMemoryMb: 128 });
    const parse = (fileName: string, bytes: Uint8Array, parseLimits = limits) =>
      processFileInWorker({ bytes, fileName, limits: parseLimits, chunking: robustnessChunking }).then(
        () => "parsed",
        (error: unknown) => (isFolioError(error) ? error.code : String(error)),
      );
    expect(await parse("warm-up.pdf", buildTextPdf(), { ...limits, maxMemoryMb: 1536 })).toBe("parsed");
    const { result, peakGrowthMb } = await withPeakGrowth(() =>
      parse("hex.pdf", buildPdfBomb("hex-wrapped-content", 2048)),
    );
    console.info(`decompression-bombs: hex-wrapped 2 GB PDF stopped by the watchdog at ${peakGrowthMb} MB peak growth`);
    expect(result).toBe("parse_memory_exceeded");
    expect(peakGrowthMb).toBeLessThan(512);
    // The stopped worker is replaced by a fresh one, which loads pdf.js and the tokenizer with its first file
    // (CI once saw that start-up pass 128 MB on a loaded machine): that file gets the default budget, the
    // next one the tight budget again.
    expect(await parse("after.pdf", buildTextPdf(), { ...limits, maxMemoryMb: 1536 })).toBe("parsed");
    expect(await parse("after-warm.pdf", buildTextPdf())).toBe("parsed");
  }, 120_000);
});
