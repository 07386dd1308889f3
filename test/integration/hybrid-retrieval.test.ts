/**
 * Retrieval through a real embedded Folio (PGlite + pgvector, the real bge-small embedder and the test
 * cross-encoder): every mode finds the paraphrase, no mode ever returns another space's chunk, and a
 * change of embedding model is refused at start until `reindex` has embedded the passages again.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFolio, type Folio } from "../../src/composition-root.js";
import { loadConfig } from "../../src/config/config.js";
import { reindexEmbeddings } from "../../src/ingest/reindex-embeddings.js";
import { silentLogger } from "../../src/logger.js";
import { RETRIEVAL_MODES } from "../../src/retrieval/retriever.js";
import { sharedModelsDir } from "../support/shared-paths.js";

const hasModels =
  existsSync(path.join(sharedModelsDir, "bge-small-en-v1.5", "onnx", "model_quantized.onnx")) &&
  existsSync(path.join(sharedModelsDir, "test-cross-encoder-random", "onnx", "model_quantized.onnx"));

const ENCRYPTION =
  "The Advanced Encryption Standard is a symmetric block cipher chosen by NIST. All laptops encrypt their disks with it.";
const LEAVE = "Employees receive twenty-five days of paid annual leave each calendar year, plus public holidays.";
const PARKING = "Visitors park in the north garage; the barrier opens with the code given at reception.";

const encode = (text: string) => new TextEncoder().encode(text);

/** A real embedded Folio in a fresh temporary directory, with `files` ingested into `spaceId`. */
async function openFolioWith(
  spaceId: string,
  files: Array<[fileName: string, text: string]>,
  environment: Record<string, string> = {},
): Promise<{ folio: Folio; directory: string }> {
  const directory = await mkdtemp(path.join(os.tmpdir(), "folio-retrieval-"));
  const folio = await createFolio(
    loadConfig({
      FOLIO_DATA_DIR: path.join(directory, "data"),
      FOLIO_MODELS_DIR: sharedModelsDir,
      FOLIO_LOG_LEVEL: "silent",
      ...environment,
    }),
    silentLogger,
  );
  for (const [fileName, text] of files) {
    const result = await folio.ingestion.ingestFile({ bytes: encode(text), fileName, spaceId, uploader: null });
    expect(result.status).toBe("ingested");
  }
  return { folio, directory };
}

describe.skipIf(!hasModels)("hybrid retrieval through a real embedded Folio", () => {
  let directory: string;
  let modelsDir: string;
  let folio: Folio;
  const environment = (extra: Record<string, string> = {}) =>
    loadConfig({
      FOLIO_DATA_DIR: path.join(directory, "data"),
      FOLIO_MODELS_DIR: modelsDir,
      FOLIO_RERANK_MODEL: "test-cross-encoder-random",
      FOLIO_LOG_LEVEL: "silent",
      ...extra,
    });

  beforeAll(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), "folio-hybrid-"));
    // The same model under a second name stands in for "another embedding model".
    modelsDir = path.join(directory, "models");
    await mkdir(modelsDir);
    for (const name of ["bge-small-en-v1.5", "test-cross-encoder-random"]) {
      await symlink(path.join(sharedModelsDir, name), path.join(modelsDir, name));
    }
    await symlink(path.join(sharedModelsDir, "bge-small-en-v1.5"), path.join(modelsDir, "bge-small-renamed"));
    folio = await createFolio(environment(), silentLogger);
    const files: Array<[string, string, string]> = [
      ["console:alpha", "security.txt", ENCRYPTION],
      ["console:alpha", "leave.txt", LEAVE],
      // The other space holds the best match for the question asked below, and a copy of alpha's text.
      ["console:beta", "security-copy.txt", `${ENCRYPTION} Disk encryption keys are escrowed.`],
      ["console:beta", "parking.txt", PARKING],
    ];
    for (const [spaceId, fileName, text] of files) {
      const result = await folio.ingestion.ingestFile({ bytes: encode(text), fileName, spaceId, uploader: null });
      expect(result.status).toBe("ingested");
    }
  }, 120_000);

  afterAll(async () => {
    await folio?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("defaults to hybrid+rerank with a reranker configured, and records the embedding model", async () => {
    expect(folio.retrievalMode).toBe("hybrid+rerank");
    expect(await folio.vectorIndex.countByDenseModel()).toEqual([{ model: "bge-small-en-v1.5", chunks: 4 }]);
  });

  it.each(RETRIEVAL_MODES)("mode %s never returns another space's chunk", async (mode) => {
    const timingsMs: Record<string, number> = {};
    const results = await folio.retriever.search({
      query: "Are disk encryption keys escrowed?",
      spaceIds: ["console:alpha"],
      limit: 10,
      mode,
      timingsMs,
    });
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((result) => result.spaceId === "console:alpha")).toBe(true);
    expect(results.map((result) => result.file)).not.toContain("security-copy.txt");
    if (mode === "hybrid+rerank") expect(timingsMs.rerank).toBeGreaterThan(0);
    if (mode !== "sparse") expect(timingsMs.embed).toBeGreaterThan(0);
  });

  it("finds a paraphrase that shares no keyword with the passage (dense and hybrid)", async () => {
    const question = "How much vacation time do staff get?";
    const sparse = await folio.retriever.search({
      query: question,
      spaceIds: ["console:alpha"],
      limit: 5,
      mode: "sparse",
    });
    expect(sparse.map((result) => result.file)).not.toContain("leave.txt");
    for (const mode of ["dense", "hybrid"] as const) {
      const [best] = await folio.retriever.search({ query: question, spaceIds: ["console:alpha"], limit: 5, mode });
      expect(best?.file).toBe("leave.txt");
    }
  });

  it("refuses to start with another embedding model until reindex has run", async () => {
    await folio.close();
    await expect(createFolio(environment({ FOLIO_EMBED_MODEL: "bge-small-renamed" }), silentLogger)).rejects.toThrow(
      /embedded by another model \(4 by bge-small-en-v1\.5\).*reindex/,
    );
    const reindexing = await createFolio(environment({ FOLIO_EMBED_MODEL: "bge-small-renamed" }), silentLogger, {
      allowEmbeddingModelChange: true,
    });
    const embedder = reindexing.embedder;
    if (!embedder) throw new Error("the reindexing Folio has no embedder");
    const done = await reindexEmbeddings({
      catalog: reindexing.catalog,
      vectorIndex: reindexing.vectorIndex,
      embedder,
      spaceIds: (await reindexing.catalog.listSpaces()).map((space) => space.id),
    });
    expect(done).toEqual({ documents: 4, passages: 4 });
    await reindexing.close();
    folio = await createFolio(environment({ FOLIO_EMBED_MODEL: "bge-small-renamed" }), silentLogger);
    expect(await folio.vectorIndex.countByDenseModel()).toEqual([{ model: "bge-small-renamed", chunks: 4 }]);
  }, 60_000);
});

describe.skipIf(!hasModels)("document targeting through a real embedded Folio", () => {
  let directory: string;
  let folio: Folio;
  // Acme's passage is short and all about the question; Zenith's says it once inside a long page on other
  // things. Without the name, Acme's passage ranks first; only targeting puts Zenith's first.
  // Long enough (over 8 KB) to be a document worth targeting; a one-passage note carries its title already.
  const otherTopics = Array.from(
    { length: 45 },
    (_, index) =>
      `Store ${index + 1} opened a new loyalty programme, hired seasonal staff and renovated its fitting rooms.`,
  ).join(" ");
  const reports: Array<[string, string]> = [
    ["ACME_2019_annual_report.txt", "Purchases of property and equipment were 1,200 in fiscal 2019."],
    [
      "ZENITH_2019_annual_report.txt",
      `${otherTopics} Purchases of property and equipment were 900 in fiscal 2019. ${otherTopics}`,
    ],
    [
      "ZENITH_2018_annual_report.txt",
      `${otherTopics} Purchases of property and equipment were 700 in fiscal 2018. ${otherTopics}`,
    ],
  ];

  beforeAll(async () => {
    ({ folio, directory } = await openFolioWith(
      "console:reports",
      reports,
      process.env.FOLIO_TEST_TARGETING_OFF ? { FOLIO_DOCUMENT_TARGETING: "0" } : {},
    ));
  }, 120_000);

  afterAll(async () => {
    await folio?.close();
    await rm(directory, { recursive: true, force: true });
  });

  const topFile = async (query: string) =>
    (await folio.retriever.search({ query, spaceIds: ["console:reports"], limit: 3, mode: "hybrid" }))[0]?.file;

  it("prefers the document whose file name names the company and year the question names", async () => {
    expect(await topFile("What were purchases of property and equipment?")).toBe("ACME_2019_annual_report.txt");
    expect(await topFile("What were Zenith's purchases of property and equipment in FY2019?")).toBe(
      "ZENITH_2019_annual_report.txt",
    );
    expect(await topFile("What were Zenith's purchases of property and equipment in FY2018?")).toBe(
      "ZENITH_2018_annual_report.txt",
    );
  });

  it("searches for the information need, not the instructions around it", async () => {
    expect(
      await topFile(
        "Assume that you are an equities analyst. Answer the following question using the cash flow statement: what were Zenith's FY2019 purchases of property and equipment? Answer in USD millions.",
      ),
    ).toBe("ZENITH_2019_annual_report.txt");
  });
});

describe.skipIf(!hasModels)("statement targeting through a real embedded Folio", () => {
  let directory: string;
  let folio: Folio;
  // The discussion uses the question's own words ("net revenue", "income statement", "2019") over and
  // over; the statement is titled by a synonym ("Statements of Operations") and has the figure as one
  // row. Without statement targeting the discussion ranks first (checked with FOLIO_STATEMENT_TARGETING=0).
  const discussion = Array.from(
    { length: 12 },
    (_, index) =>
      `Net revenue in 2019 grew in region ${index + 1}, as the income statement discussion of net revenue explains for 2019.`,
  ).join(" ");
  const report = [
    "# Acme 2019 annual report",
    "## Discussion of results",
    discussion,
    "## Consolidated Statements of Operations",
    "| (Millions) | 2019 | 2018 |",
    "| --- | --- | --- |",
    "| Net revenue | 14,082 | 11,303 |",
    "| Cost of sales | 9,019 | 7,772 |",
    "| Operating income | 2,112 | 509 |",
    "## Consolidated Statements of Financial Position",
    "| (Millions) | 2019 | 2018 |",
    "| --- | --- | --- |",
    "| Total current assets | 13,709 | 14,277 |",
    "| Property, plant and equipment — net | 8,738 | 8,866 |",
  ].join("\n\n");

  beforeAll(async () => {
    ({ folio, directory } = await openFolioWith("console:statements", [["acme-2019-annual-report.md", report]], {
      FOLIO_CHUNK_TOKENS: "96",
      ...(process.env.FOLIO_TEST_STATEMENT_TARGETING_OFF ? { FOLIO_STATEMENT_TARGETING: "0" } : {}),
    }));
  }, 120_000);

  afterAll(async () => {
    await folio?.close();
    await rm(directory, { recursive: true, force: true });
  });

  const topHeading = async (query: string) =>
    (
      await folio.retriever.search({ query, spaceIds: ["console:statements"], limit: 3, mode: "hybrid" })
    )[0]?.provenance.headingPath?.at(-1);

  it("puts the statement the question names first, under whichever of its names the report uses", async () => {
    expect(await topHeading("What was Acme's net revenue in 2019 according to the income statement?")).toBe(
      "Consolidated Statements of Operations",
    );
  });

  it("leaves a question that names no statement to the ranking", async () => {
    expect(await topHeading("How did net revenue grow in 2019 across the regions?")).toBe("Discussion of results");
  });
});
