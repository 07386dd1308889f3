/**
 * The answer library end to end on real parts: completed questionnaires written as real XLSX (exceljs),
 * CSV and DOCX files, read by the library's reader, stored on embedded PGlite, matched lexically (no
 * embedder) and, when the shared models are present, with bge-small-en-v1.5.
 */
import { existsSync } from "node:fs";
import ExcelJS from "exceljs";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { ApprovedAnswerLibrary } from "../../src/answer-library/approved-answer-library.js";
import { createSqlApprovedAnswerStore } from "../../src/answer-library/approved-answer-store.js";
import { readQuestionAnswerPairs } from "../../src/answer-library/read-question-answer-pairs.js";
import type { Embedder } from "../../src/embedding/embedder.js";
import { createTransformersEmbedder } from "../../src/embedding/transformers-embedder.js";
import { createInferenceClient } from "../../src/inference/inference-client.js";
import { silentLogger } from "../../src/logger.js";
import { openStores, type Stores } from "../../src/stores/open-stores.js";
import { sharedModel, sharedModelsDir } from "../support/shared-paths.js";

async function buildSecurityReviewXlsx(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const security = workbook.addWorksheet("Security");
  security.getCell("A1").value = "Vendor security review 2025";
  security.getRow(3).values = ["#", "Question", "Response", "Comments"];
  security.getRow(4).values = ["1", "Encryption"];
  security.getRow(5).values = ["1.1", "Do you encrypt customer data at rest?", "Yes, AES-256 on every volume.", ""];
  security.getRow(6).values = ["1.2", "Do you encrypt customer data in transit?", ""];
  security.getCell("B7").value = "Is multi-factor authentication required for employees?";
  security.getCell("C7").value = {
    formula: 'IF(TRUE,"Yes, for every employee.","No")',
    result: "Yes, for every employee.",
  };
  const notes = workbook.addWorksheet("Notes");
  notes.getCell("A1").value = "Filled in by the security team.";
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

async function buildXlsx(rows: string[][]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Answers");
  rows.forEach((row, index) => {
    sheet.getRow(index + 1).values = row;
  });
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

function buildDocxTable(rows: string[][]): Uint8Array {
  const cell = (text: string) => `<w:tc><w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p></w:tc>`;
  const table = `<w:tbl>${rows.map((row) => `<w:tr>${row.map(cell).join("")}</w:tr>`).join("")}</w:tbl>`;
  return zipSync({
    "[Content_Types].xml": strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    "_rels/.rels": strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    "word/document.xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Due diligence</w:t></w:r></w:p>${table}</w:body></w:document>`,
    ),
  });
}

const csv = (text: string) => new TextEncoder().encode(text);

describe("reading a completed questionnaire", () => {
  it("reads an XLSX's question/answer rows with their sheet and real row numbers, skipping headings and blanks", async () => {
    const read = await readQuestionAnswerPairs(await buildSecurityReviewXlsx(), "review.xlsx", {});
    expect(read).toEqual({
      pairs: [
        {
          question: "Do you encrypt customer data at rest?",
          answer: "Yes, AES-256 on every volume.",
          sheet: "Security",
          row: 5,
        },
        {
          question: "Is multi-factor authentication required for employees?",
          answer: "Yes, for every employee.",
          sheet: "Security",
          row: 7,
        },
      ],
      questionColumn: "Question",
      answerColumn: "Response",
      sheets: ["Security"],
      skippedRows: 2,
    });
  });

  it("reads a DOCX table", async () => {
    const docx = buildDocxTable([
      ["Question", "Answer"],
      ["Do you have a SOC 2 Type II report?", "Yes, dated March 2025."],
      ["Where is data hosted?", "In the EU (Frankfurt)."],
    ]);
    const read = await readQuestionAnswerPairs(docx, "dd.docx", {});
    expect(read.pairs).toEqual([
      { question: "Do you have a SOC 2 Type II report?", answer: "Yes, dated March 2025.", sheet: "Table 1", row: 2 },
      { question: "Where is data hosted?", answer: "In the EU (Frankfurt).", sheet: "Table 1", row: 3 },
    ]);
  });

  it("asks for the columns when the headers do not say, and takes them by header or letter", async () => {
    const bytes = csv(
      'ID,Item,Vendor reply\n1,"Do you run background checks?","Yes, before hiring."\n2,Is there a DPO?,\n',
    );
    await expect(readQuestionAnswerPairs(bytes, "list.csv", {})).rejects.toMatchObject({
      code: "answer_columns_not_found",
      message: expect.stringContaining('headers seen: "ID", "Item", "Vendor reply"'),
    });
    const read = await readQuestionAnswerPairs(bytes, "list.csv", { questionColumn: "item", answerColumn: "C" });
    expect(read.pairs).toEqual([
      { question: "Do you run background checks?", answer: "Yes, before hiring.", sheet: null, row: 2 },
    ]);
    expect(read).toMatchObject({ questionColumn: "Item", answerColumn: "Vendor reply", skippedRows: 1 });
  });

  it("refuses what is not a completed questionnaire, naming the file and the fix", async () => {
    await expect(
      readQuestionAnswerPairs(csv("%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n"), "policy.pdf", {}),
    ).rejects.toMatchObject({
      code: "not_a_questionnaire",
    });
    await expect(
      readQuestionAnswerPairs(await buildSecurityReviewXlsx(), "review.xlsx", { sheet: "Pricing" }),
    ).rejects.toMatchObject({ code: "sheet_not_found", message: expect.stringContaining('1 "Security", 2 "Notes"') });
    await expect(
      readQuestionAnswerPairs(csv("Question,Answer\nIs it encrypted?,\n"), "empty.csv", {}),
    ).rejects.toMatchObject({
      code: "no_approved_answers",
    });
  });
});

describe("the answer library on PGlite", () => {
  let stores: Stores;
  beforeAll(async () => {
    stores = await openStores(
      { mode: "embedded", dataDir: "memory://" },
      { denseDimensions: 384, logger: silentLogger },
    );
  });
  afterAll(() => stores.client.close());

  it("adds a questionnaire, matches strictly without an embedder, lists, replaces and removes", async () => {
    const library = new ApprovedAnswerLibrary({
      store: createSqlApprovedAnswerStore(stores.client),
      embedder: null,
      logger: silentLogger,
    });
    expect(library.mode).toBe("lexical");
    const added = await library.addQuestionnaire({
      spaceId: "console:lexical",
      fileName: "review.xlsx",
      bytes: await buildSecurityReviewXlsx(),
      addedBy: "U42",
    });
    expect(added).toMatchObject({ added: 2, replaced: 0, questionColumn: "Question", answerColumn: "Response" });

    const match = await library.match("console:lexical", "Do you encrypt the customer's data at rest?");
    expect(match).toMatchObject({
      answer: "Yes, AES-256 on every volume.",
      origin: { file: "review.xlsx", sheet: "Security", row: 5, addedBy: "U42" },
      similarity: 1,
    });
    expect(Number.isNaN(Date.parse(match?.origin.addedAt ?? ""))).toBe(false);
    expect(await library.match("console:lexical", "Do you encrypt customer data in transit?")).toBeUndefined();
    expect(await library.match("console:lexical", "Do you not encrypt customer data at rest?")).toBeUndefined();
    expect(await library.match("console:other", "Do you encrypt customer data at rest?")).toBeUndefined();

    const again = await library.addQuestionnaire({
      spaceId: "console:lexical",
      fileName: "review.xlsx",
      bytes: await buildXlsx([
        ["Question", "Answer"],
        ["Do you encrypt customer data at rest?", "Yes (re-approved)."],
      ]),
      addedBy: "U7",
    });
    expect(again).toMatchObject({ added: 1, replaced: 2 });
    const listed = await library.list("console:lexical");
    expect(listed.map((record) => [record.question, record.answer, record.addedBy])).toEqual([
      ["Do you encrypt customer data at rest?", "Yes (re-approved).", "U7"],
    ]);
    expect(await library.remove("console:lexical", listed[0]?.id ?? "")).toBe(true);
    expect(await library.match("console:lexical", "Do you encrypt customer data at rest?")).toBeUndefined();
  });

  const modelPresent = existsSync(sharedModel("bge-small-en-v1.5", "config.json"));
  describe.skipIf(!modelPresent)("with bge-small-en-v1.5 (needs ../shared/models)", () => {
    it("reuses an answer for a paraphrase, never for a near miss, and embeds stored questions once", async () => {
      const inference = createInferenceClient({ threads: 1, logger: silentLogger });
      onTestFinished(() => inference.close());
      const embedder: Embedder = await createTransformersEmbedder({
        inference,
        modelsDir: sharedModelsDir,
        modelId: "bge-small-en-v1.5",
      });
      const store = createSqlApprovedAnswerStore(stores.client);
      const library = new ApprovedAnswerLibrary({ store, embedder, logger: silentLogger });
      expect(library.mode).toBe("embedding");
      await library.addQuestionnaire({
        spaceId: "console:semantic",
        fileName: "review.xlsx",
        bytes: await buildSecurityReviewXlsx(),
        addedBy: "U42",
      });
      const stored = await store.listForMatching("console:semantic");
      expect(stored.map((record) => [record.embeddingModel, record.embedding?.length])).toEqual([
        ["bge-small-en-v1.5", 384],
        ["bge-small-en-v1.5", 384],
      ]);

      const paraphrase = await library.match("console:semantic", "Is customer data encrypted at rest?");
      expect(paraphrase?.answer).toBe("Yes, AES-256 on every volume.");
      expect(paraphrase?.similarity).toBeGreaterThanOrEqual(library.threshold);
      expect(await library.match("console:semantic", "Is customer data encrypted in transit?")).toBeUndefined();
      expect(await library.match("console:semantic", "Is MFA required for contractors?")).toBeUndefined();
      expect(await library.match("console:semantic", "What is your refund policy?")).toBeUndefined();
    });
  });
});
