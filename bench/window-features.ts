/**
 * Calibration data for the window reader: reads a run of bench/diagnose-conversations.ts (each turn's
 * search results), builds every candidate answer window of the first SOURCES results, and writes one JSON
 * line per turn with each window's features (window-scoring.ts) and its label — the share of the turn's
 * checks its text (with its context) meets on its own. Terms are weighed by the diagnosis space's BM25
 * statistics (FOLIO_DATA_DIR must be the diagnosis run's). With an embedding model configured
 * (FOLIO_EMBED_MODEL not "none"), the windows' meaning is scored too (cached under
 * FOLIO_DATA_DIR/embedding-cache).
 * Usage: tsx bench/window-features.ts <diagnosis.jsonl> <out.jsonl>
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { statedQuantities } from "../src/answer/evidence/answer-expressions.js";
import { answerWindows } from "../src/answer/evidence/answer-windows.js";
import { assessRelevance } from "../src/answer/evidence/no-context.js";
import { suits } from "../src/answer/evidence/prose-evidence.js";
import { contentTerms } from "../src/answer/evidence/sentence-scoring.js";
import { createPassageMeaning, windowPassage } from "../src/answer/evidence/window-meaning.js";
import { weighQuestionTerms, windowFeatures } from "../src/answer/evidence/window-scoring.js";
import { askedAnswer } from "../src/answer/question/asked-answer.js";
import { createFolio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import type { SearchResult } from "../src/domain/types.js";
import type { TurnExpectation } from "../src/evaluation/conversation-dataset.js";
import { expectationShare } from "../src/evaluation/turn-check.js";
import { createLogger } from "../src/logger.js";
import { informationNeed } from "../src/retrieval/information-need.js";
import { termId } from "../src/retrieval/text-analyzer.js";

const SOURCES = 6;
const [diagnosisPath, outPath] = process.argv.slice(2);
if (!diagnosisPath || !outPath) throw new Error("usage: tsx bench/window-features.ts <diagnosis.jsonl> <out.jsonl>");
const config = loadConfig(process.env);
const folio = await createFolio({ ...config, llm: { kind: "none" } }, createLogger({ level: "warn" }), {
  embeddingCacheDir: path.join(config.dataDir, "embedding-cache"),
});
const meaning = folio.embedder === null ? null : createPassageMeaning(folio.embedder);
type Turn = {
  conversationIndex: number;
  turn: number;
  kind: string;
  question: string;
  query: string;
  expect: TurnExpectation;
  results: SearchResult[];
};
const turns = (await readFile(diagnosisPath, "utf8"))
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as Turn);
const lines: string[] = [];
for (const turn of turns) {
  const sources = turn.results.slice(0, SOURCES).map((result, index) => ({ n: index + 1, result }));
  const asked = askedAnswer(turn.question);
  const windows = sources.flatMap(answerWindows).filter((window) => suits(window, asked));
  const terms = [...contentTerms(turn.query)];
  const statistics = await folio.catalog.getTermStatistics(
    [...new Set(turn.results.map((result) => result.spaceId))],
    terms.map(termId),
  );
  const corpus = {
    passages: statistics.chunkCount,
    frequencies: new Map(terms.map((term) => [term, statistics.documentFrequencies.get(termId(term)) ?? 0])),
  };
  const question = weighQuestionTerms(new Set(terms), windows, corpus);
  const quantities = statedQuantities(turn.question);
  const features = windows.map((window) => windowFeatures(window, question, asked, quantities));
  const meanings = meaning === null ? null : await meaning(turn.query, windows.map(windowPassage));
  lines.push(
    JSON.stringify({
      conversationIndex: turn.conversationIndex,
      turn: turn.turn,
      kind: turn.kind,
      question: turn.question,
      asked,
      refusal: turn.expect.refusal === true,
      coverage: assessRelevance(informationNeed(turn.query), turn.results.slice(0, 5)).coverage,
      windows: windows.map((window, index) => ({
        n: window.source.n,
        kind: window.kind,
        text: window.text.slice(0, 300),
        context: window.context,
        ...features[index],
        meaning: meanings?.[index] ?? null,
        label: expectationShare(`${window.context} ${window.text}`, turn.expect),
      })),
    }),
  );
}
await writeFile(outPath, `${lines.join("\n")}\n`);
process.stderr.write(`${turns.length} turns written to ${outPath}\n`);
await folio.close();
