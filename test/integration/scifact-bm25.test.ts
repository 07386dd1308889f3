/**
 * BM25 quality check without the database: analyzer + document/query vectors + metrics on BEIR SciFact
 * (title + text indexed as one field) against Anserini's "flat" BM25 regression for BEIR v1.0.0 SciFact
 * (castorini/anserini, src/main/resources/regression/beir-v1.0.0-scifact.flat.yaml, k1 0.9, b 0.4):
 * nDCG@10 0.6789, R@100 0.9253, 838,128 indexed terms. The often-quoted 0.665 is the *multifield*
 * run (title and text as separate fields, 0.6647), which Folio does not do. Folio stays a little under
 * flat because Lucene stores document lengths lossily in one byte while Folio uses exact lengths.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadBeirDataset } from "../../src/evaluation/beir-dataset.js";
import { evaluateRun, type RankedDocument, type Run } from "../../src/evaluation/ir-metrics.js";
import { DEFAULT_BM25, documentVector, queryVector } from "../../src/retrieval/bm25.js";
import { countTerms } from "../../src/retrieval/text-analyzer.js";
import type { TermStatistics } from "../../src/stores/catalog.js";
import { sharedData } from "../support/shared-paths.js";

const datasetDirectory = sharedData("beir-scifact");
const ANSERINI_FLAT = { "ndcg@10": 0.6789, "recall@100": 0.9253, totalTerms: 838_128 };

describe.skipIf(!existsSync(datasetDirectory))("BM25 on SciFact (in memory)", () => {
  it("lands within 0.01 of Anserini's flat BM25 regression", async () => {
    const dataset = await loadBeirDataset(datasetDirectory, "test");
    const documents = dataset.corpus.map((document) => ({
      id: document.id,
      terms: countTerms(`${document.title}\n${document.text}`),
    }));
    const totalLength = documents.reduce((sum, document) => sum + document.terms.length, 0);
    const averageLength = totalLength / documents.length;

    // An inverted index of the document halves of BM25, so each query only touches its terms' postings.
    const documentFrequencies = new Map<number, number>();
    const postings = new Map<number, Array<{ docId: string; weight: number }>>();
    for (const document of documents) {
      const vector = documentVector(document.terms, averageLength, DEFAULT_BM25);
      vector.indices.forEach((termId, position) => {
        documentFrequencies.set(termId, (documentFrequencies.get(termId) ?? 0) + 1);
        const list = postings.get(termId) ?? [];
        list.push({ docId: document.id, weight: vector.values[position] ?? 0 });
        postings.set(termId, list);
      });
    }
    const statistics: TermStatistics = { chunkCount: documents.length, totalLength, documentFrequencies };

    const run: Run = new Map();
    for (const queryId of dataset.qrels.keys()) {
      const query = queryVector(countTerms(dataset.queries.get(queryId) ?? ""), statistics);
      const scores = new Map<string, number>();
      query.indices.forEach((termId, position) => {
        for (const posting of postings.get(termId) ?? []) {
          scores.set(posting.docId, (scores.get(posting.docId) ?? 0) + posting.weight * (query.values[position] ?? 0));
        }
      });
      const ranked: RankedDocument[] = [...scores].map(([docId, score]) => ({ docId, score }));
      ranked.sort((left, right) => right.score - left.score || (left.docId < right.docId ? 1 : -1));
      run.set(queryId, ranked.slice(0, 100));
    }

    const { queries, metrics } = evaluateRun(run, dataset.qrels);
    console.log(
      `SciFact BM25 (in memory, k1=${DEFAULT_BM25.k1} b=${DEFAULT_BM25.b}, ${totalLength} terms):`,
      JSON.stringify({ queries, metrics }),
    );
    expect(documents).toHaveLength(5183);
    expect(queries).toBe(300);
    // The analyzer matches Lucene's EnglishAnalyzer closely enough that the corpus has the same size.
    expect(Math.abs(totalLength - ANSERINI_FLAT.totalTerms) / ANSERINI_FLAT.totalTerms).toBeLessThan(0.001);
    expect(Math.abs(metrics["ndcg@10"] - ANSERINI_FLAT["ndcg@10"])).toBeLessThanOrEqual(0.01);
    expect(Math.abs(metrics["recall@100"] - ANSERINI_FLAT["recall@100"])).toBeLessThanOrEqual(0.01);
  });
});
