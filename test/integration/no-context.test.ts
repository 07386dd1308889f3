/**
 * No-context end to end on the real core (embedded PGlite in a temporary data directory, the real PDF
 * parser, tokenizer-measured chunking and BM25): three Northwind PDFs are ingested through
 * `core.ingestFile`, then questions whose facts are not in them must come back `noContext: true`
 * with the closest sources as citations, and Northwind QA questions about those PDFs must come back
 * answered, citing the gold page.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Answer, AnswerEvent } from "../../src/answer/answer-events.js";
import { NO_CONTEXT_ANSWER } from "../../src/answer/write-answer.js";
import { createFolio, type Folio } from "../../src/composition-root.js";
import { loadConfig } from "../../src/config/config.js";
import { goldPagesOf } from "../../src/evaluation/answer-evaluation.js";
import { silentLogger } from "../../src/logger.js";
import { ABSENT_FACT_QUESTIONS } from "../support/absent-fact-questions.js";
import { hasSharedData, sharedData, sharedModelsDir } from "../support/shared-paths.js";

const DOCUMENTS = sharedData("northwind-rag-qa", "pdfs");
const FILES = ["PerksPlus.pdf", "employee_handbook.pdf", "role_library.pdf"];
const SPACE = "console:no-context";

/** Off-topic and plausible-but-absent questions; none is answered by the three PDFs (checked with pdftotext). */
const ABSENT = [
  "What is the CEO's favourite pizza topping?",
  "How many moons does Jupiter have?",
  "Who won the 2018 FIFA World Cup?",
  "How many parking spaces are reserved for visitors at headquarters?",
  "What is the meal per diem for business trips to London?",
  "What is the 401(k) employer match percentage?",
];

/**
 * Ground-truth questions about these PDFs that Folio answers today, citing the gold page. Of the
 * other nine with gold pages in these files, eight come back no-context at the calibrated threshold
 * (six long two-part questions whose halves sit in different chunks, such as "How does the role of a
 * Human Resources Representative at Zava involve handling workplace violence incidents and what
 * qualifications are required …?", one misspelt and one colloquial question; see the calibration in
 * src/answer/evidence/no-context.ts), and "What Zava do?" is answered from the wrong page. "What information is
 * available about Contoso Electronics in the Zava Employee Handbook?" is left out since answers quote by
 * meaning: its gold page is the handbook's title page, and Folio quotes page 3's "Contoso Electronics is a
 * leader in the aerospace industry, providing advanced electronic components…", which answers it better
 * than the label counts.
 */
const ANSWERABLE = [
  "What are the responsibilities of a Senior Manager of Product Management at Zava?",
  "Wht does PerksPlus cover?",
  "How does the PerksPlus program support employees in maintaining a healthy lifestyle, and what specific activities and expenses are covered under this program?",
  "What are the responsibilities and skills required for the Senior Manager of Human Resources at Zava?",
  "What fitness-related expenses are covered by PerksPlus, and what is the maximum amount that can be expensed?",
];

type GroundTruth = { question: string; gold: Array<{ file: string; page: number }> };

/** The Northwind QA questions whose gold pages all lie in the ingested PDFs. */
function groundTruthFor(files: string[]): GroundTruth[] {
  return readFileSync(sharedData("northwind-rag-qa", "ground_truth.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { question: string; truth: string })
    .map((entry) => ({ question: entry.question, gold: goldPagesOf(entry.truth) }))
    .filter((entry) => entry.gold.length > 0 && entry.gold.every((gold) => files.includes(gold.file)));
}

let folio: Folio;
let dataDir: string;

async function ask(question: string): Promise<{ answer: Answer; events: AnswerEvent[] }> {
  const events: AnswerEvent[] = [];
  for await (const event of folio.core.answerQuestion(question, {
    spaceIds: [SPACE],
    history: [],
    requestId: `no-context-${events.length}`,
  }))
    events.push(event);
  const done = events.at(-1);
  if (done?.type !== "done") throw new Error(`no answer for "${question}": ${JSON.stringify(done)}`);
  return { answer: done.answer, events };
}

describe.skipIf(!hasSharedData)("no-context on the real core (three Northwind PDFs)", () => {
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "folio-no-context-"));
    folio = await createFolio(
      loadConfig({ FOLIO_DATA_DIR: dataDir, FOLIO_MODELS_DIR: sharedModelsDir, FOLIO_LOG_LEVEL: "silent" }),
      silentLogger,
    );
    for (const fileName of FILES) {
      const bytes = new Uint8Array(await readFile(path.join(DOCUMENTS, fileName)));
      const result = await folio.core.ingestFile({ bytes, fileName, spaceId: SPACE, uploader: null });
      expect(result.status).toBe("ingested");
    }
  });

  afterAll(async () => {
    await folio?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("the absent-fact questions are from the shared calibration list", () => {
    for (const question of ABSENT) expect(ABSENT_FACT_QUESTIONS).toContain(question);
  });

  it.each(ABSENT)("says %s is not in the documents and shows the closest sources", async (question) => {
    const { answer, events } = await ask(question);
    expect(answer.noContext).toBe(true);
    // Plain "not found", or, when the question names something no document names, which name that is.
    expect(answer.answer).toMatch(
      /^(?:I couldn't find this in the documents available here\.|The documents available here don't mention [^.]+, so I can't answer this from them\. The closest sources are below\.$)/,
    );
    if (answer.answer !== NO_CONTEXT_ANSWER)
      expect(answer.answer).toMatch(/don't mention (?:CEO|Jupiter|FIFA World Cup|London)\b/);
    expect(events.filter((event) => event.type === "delta")).toEqual([{ type: "delta", text: answer.answer }]);
    // Closest sources: real chunks of the ingested files, with a page, a quote and a signed link.
    expect(answer.citations.length).toBeGreaterThanOrEqual(1);
    expect(answer.citations.length).toBeLessThanOrEqual(3);
    expect(answer.citations.map((citation) => citation.n)).toEqual(answer.citations.map((_, index) => index + 1));
    for (const citation of answer.citations) {
      expect(FILES).toContain(citation.file);
      expect(citation.pageStart).toBeGreaterThanOrEqual(1);
      // A quoted sentence that runs over a page break cites both pages.
      expect([citation.pageStart, (citation.pageStart ?? 0) + 1]).toContain(citation.pageEnd);
      expect(citation.quote.length).toBeGreaterThan(0);
      expect(citation.url).toMatch(
        new RegExp(`/files/${citation.documentId}\\?exp=\\d+&sig=[0-9a-f]{64}#page=${citation.pageStart}$`),
      );
    }
  });

  it("covers every answerable question listed below with ground truth for these files", () => {
    const available = groundTruthFor(FILES).map((entry) => entry.question);
    for (const question of ANSWERABLE) expect(available).toContain(question);
  });

  it.each(ANSWERABLE)("answers %s from the documents, citing a gold page", async (question) => {
    const gold = groundTruthFor(FILES).find((entry) => entry.question === question)?.gold ?? [];
    const { answer, events } = await ask(question);
    expect(answer.noContext).toBe(false);
    expect(answer.answer).not.toBe(NO_CONTEXT_ANSWER);
    expect(events.some((event) => event.type === "status" && event.status === "writing")).toBe(true);
    expect(answer.citations.length).toBeGreaterThanOrEqual(1);
    expect(
      answer.citations.some((citation) =>
        gold.some(
          (page) =>
            page.file === citation.file &&
            page.page >= (citation.pageStart ?? 0) &&
            page.page <= (citation.pageEnd ?? 0),
        ),
      ),
    ).toBe(true);
  });
});
