/**
 * The `folio` command line as a user runs it: a real child process on a temporary embedded data
 * directory, checked against the JSON shapes and exit codes in DESIGN.md — and checked to exit on its
 * own once the work is done (idle parse workers once kept a finished `folio ingest` alive).
 */
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, jsonLines, runFolioCli } from "../support/run-folio-cli.js";
import { hasSharedData, sharedData, sharedModelsDir } from "../support/shared-paths.js";

/** NIST SP 800-145 defines "rapid elasticity" on physical page 6 (of 7). */
const PDF = sharedData("enterprise-pdfs", "pdfs", "nist-sp800-145-cloud-definition.pdf");
const FILE = "nist-sp800-145-cloud-definition.pdf";
const EXIT_WITHIN_MS = 45_000;

let dataDir: string;
let scratchDir: string;

function runFolio(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runFolioCli(
    args,
    { ...process.env, FOLIO_DATA_DIR: dataDir, FOLIO_MODELS_DIR: sharedModelsDir, ...env },
    EXIT_WITHIN_MS,
  );
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "folio-cli-data-"));
  scratchDir = await mkdtemp(path.join(tmpdir(), "folio-cli-files-"));
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
  await rm(scratchDir, { recursive: true, force: true });
});

describe("folio command line", () => {
  it("lists its commands with --help", async () => {
    const run = await runFolio(["--help"]);
    expect(run.code).toBe(0);
    for (const command of ["ingest", "ask", "search", "eval", "serve"])
      expect(run.stdout).toContain(`folio ${command}`);
  });

  it("names a bad environment variable in one line and exits 3", async () => {
    const run = await runFolio(["search", "anything"], { PORT: "not-a-port" });
    expect(run.code).toBe(3);
    const lines = run.stderr.split("\n").filter((line) => line.startsWith("folio:"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("PORT");
  });

  it("reports a missing model in one line, without a stack, and exits 3 (a configuration problem)", async () => {
    const run = await runFolio(["search", "anything"], { FOLIO_MODELS_DIR: scratchDir, FOLIO_OFFLINE: "1" });
    expect(run.code).toBe(3);
    const lines = run.stderr.split("\n").filter((line) => line.trim() !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^folio: Model bge-small-en-v1\.5 \(the embedder: 5 files, 34\.7 MB\) is not in .*bge-small-en-v1\.5, and FOLIO_OFFLINE forbids downloading it\. Get it: .*; or set FOLIO_MODELS_DIR to .* Or start without it, keyword search only: FOLIO_EMBED_MODEL=none\. \[model_missing\]$/,
    );
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it("prints the stack before the one line only with FOLIO_LOG_LEVEL=debug", async () => {
    const run = await runFolio(["search", "anything"], {
      FOLIO_MODELS_DIR: scratchDir,
      FOLIO_OFFLINE: "1",
      FOLIO_LOG_LEVEL: "debug",
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^\s+at /m);
    const lines = run.stderr.trim().split("\n");
    expect(lines[lines.length - 1]).toMatch(/^folio: Model bge-small-en-v1\.5 .* \[model_missing\]$/);
  });

  it("rejects an unknown command with exit 2", async () => {
    const run = await runFolio(["summon"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown command "summon"');
  });

  it.skipIf(!hasSharedData)(
    "ingests a PDF and rejects a broken file, one JSON line each, then exits 4",
    async () => {
      const broken = path.join(scratchDir, "broken.pdf");
      await writeFile(broken, "%PDF-1.7\nthis is not really a pdf\n");
      const run = await runFolio(["ingest", PDF, broken, "--space", "cli", "--json"]);
      expect(run.code).toBe(4);
      const [pdfLine, brokenLine, summaryLine] = jsonLines(run.stdout);
      expect(pdfLine).toMatchObject({ status: "ingested", pages: 7 });
      expect(pdfLine).not.toHaveProperty("error");
      expect(pdfLine?.documentId).toEqual(expect.any(String));
      expect(pdfLine?.chunks).toBeGreaterThan(0);
      expect(brokenLine).toMatchObject({ status: "rejected", documentId: null, chunks: 0 });
      const error = brokenLine?.error as { code: string; message: string };
      expect(error.code).toMatch(/^[a-z_]+$/);
      expect(error.code).not.toBe("internal_error");
      expect(error.message.length).toBeGreaterThan(20);
      expect(summaryLine).toMatchObject({ summary: { files: 2, ingested: 1, rejected: 1, pages: 7 } });
    },
    EXIT_WITHIN_MS + 5_000,
  );

  it.skipIf(!hasSharedData)(
    "does nothing for the same bytes twice, then searches and answers from them",
    async () => {
      const again = await runFolio(["ingest", PDF, "--space", "cli", "--json"]);
      expect(again.code).toBe(0);
      expect(jsonLines(again.stdout)[0]).toMatchObject({ status: "unchanged" });

      const search = await runFolio(["search", "rapid elasticity", "--space", "cli", "--k", "3", "--json"]);
      expect(search.code).toBe(0);
      const { results } = jsonLines(search.stdout)[0] as { results: Array<Record<string, unknown>> };
      expect(results.length).toBeGreaterThan(0);
      expect(results.length).toBeLessThanOrEqual(3);
      expect(results[0]).toMatchObject({ pageStart: 6 });
      for (const result of results) {
        expect(result).toMatchObject({ file: FILE, pageStart: expect.any(Number) });
        expect(result.score).toEqual(expect.any(Number));
      }

      const ask = await runFolio(["ask", "What is rapid elasticity in cloud computing?", "--space", "cli", "--json"]);
      expect(ask.code).toBe(0);
      const answer = jsonLines(ask.stdout)[0] as {
        answer: string;
        noContext: boolean;
        citations: Array<{ n: number; pageStart: number; quote: string; url: string }>;
        timingsMs: Record<string, number>;
      };
      expect(answer.noContext).toBe(false);
      // Every source the answer's text cites is listed; other sources stay under Sources (#38).
      const cited = [...answer.answer.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
      expect(cited.length).toBeGreaterThan(0);
      for (const n of cited) expect(answer.citations.map((citation) => citation.n)).toContain(n);
      const elasticity = answer.citations.find((citation) => /elastic/i.test(citation.quote));
      expect(elasticity).toMatchObject({ pageStart: 6, pageEnd: 6, file: FILE });
      expect(elasticity?.url).toMatch(/\/files\/[^?]+\?exp=\d+&sig=[^#]+#page=6$/);
      expect(answer.timingsMs).toEqual(expect.any(Object));
    },
    3 * EXIT_WITHIN_MS,
  );

  it.skipIf(!hasSharedData)(
    "points its sources at a private local copy of the file, at the page, when no server serves the viewer",
    async () => {
      const ask = await runFolio(["ask", "What is rapid elasticity in cloud computing?", "--space", "cli", "--json"]);
      expect(ask.code).toBe(0);
      const answer = jsonLines(ask.stdout)[0] as {
        citations: Array<{ documentId: string; pageStart: number; quote: string; localFile: string }>;
      };
      const elasticity = answer.citations.find((citation) => /elastic/i.test(citation.quote));
      expect(elasticity?.localFile).toBe(path.join(dataDir, "files", elasticity?.documentId ?? "", FILE));
      expect(await readFile(elasticity?.localFile ?? "")).toEqual(await readFile(PDF));
      expect((await stat(elasticity?.localFile ?? "")).mode & 0o777).toBe(0o600);

      const text = await runFolio(["ask", "What is rapid elasticity in cloud computing?", "--space", "cli"]);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain(`    ${pathToFileURL(elasticity?.localFile ?? "").href}#page=6\n`);
      expect(text.stdout).not.toContain("http://");
    },
    2 * EXIT_WITHIN_MS,
  );
});
