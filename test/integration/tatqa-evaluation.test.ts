/**
 * `folio eval tatqa` on the real core, keyword-only: a two-excerpt dataset in TAT-QA's own format is
 * rendered as HTML pages, each ingested into a space of its own through the normal path, every question
 * asked there, and each answer scored. Needs no shared data or model: the excerpts are written here.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFolio, type Folio } from "../../src/composition-root.js";
import { loadConfig } from "../../src/config/config.js";
import { runTatqaEvaluation, type TatqaRunLine } from "../../src/evaluation/tatqa-evaluation.js";
import { silentLogger } from "../../src/logger.js";

const DATASET = [
  {
    table: {
      uid: "table-sales",
      table: [
        ["", "", "Years Ended September 30,", ""],
        ["", "2019", "2018", "2017"],
        ["Fixed Price", "$ 1,452.4", "$ 1,146.2", "$ 1,036.9"],
        ["Other", "44.1", "56.7", "70.8"],
        ["Total sales", "$1,496.5", "$1,202.9", "$1,107.7"],
      ],
    },
    paragraphs: [
      {
        uid: "p1",
        order: 1,
        text: "Sales by Contract Type: Substantially all of our contracts are fixed-price type contracts.",
      },
      {
        uid: "p2",
        order: 2,
        text: "The table below presents total net sales disaggregated by contract type (in millions):",
      },
    ],
    questions: [
      {
        uid: "q1",
        order: 1,
        question: "What is the amount of total sales in 2019?",
        answer: ["$1,496.5"],
        derivation: "",
        answer_type: "span",
        answer_from: "table-text",
        rel_paragraphs: ["2"],
        req_comparison: false,
        scale: "million",
      },
      {
        uid: "q2",
        order: 2,
        question: "What is the change in Other in 2019 from 2018?",
        answer: -12.6,
        derivation: "44.1-56.7",
        answer_type: "arithmetic",
        answer_from: "table-text",
        rel_paragraphs: ["2"],
        req_comparison: false,
        scale: "million",
      },
    ],
  },
  {
    table: {
      uid: "table-rates",
      table: [
        ["", "2019", "2018"],
        ["Discount rate", "4.00%", "3.75%"],
      ],
    },
    paragraphs: [
      {
        uid: "p3",
        order: 1,
        text: "The discount rate was determined by comparison against the FTSE pension liability index.",
      },
    ],
    questions: [
      {
        uid: "q3",
        order: 1,
        question: "How is the discount rate determined?",
        answer: ["by comparison against the FTSE pension liability index"],
        derivation: "",
        answer_type: "span",
        answer_from: "text",
        rel_paragraphs: ["1"],
        req_comparison: false,
        scale: "",
      },
    ],
  },
];

describe("TAT-QA evaluation on the real core, keyword-only", () => {
  let folio: Folio;
  let dataDir: string;
  let datasetPath: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "folio-tatqa-"));
    datasetPath = path.join(dataDir, "tatqa.json");
    await writeFile(datasetPath, JSON.stringify(DATASET));
    folio = await createFolio(
      loadConfig({ FOLIO_DATA_DIR: dataDir, FOLIO_EMBED_MODEL: "none", FOLIO_LOG_LEVEL: "silent" }),
      silentLogger,
    );
  });

  afterAll(async () => {
    await folio?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("uploads each excerpt as a page, asks its questions there, scores every answer and deletes its space", async () => {
    const runOut = path.join(dataDir, "run.jsonl");
    const report = await runTatqaEvaluation(folio, {
      datasetPath,
      workDirectory: path.join(dataDir, "pages"),
      runOut,
    });
    expect(report).toMatchObject({ dataset: "tatqa.json", format: "html", excerpts: 2, rejected: 0, questions: 3 });
    const lines = (await readFile(runOut, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as TatqaRunLine);
    expect(lines.map((line) => [line.uid, line.firstSentence, line.holds, line.em])).toEqual([
      ["q1", "Total sales for 2019 were $1,496.5 million ($1.497 billion) [1].", true, 1],
      ["q2", "Other fell by $12.6 million, from $56.7 million in 2018 to $44.1 million in 2019 (-22.2%) [1].", true, 1],
      ["q3", "“The discount rate was determined by comparison against the FTSE pension liability index.” [1]", true, 0],
    ]);
    expect(report.byType).toEqual({
      span: { questions: 2, firstSentence: 1, exactMatch: 0.5, f1: expect.any(Number) },
      arithmetic: { questions: 1, firstSentence: 1, exactMatch: 1, f1: 1 },
    });
    expect((await readdir(path.join(dataDir, "pages"))).sort()).toEqual(["tatqa-table-ra.html", "tatqa-table-sa.html"]);
    // Each excerpt's space is emptied once its questions are asked.
    for (const space of await folio.catalog.listSpaces())
      if (space.id.startsWith("eval:tatqa:")) expect(await folio.catalog.listDocuments(space.id)).toEqual([]);
  });
});
