/**
 * Calibrates the no-context threshold (src/answer/evidence/no-context.ts): ingests the Northwind QA PDFs into a
 * throw-away embedded Folio, retrieves the top sources for every answerable question of
 * ground_truth.jsonl and for the absent-fact questions of test/support/absent-fact-questions.ts, and
 * reports, per threshold, the false-no-context rate (answerable questions Folio would refuse) and the
 * true-no-context rate (absent-fact questions it would refuse). Coverage is computed by the pipeline's
 * own assessRelevance on the same top-5 sources answerQuestion uses; an IDF-weighted coverage (terms
 * weighted by their BM25 IDF in the space) is printed beside it for comparison.
 *
 *   npx tsx bench/no-context-calibration.ts [--json]
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { assessRelevance } from "../src/answer/evidence/no-context.js";
import { uniqueTerms } from "../src/answer/evidence/sentence-scoring.js";
import { createFolio, type Folio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import type { SearchResult } from "../src/domain/types.js";
import { goldPagesOf } from "../src/evaluation/answer-evaluation.js";
import { createLogger } from "../src/logger.js";
import { inverseDocumentFrequency } from "../src/retrieval/bm25.js";
import { termId } from "../src/retrieval/text-analyzer.js";
import { ABSENT_FACT_QUESTIONS } from "../test/support/absent-fact-questions.js";
import { sharedData } from "../test/support/shared-paths.js";

const DATASET = sharedData("northwind-rag-qa", "ground_truth.jsonl");
const DOCUMENTS = sharedData("northwind-rag-qa", "pdfs");
/** What answerQuestion uses: 20 candidates, the top 5 become sources. */
const CANDIDATES = 20;
const TOP_K = 5;
const THRESHOLDS = [0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9, 1];

type Scored = { question: string; coverage: number; idfCoverage: number };

async function idfCoverage(folio: Folio, spaceId: string, query: string, sources: SearchResult[]): Promise<number> {
  const terms = [...uniqueTerms(query)];
  if (terms.length === 0 || sources.length === 0) return 0;
  const statistics = await folio.catalog.getTermStatistics(
    [spaceId],
    terms.map((term) => termId(term)),
  );
  const weight = (term: string) =>
    inverseDocumentFrequency(statistics.chunkCount, statistics.documentFrequencies.get(termId(term)) ?? 0);
  const total = terms.reduce((sum, term) => sum + weight(term), 0);
  let best = 0;
  for (const source of sources.slice(0, 3)) {
    const chunkTerms = uniqueTerms(`${source.title}\n${source.text}`);
    const matched = terms.filter((term) => chunkTerms.has(term)).reduce((sum, term) => sum + weight(term), 0);
    best = Math.max(best, matched / total);
  }
  return best;
}

async function score(folio: Folio, spaceId: string, questions: string[]): Promise<Scored[]> {
  const scored: Scored[] = [];
  for (const question of questions) {
    const sources = (await folio.retriever.search({ query: question, spaceIds: [spaceId], limit: CANDIDATES })).slice(
      0,
      TOP_K,
    );
    scored.push({
      question,
      coverage: assessRelevance(question, sources, 0).coverage,
      idfCoverage: await idfCoverage(folio, spaceId, question, sources),
    });
  }
  return scored;
}

function rate(values: number[], predicate: (value: number) => boolean): number {
  return Math.round((values.filter(predicate).length / values.length) * 1000) / 1000;
}

async function main(): Promise<void> {
  const asJson = process.argv.includes("--json");
  const answerable = (await readFile(DATASET, "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { question?: string; truth?: string })
    .filter((entry) => entry.question && goldPagesOf(entry.truth ?? "").length > 0)
    .map((entry) => entry.question ?? "");

  const dataDir = await mkdtemp(path.join(tmpdir(), "folio-calibration-"));
  const { DATABASE_URL: _database, QDRANT_URL: _qdrant, ...environment } = process.env;
  const folio = await createFolio(
    loadConfig({ ...environment, FOLIO_DATA_DIR: dataDir }),
    createLogger({ level: "warn" }),
  );
  try {
    const spaceId = `eval:${randomUUID()}`;
    for (const fileName of (await readdir(DOCUMENTS)).filter((name) => name.endsWith(".pdf")).sort()) {
      const bytes = new Uint8Array(await readFile(path.join(DOCUMENTS, fileName)));
      await folio.ingestion.ingestFile({ bytes, fileName, spaceId, uploader: null });
    }
    await folio.sparseVectors.rebuild(spaceId);
    const present = await score(folio, spaceId, answerable);
    const absent = await score(folio, spaceId, [...ABSENT_FACT_QUESTIONS]);

    const table = THRESHOLDS.map((threshold) => ({
      threshold,
      falseNoContext: rate(
        present.map((entry) => entry.coverage),
        (value) => value < threshold,
      ),
      trueNoContext: rate(
        absent.map((entry) => entry.coverage),
        (value) => value < threshold,
      ),
      idfFalseNoContext: rate(
        present.map((entry) => entry.idfCoverage),
        (value) => value < threshold,
      ),
      idfTrueNoContext: rate(
        absent.map((entry) => entry.idfCoverage),
        (value) => value < threshold,
      ),
    }));
    if (asJson) {
      process.stdout.write(`${JSON.stringify({ answerable: present.length, absent: absent.length, table })}\n`);
      return;
    }
    process.stdout.write(`answerable questions: ${present.length}, absent-fact questions: ${absent.length}\n\n`);
    process.stdout.write(
      "| threshold | false no-context (answerable) | true no-context (absent) | IDF-weighted: false | IDF-weighted: true |\n|---|---|---|---|---|\n",
    );
    for (const row of table)
      process.stdout.write(
        `| ${row.threshold} | ${row.falseNoContext} | ${row.trueNoContext} | ${row.idfFalseNoContext} | ${row.idfTrueNoContext} |\n`,
      );
    process.stdout.write("\nabsent-fact questions by coverage:\n");
    for (const entry of [...absent].sort((left, right) => right.coverage - left.coverage))
      process.stdout.write(`  ${entry.coverage.toFixed(2)}  idf ${entry.idfCoverage.toFixed(2)}  ${entry.question}\n`);
    process.stdout.write("\nanswerable questions below 0.6 coverage:\n");
    for (const entry of present.filter((item) => item.coverage < 0.6))
      process.stdout.write(`  ${entry.coverage.toFixed(2)}  idf ${entry.idfCoverage.toFixed(2)}  ${entry.question}\n`);
  } finally {
    await folio.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
