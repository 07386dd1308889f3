/**
 * Bounded decompression (issue #22): ZIP entries inflate only to their declared size, a package that
 * lies is refused before any parser runs, a PDF's Flate streams are counted against the per-file budget
 * before pdf.js opens it, and the memory watchdog reports a parse that grows past its budget. Every bomb
 * is built in code (test/support/bomb-fixtures.ts).
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { inflateBounded } from "../../ingestion/bounded-inflate.js";
import { DEFAULT_PARSE_LIMITS, resolveParseLimits } from "../../ingestion/limits.js";
import { createMemoryWatchdog } from "../../ingestion/memory-watchdog.js";
import { parseDocument } from "../../ingestion/parse-document.js";
import { guardPdfStreams } from "../../ingestion/pdf-stream-guard.js";
import { unpackZip } from "../../ingestion/unpack-zip.js";
import { ParseError } from "../../src/errors.js";
import {
  buildDocx,
  buildLyingDocx,
  buildLyingXlsx,
  buildPdfBomb,
  buildStoredMismatchDocx,
  buildTextPdf,
  compressedRun,
} from "../support/bomb-fixtures.js";

const megabyte = 1024 * 1024;

function refusal(run: () => unknown): { code: string; message: string; details: Record<string, unknown> } {
  try {
    run();
  } catch (error) {
    if (error instanceof ParseError) return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("inflateBounded", () => {
  it("stops a 1 GB run a few megabytes past a 1 MB ceiling, keeping nothing", () => {
    const inflated = inflateBounded(compressedRun(1024, "raw"), {
      maxBytes: megabyte,
      format: "raw",
      keepOutput: true,
    });
    expect(inflated.exceeded).toBe(true);
    expect(inflated.bytes.byteLength).toBe(0);
    // One 4 KB step of input inflates to at most ~4.2 MB (Deflate's ratio is ~1032:1).
    expect(inflated.producedBytes).toBeGreaterThan(megabyte);
    expect(inflated.producedBytes).toBeLessThan(megabyte + 4.2 * megabyte);
  });

  it("inflates honest data whole", () => {
    const inflated = inflateBounded(compressedRun(3, "zlib"), {
      maxBytes: 3 * megabyte,
      format: "zlib",
      keepOutput: true,
    });
    expect(inflated).toMatchObject({ exceeded: false, ended: true, invalid: false, producedBytes: 3 * megabyte });
    expect(inflated.bytes.byteLength).toBe(3 * megabyte);
    expect(inflated.bytes.every((byte) => byte === 0x20)).toBe(true);
  });

  it("marks data that is not Deflate as invalid", () => {
    const inflated = inflateBounded(new Uint8Array([1, 2, 3, 4, 5, 6, 7]), {
      maxBytes: 100,
      format: "zlib",
      keepOutput: false,
    });
    expect(inflated).toEqual({
      bytes: new Uint8Array(0),
      producedBytes: 0,
      exceeded: false,
      ended: false,
      invalid: true,
      consumedBytes: 7,
    });
  });

  it("stops at the end of the Deflate stream when more bytes follow it (a PDF stream, then the file)", () => {
    const stream = compressedRun(1, "zlib");
    const followed = Buffer.concat([stream, Buffer.alloc(1024 * 1024, 0x41)]);
    const inflated = inflateBounded(followed, { maxBytes: 2 * megabyte, format: "zlib", keepOutput: false });
    expect({ ended: inflated.ended, invalid: inflated.invalid, producedBytes: inflated.producedBytes }).toEqual({
      ended: true,
      invalid: false,
      producedBytes: megabyte,
    });
    // Stopped within one 4 KB step of the stream's end, not at the end of what follows.
    expect(inflated.consumedBytes).toBeLessThanOrEqual(stream.byteLength + 4096);
  });
});

describe("unpackZip", () => {
  const mismatchMessage =
    "A packed part of this file unpacks to a different size than the file declares, so Folio did not open it (this is how decompression bombs hide) — save the document again in its original program and re-upload.";

  it("refuses a DOCX whose 900 KB document part inflates to 2 GB, at its declared size", () => {
    const bomb = buildLyingDocx(900 * 1024, 2048);
    expect(bomb.byteLength).toBeLessThan(3 * megabyte);
    const before = process.memoryUsage.rss();
    expect(refusal(() => unpackZip(bomb, "report.docx", DEFAULT_PARSE_LIMITS))).toEqual({
      code: "zip_size_mismatch",
      message: mismatchMessage,
      details: { entry: "word/document.xml", declaredBytes: 900 * 1024, reason: "inflates past its declared size" },
    });
    // Stopped at 900 KB plus one step: nowhere near the 2 GB the part holds.
    expect(process.memoryUsage.rss() - before).toBeLessThan(64 * megabyte);
  });

  it("refuses a workbook whose 500 KB sheet inflates to 1 GB", () => {
    expect(refusal(() => unpackZip(buildLyingXlsx(1024), "numbers.xlsx", DEFAULT_PARSE_LIMITS)).code).toBe(
      "zip_size_mismatch",
    );
  });

  it("refuses a stored part whose length differs from its declared size", () => {
    expect(refusal(() => unpackZip(buildStoredMismatchDocx(), "stored.docx", DEFAULT_PARSE_LIMITS))).toEqual({
      code: "zip_size_mismatch",
      message: mismatchMessage,
      details: { entry: "word/document.xml", declaredBytes: 10, reason: "stored size differs" },
    });
  });

  it("refuses an archive nested in a package by its name", () => {
    const inner = buildDocx("inner");
    expect(
      refusal(() =>
        unpackZip(buildDocx("outer", { "word/embeddings/inner.zip": inner }), "n.docx", DEFAULT_PARSE_LIMITS),
      ),
    ).toEqual({
      code: "zip_bomb",
      message:
        "This file contains another compressed archive inside it, which Folio does not open — remove the embedded archive and upload it again.",
      details: { entry: "word/embeddings/inner.zip" },
    });
  });

  it("keeps an embedded workbook packed (its own bomb is never inflated) and counts it in the budget", () => {
    const embedded = buildLyingXlsx(256);
    const unpacked = unpackZip(
      buildDocx("Revenue grew.", { "word/embeddings/Microsoft_Excel_Worksheet.xlsx": embedded }),
      "chart.docx",
      DEFAULT_PARSE_LIMITS,
    );
    expect(Object.keys(unpacked.files)).toEqual([
      "[Content_Types].xml",
      "_rels/.rels",
      "word/document.xml",
      "word/embeddings/Microsoft_Excel_Worksheet.xlsx",
    ]);
    expect(Buffer.from(unpacked.files["word/embeddings/Microsoft_Excel_Worksheet.xlsx"] ?? []).equals(embedded)).toBe(
      true,
    );
    const tight = resolveParseLimits({ maxUncompressedBytes: 1024 * 1024 });
    expect(
      refusal(() => unpackZip(buildDocx("x", { "a.bin": randomBytes(2 * megabyte) }), "big.docx", tight)).code,
    ).toBe("archive_too_large");
  });

  it("unpacks an honest DOCX and parses the repacked copy", async () => {
    const document = await parseDocument(
      buildDocx("Quarterly revenue grew four percent."),
      "honest.docx",
      DEFAULT_PARSE_LIMITS,
    );
    expect(document.blocks).toEqual([{ kind: "text", text: "Quarterly revenue grew four percent.", headingPath: [] }]);
  });
});

describe("guardPdfStreams", () => {
  const limits = resolveParseLimits({ maxUncompressedBytes: 200 * megabyte });
  const bombMessage =
    "The compressed content of this PDF expands to more than 200 MB, so Folio did not open it (it looks like a decompression bomb) — print it to a new PDF or split it, and upload that.";

  it.each(["content", "object-stream", "image"] as const)("refuses a 1 GB Flate bomb as a PDF's %s stream", (place) => {
    const bomb = buildPdfBomb(place, 1024);
    expect(bomb.byteLength).toBeLessThan(2 * megabyte);
    const refused = refusal(() => guardPdfStreams(bomb, "bomb.pdf", limits));
    expect({ code: refused.code, message: refused.message }).toEqual({
      code: "pdf_stream_too_large",
      message: bombMessage,
    });
  });

  it("bounds each stream by the budget and all together by four times it", () => {
    const streams = (count: number, megabytes: number) => {
      const stream = compressedRun(megabytes, "zlib");
      return Buffer.concat(
        Array.from({ length: count }, () =>
          Buffer.concat([
            Buffer.from("1 0 obj\n<< /Filter /FlateDecode >>\nstream\n"),
            stream,
            Buffer.from("\nendstream\nendobj\n"),
          ]),
        ),
      );
    };
    const tight = resolveParseLimits({ maxUncompressedBytes: 20 * megabyte });
    // Four 15 MB streams (60 MB in all) pass; one 25 MB stream does not, nor do six 15 MB (90 MB > 80 MB).
    expect(() => guardPdfStreams(streams(4, 15), "four.pdf", tight)).not.toThrow();
    const single = refusal(() => guardPdfStreams(streams(1, 25), "one.pdf", tight));
    expect({ code: single.code, limitBytes: single.details.limitBytes }).toEqual({
      code: "pdf_stream_too_large",
      limitBytes: 20 * megabyte,
    });
    const many = refusal(() => guardPdfStreams(streams(6, 15), "six.pdf", tight));
    expect({ code: many.code, limitBytes: many.details.limitBytes }).toEqual({
      code: "pdf_stream_too_large",
      limitBytes: 80 * megabyte,
    });
  });

  it("passes a PDF with ordinary streams, and cannot see a bomb behind an ASCIIHex filter (the watchdog's case)", () => {
    expect(() => guardPdfStreams(buildTextPdf(), "text.pdf", limits)).not.toThrow();
    expect(() => guardPdfStreams(buildPdfBomb("hex-wrapped-content", 1024), "hex.pdf", limits)).not.toThrow();
  });
});

describe("memory watchdog", () => {
  it("reports each parse whose growth since it started passes its budget, once", () => {
    let resident = 500 * megabyte;
    const watchdog = createMemoryWatchdog({ residentBytes: () => resident, intervalMs: 0 });
    const reports: Array<[string, number]> = [];
    watchdog.watch(100 * megabyte, (growth) => reports.push(["first", growth]));
    resident = 550 * megabyte;
    watchdog.watch(100 * megabyte, (growth) => reports.push(["second", growth]));
    resident = 620 * megabyte;
    watchdog.check();
    expect(reports).toEqual([["first", 120 * megabyte]]);
    resident = 700 * megabyte;
    watchdog.check();
    watchdog.check();
    expect(reports).toEqual([
      ["first", 120 * megabyte],
      ["second", 150 * megabyte],
    ]);
  });

  it("measures from a restart: a fresh worker's own start-up is not the file's cost", () => {
    let resident = 100 * megabyte;
    const watchdog = createMemoryWatchdog({ residentBytes: () => resident, intervalMs: 0 });
    const reports: number[] = [];
    const watch = watchdog.watch(50 * megabyte, (growth) => reports.push(growth));
    resident = 180 * megabyte;
    watch.restart();
    resident = 220 * megabyte;
    watchdog.check();
    expect(reports).toEqual([]);
    resident = 240 * megabyte;
    watchdog.check();
    expect(reports).toEqual([60 * megabyte]);
  });

  it("stops watching a parse that finished", () => {
    let resident = 0;
    const watchdog = createMemoryWatchdog({ residentBytes: () => resident, intervalMs: 0 });
    const reports: number[] = [];
    const watch = watchdog.watch(10, (growth) => reports.push(growth));
    watch.stop();
    resident = 1000;
    watchdog.check();
    expect(reports).toEqual([]);
  });
});
