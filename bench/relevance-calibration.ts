/**
 * Calibration data for "the documents hold an answer" (src/answer/evidence/relevance.ts): the Northwind QA
 * PDFs ingested once into a kept space of FOLIO_DATA_DIR, then for each of the 249 answerable questions of
 * northwind-rag-qa/ground_truth.jsonl and the 30 absent-fact questions of
 * test/support/absent-fact-questions.ts (questions the documents do not answer), the signals the decision
 * reads from the question's best candidate windows (prose-evidence.ts): the most likely window's meaning
 * and likelihood, its words, and the old lexical coverage (no-context.ts). Writes one JSON line per question
 * (`half`: odd or even position, for tuning on one half and reporting the other) and prints, per threshold on
 * the best window's meaning, the share of each set refused on each half.
 * Usage: tsx bench/relevance-calibration.ts <out.jsonl>
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { assessRelevance } from "../src/answer/evidence/no-context.js";
import { proseEvidence } from "../src/answer/evidence/prose-evidence.js";
import { contentTerms } from "../src/answer/evidence/sentence-scoring.js";
import { createPassageMeaning } from "../src/answer/evidence/window-meaning.js";
import { createFolio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import { goldPagesOf } from "../src/evaluation/answer-evaluation.js";
import { createLogger } from "../src/logger.js";
import { informationNeed } from "../src/retrieval/information-need.js";
import { termId } from "../src/retrieval/text-analyzer.js";
import { ABSENT_FACT_QUESTIONS } from "../test/support/absent-fact-questions.js";
import { sharedData } from "../test/support/shared-paths.js";

const [outPath] = process.argv.slice(2);
if (!outPath) throw new Error("usage: tsx bench/relevance-calibration.ts <out.jsonl>");
const DOCUMENTS = sharedData("northwind-rag-qa", "pdfs");
const answerable = (await readFile(sharedData("northwind-rag-qa", "ground_truth.jsonl"), "utf8"))
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as { question?: string; truth?: string })
  .filter((entry) => entry.question && goldPagesOf(entry.truth ?? "").length > 0)
  .map((entry) => entry.question ?? "");

const config = loadConfig(process.env);
const folio = await createFolio({ ...config, llm: { kind: "none" } }, createLogger({ level: "warn" }), {
  embeddingCacheDir: path.join(config.dataDir, "embedding-cache"),
});
const spaceId = `calibrate:northwind:${folio.retrievalMode}`;
if ((await folio.catalog.listDocuments(spaceId)).length === 0) {
  for (const fileName of (await readdir(DOCUMENTS)).filter((name) => name.endsWith(".pdf")).sort()) {
    const bytes = new Uint8Array(await readFile(path.join(DOCUMENTS, fileName)));
    await folio.ingestion.ingestFile({ bytes, fileName, spaceId, uploader: null });
    process.stderr.write(`ingested ${fileName}\n`);
  }
  await folio.sparseVectors.rebuild(spaceId);
}
const meaning = folio.embedder === null ? undefined : createPassageMeaning(folio.embedder);

async function signals(question: string) {
  const need = informationNeed(question);
  const results = await folio.retriever.search({ query: question, spaceIds: [spaceId], limit: 20 });
  const terms = [...contentTerms(need)];
  const statistics = await folio.catalog.getTermStatistics([spaceId], terms.map(termId));
  const corpus = {
    passages: statistics.chunkCount,
    frequencies: new Map(terms.map((term) => [term, statistics.documentFrequencies.get(termId(term)) ?? 0])),
  };
  const prose = proseEvidence({ need, question, corpus, ...(meaning === undefined ? {} : { meaning }) }, results);
  const [best] = await prose.candidates();
  return {
    likelihood: best?.likelihood ?? 0,
    meaning: best?.features.meaning ?? null,
    words: best?.features.words ?? 0,
    unknown: best?.features.unknown ?? 0,
    coverage: assessRelevance(need, results.slice(0, 5)).coverage,
  };
}

const lines: string[] = [];
const sets: Array<[string, readonly string[], boolean]> = [
  ["northwind", answerable, true],
  ["absent-fact", ABSENT_FACT_QUESTIONS, false],
];
for (const [set, questions, holdsAnswer] of sets)
  for (const [index, question] of questions.entries())
    lines.push(
      JSON.stringify({
        set,
        half: index % 2 === 0 ? "odd" : "even",
        holdsAnswer,
        question,
        ...(await signals(question)),
      }),
    );
await writeFile(outPath, `${lines.join("\n")}\n`);
const rows = lines.map((line) => JSON.parse(line) as { half: string; holdsAnswer: boolean; meaning: number | null });
console.log("best window's meaning   answerable refused (odd / even)   absent refused (odd / even)");
for (const threshold of [0.6, 0.62, 0.64, 0.66, 0.68, 0.7, 0.72, 0.74]) {
  const share = (half: string, holdsAnswer: boolean) => {
    const asked = rows.filter((row) => row.half === half && row.holdsAnswer === holdsAnswer);
    return `${asked.filter((row) => (row.meaning ?? 0) < threshold).length}/${asked.length}`;
  };
  console.log(
    `${threshold.toFixed(2).padEnd(23)} ${share("odd", true)} / ${share("even", true)}`.padEnd(60) +
      `${share("odd", false)} / ${share("even", false)}`,
  );
}
await folio.close();
