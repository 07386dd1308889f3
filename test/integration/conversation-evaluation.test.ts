/**
 * `folio eval conversations` on the real core in keyword-only mode (no embedding model, so it runs in
 * seconds): three short conversations over one small Northwind PDF. The assertions hold whatever the
 * answers say (the answer composer is being rewritten): what was asked, with which history, how the
 * tallies add up, and that the evaluation space is gone afterwards.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnswerContext } from "../../src/answer/answer-events.js";
import { createFolio, type Folio } from "../../src/composition-root.js";
import { loadConfig } from "../../src/config/config.js";
import { runConversationEvaluation } from "../../src/evaluation/conversation-evaluation.js";
import { silentLogger } from "../../src/logger.js";
import { hasSharedData, sharedDataDir, sharedModelsDir } from "../support/shared-paths.js";

if (!hasSharedData) console.warn(`conversation-evaluation: skipped — no shared data at ${sharedDataDir}.`);

const PERKS = "northwind-rag-qa/pdfs/PerksPlus.pdf";
const CONVERSATIONS = [
  {
    id: "perks-amount",
    documents: [PERKS],
    turns: [
      {
        question: "How much can employees expense under PerksPlus?",
        kind: "figure",
        expect: { numbers: [{ value: 1000 }], pages: ["PerksPlus.pdf#3"] },
      },
      { question: "Which lessons does it cover?", kind: "followup", expect: { contains: ["Scuba diving"] } },
    ],
  },
  {
    id: "perks-absent",
    documents: [PERKS],
    turns: [{ question: "What was Tesla's revenue in 2022?", kind: "absent", expect: { refusal: true } }],
  },
  {
    id: "perks-typo",
    documents: [PERKS],
    turns: [{ question: "does perksplus cover yoga clases?", kind: "typo", expect: { contains: ["yoga"] } }],
  },
];

describe.skipIf(!hasSharedData)("conversation evaluation on the real core, keyword-only", () => {
  let folio: Folio;
  let dataDir: string;
  let datasetPath: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "folio-conversations-"));
    datasetPath = path.join(dataDir, "conversations.jsonl");
    await writeFile(datasetPath, `${CONVERSATIONS.map((conversation) => JSON.stringify(conversation)).join("\n")}\n`);
    folio = await createFolio(
      loadConfig({
        FOLIO_DATA_DIR: dataDir,
        FOLIO_MODELS_DIR: sharedModelsDir,
        FOLIO_EMBED_MODEL: "none",
        FOLIO_LOG_LEVEL: "silent",
      }),
      silentLogger,
    );
  });

  afterAll(async () => {
    await folio?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("asks in order with the thread's history, tallies by kind, and deletes its space", async () => {
    const asked: { question: string; context: AnswerContext }[] = [];
    const recordingCore = {
      ...folio.core,
      answerQuestion: (question: string, context: AnswerContext) => {
        asked.push({ question, context });
        return folio.core.answerQuestion(question, context);
      },
    };
    const report = await runConversationEvaluation(
      { ...folio, core: recordingCore },
      { datasetPath, docsDir: sharedDataDir },
    );

    expect(asked.map((call) => [call.question, call.context.history.map((turn) => turn.role)])).toEqual([
      ["How much can employees expense under PerksPlus?", []],
      ["Which lessons does it cover?", ["user", "assistant"]],
      ["What was Tesla's revenue in 2022?", []],
      ["does perksplus cover yoga clases?", []],
    ]);
    expect(asked[1]?.context.history[0]).toEqual({
      role: "user",
      text: "How much can employees expense under PerksPlus?",
    });
    const spaceIds = new Set(asked.map((call) => call.context.spaceIds.join(",")));
    expect(spaceIds.size).toBe(1);

    expect({
      dataset: report.dataset,
      mode: report.mode,
      generator: report.generator,
      documents: report.documents,
      conversations: report.conversations,
      questions: report.questions,
      byKindQuestions: Object.fromEntries(
        Object.entries(report.byKind).map(([kind, tally]) => [kind, tally.questions]),
      ),
    }).toEqual({
      dataset: "conversations.jsonl",
      mode: "sparse",
      generator: "extractive",
      documents: { ingested: 1, rejected: [] },
      conversations: 3,
      questions: 4,
      byKindQuestions: { figure: 1, followup: 1, absent: 1, typo: 1 },
    });
    expect(report.correct).toBe(report.questions - report.failures.length);
    expect(report.correctRate).toBe(Math.round((report.correct / report.questions) * 1000) / 1000);
    for (const failure of report.failures) expect(failure.answer.length).toBeLessThanOrEqual(300);
    const [spaceId = ""] = [...spaceIds];
    expect(await folio.catalog.listDocuments(spaceId)).toEqual([]);
  });

  it("names the missing documents and how to point at them", async () => {
    await expect(runConversationEvaluation(folio, { datasetPath, docsDir: dataDir })).rejects.toThrow(
      `1 document(s) of ${datasetPath} are not under ${dataDir} (first: ${path.join(dataDir, PERKS)}); pass --docs <data folder> or set FOLIO_SHARED_DATA_DIR.`,
    );
  });
});
