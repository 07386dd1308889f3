/**
 * Calibrates the support threshold of src/answer/generate/verify-answer.ts. For Northwind questions, each
 * sentence of the reference answer is a claim; its support against a page is the best cosine
 * (bge-small-en-v1.5, both sides embedded as passages) with a sentence of that page, as verification
 * computes it. Claims against their gold page are the supported case; against a random other page of
 * the same document (hard: same vocabulary) and of another document, the unsupported case. Prints,
 * per threshold, the share of each that passes.
 *
 *   FOLIO_MODELS_DIR=../shared/models npx tsx bench/support-threshold-calibration.ts [--questions 80]
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_PARSE_LIMITS } from "../ingestion/limits.js";
import { parseDocument } from "../ingestion/parse-document.js";
import { rankSentences } from "../src/answer/evidence/sentence-scoring.js";
import { claimText, splitAnswer } from "../src/answer/generate/verify-answer.js";
import type { PageText } from "../src/domain/types.js";
import { createTransformersEmbedder } from "../src/embedding/transformers-embedder.js";
import { goldPagesOf } from "../src/evaluation/answer-evaluation.js";
import { createInferenceClient } from "../src/inference/inference-client.js";
import { silentLogger } from "../src/logger.js";
import { createSeededRandom } from "../test/support/seeded-random.js";
import { sharedData, sharedModelsDir } from "../test/support/shared-paths.js";

const THRESHOLDS = [0.6, 0.65, 0.7, 0.72, 0.74, 0.75, 0.76, 0.78, 0.8, 0.85];
const CITATION = /\s*\[[^[\]]+\.pdf#page=\d+\]/gi;

const { values } = parseArgs({ options: { questions: { type: "string" } } });
const questionLimit = Number(values.questions ?? 80);

const inference = createInferenceClient({ threads: 1, logger: silentLogger });
const embedder = await createTransformersEmbedder({
  inference,
  modelsDir: sharedModelsDir,
  modelId: "bge-small-en-v1.5",
});
const documentsDir = sharedData("northwind-rag-qa", "pdfs");
const pagesByFile = new Map<string, PageText[]>();
for (const file of [
  "Benefit_Options.pdf",
  "Northwind_Health_Plus_Benefits_Details.pdf",
  "Northwind_Standard_Benefits_Details.pdf",
]) {
  const parsed = await parseDocument(
    new Uint8Array(await readFile(path.join(documentsDir, file))),
    file,
    DEFAULT_PARSE_LIMITS,
  );
  pagesByFile.set(
    file,
    (parsed.pages ?? []).filter((page) => page.text.trim().length > 200),
  );
}
const files = [...pagesByFile.keys()];
const random = createSeededRandom(7);
const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;

const sentenceVectors = new Map<string, number[][]>();
async function pageSentenceVectors(file: string, page: PageText): Promise<number[][]> {
  const key = `${file}#${page.pageNumber}`;
  let vectors = sentenceVectors.get(key);
  if (!vectors) {
    vectors = await embedder.embedPassages(rankSentences(page.text, new Set()).map((sentence) => sentence.text));
    sentenceVectors.set(key, vectors);
  }
  return vectors;
}
const cosine = (left: number[], right: number[]) =>
  left.reduce((sum, value, index) => sum + value * (right[index] ?? 0), 0);
async function support(claim: number[], file: string, page: PageText): Promise<number> {
  return Math.max(...(await pageSentenceVectors(file, page)).map((vector) => cosine(claim, vector)));
}

const lines = (await readFile(sharedData("northwind-rag-qa", "ground_truth.jsonl"), "utf8"))
  .split("\n")
  .filter(Boolean);
const scores = { gold: [] as number[], sameDocument: [] as number[], otherDocument: [] as number[] };
let used = 0;
for (const line of lines) {
  if (used >= questionLimit) break;
  const entry = JSON.parse(line) as { truth?: string };
  const gold = goldPagesOf(entry.truth ?? "")[0];
  const pages = gold ? pagesByFile.get(gold.file) : undefined;
  const goldPage = pages?.find((page) => page.pageNumber === gold?.page);
  if (!gold || !pages || !goldPage) continue;
  used += 1;
  const claims = splitAnswer((entry.truth ?? "").replace(CITATION, ""))
    .map((piece) => claimText(piece.text))
    .filter((claim) => claim.split(" ").length >= 4);
  const claimVectors = await embedder.embedPassages(claims);
  const otherPage = pick(pages.filter((page) => Math.abs(page.pageNumber - gold.page) > 1));
  const otherFile = pick(files.filter((file) => file !== gold.file));
  const otherDocumentPage = pick(pagesByFile.get(otherFile) ?? []);
  for (const vector of claimVectors) {
    scores.gold.push(await support(vector, gold.file, goldPage));
    scores.sameDocument.push(await support(vector, gold.file, otherPage));
    scores.otherDocument.push(await support(vector, otherFile, otherDocumentPage));
  }
}
const passing = (list: number[], threshold: number) =>
  (list.filter((score) => score >= threshold).length / list.length).toFixed(3);
const quantile = (list: number[], q: number) =>
  [...list].sort((a, b) => a - b)[Math.floor(q * (list.length - 1))]?.toFixed(3);
console.log(`${used} questions, ${scores.gold.length} claims`);
for (const [name, list] of Object.entries(scores))
  console.log(`${name}: p10 ${quantile(list, 0.1)} p50 ${quantile(list, 0.5)} p90 ${quantile(list, 0.9)}`);
console.log("| threshold | gold page passes | same-document page passes | other-document page passes |");
for (const threshold of THRESHOLDS)
  console.log(
    `| ${threshold} | ${passing(scores.gold, threshold)} | ${passing(scores.sameDocument, threshold)} | ${passing(scores.otherDocument, threshold)} |`,
  );
await inference.close();
