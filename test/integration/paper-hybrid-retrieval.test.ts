/**
 * The paper-hybrid retriever on a real embedded catalog (PGlite) with the real bge-small embedder, over
 * 30 SciFact documents (the gold documents of the first 12 test queries, filled up with other corpus
 * documents): its ranking and scores equal a brute-force computation of the same formula written here
 * with ml-matrix's full SVD, and the space is fitted once, then again only after it changes.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Matrix, SingularValueDecomposition } from "ml-matrix";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFolio, type Folio } from "../../src/composition-root.js";
import { loadConfig } from "../../src/config/config.js";
import type { Embedder } from "../../src/embedding/embedder.js";
import { createCachedEmbedder } from "../../src/embedding/embedding-cache.js";
import { type BeirDocument, loadBeirDataset } from "../../src/evaluation/beir-dataset.js";
import { beirPassageText } from "../../src/evaluation/retrieval-evaluation.js";
import { silentLogger } from "../../src/logger.js";
import { createPaperHybridRetriever } from "../../src/retrieval/paper-hybrid-retriever.js";
import type { Retriever } from "../../src/retrieval/retriever.js";
import { countTerms } from "../../src/retrieval/text-analyzer.js";
import { sharedData, sharedModelsDir } from "../support/shared-paths.js";

const datasetDirectory = sharedData("beir-scifact");
const hasInputs =
  existsSync(datasetDirectory) &&
  existsSync(path.join(sharedModelsDir, "bge-small-en-v1.5", "onnx", "model_quantized.onnx"));
const QUERY_COUNT = 12;
const DOCUMENT_COUNT = 30;
const SPACE = "eval:paper-hybrid-test";

type Subset = { documents: BeirDocument[]; queries: Array<{ id: string; text: string; gold: string[] }> };

async function loadSubset(): Promise<Subset> {
  const dataset = await loadBeirDataset(datasetDirectory, "test");
  const queries = [...dataset.qrels].slice(0, QUERY_COUNT).map(([id, judgments]) => ({
    id,
    text: dataset.queries.get(id) ?? "",
    gold: [...judgments.keys()],
  }));
  const wanted = new Set(queries.flatMap((query) => query.gold));
  const documents = dataset.corpus.filter((document) => wanted.has(document.id));
  for (const document of dataset.corpus) {
    if (documents.length >= DOCUMENT_COUNT) break;
    if (!wanted.has(document.id)) documents.push(document);
  }
  return { documents, queries };
}

function unit(vector: number[]): number[] {
  const norm = Math.hypot(...vector);
  return norm > 0 ? vector.map((value) => value / norm) : vector;
}

const dot = (left: number[], right: number[]) =>
  left.reduce((sum, value, index) => sum + value * (right[index] ?? 0), 0);

/** The paper's formula from scratch: dense TF-IDF (smoothed idf, unit rows), full SVD, 0.5·cos + 0.5·cos. */
function scoreByBruteForce(texts: string[], denseVectors: number[][], query: string, queryDense: number[]): number[] {
  const counts = texts.map((text) => countTerms(text));
  const vocabulary = [...new Set(counts.flatMap((terms) => terms.termIds))];
  const frequency = (termId: number) => counts.filter((terms) => terms.termIds.includes(termId)).length;
  const idf = new Map(vocabulary.map((termId) => [termId, Math.log((1 + texts.length) / (1 + frequency(termId))) + 1]));
  const vectorize = (text: string) => {
    const terms = countTerms(text);
    return unit(
      vocabulary.map((termId) => {
        const position = terms.termIds.indexOf(termId);
        return position < 0 ? 0 : (terms.counts[position] ?? 0) * (idf.get(termId) ?? 0);
      }),
    );
  };
  const tfIdf = new Matrix(texts.map(vectorize));
  const svd = new SingularValueDecomposition(tfIdf, { autoTranspose: true });
  const kept = svd.diagonal.filter((value) => value > 1e-6 * (svd.diagonal[0] ?? 0)).length;
  const components = svd.rightSingularVectors.subMatrix(0, vocabulary.length - 1, 0, kept - 1);
  const reduce = (row: number[]) => unit(new Matrix([row]).mmul(components).getRow(0));
  const queryReduced = reduce(vectorize(query));
  const queryDenseUnit = unit(queryDense);
  return texts.map(
    (_, row) =>
      0.5 * dot(unit(denseVectors[row] ?? []), queryDenseUnit) + 0.5 * dot(reduce(tfIdf.getRow(row)), queryReduced),
  );
}

describe.skipIf(!hasInputs)(
  "paper-hybrid retrieval on 30 SciFact documents (needs ../shared data and bge-small)",
  () => {
    let directory: string;
    let folio: Folio;
    let embedder: Embedder;
    let retriever: Retriever;
    let subset: Subset;
    const passageCalls: number[] = [];
    const docIdByChunk = new Map<string, string>();

    async function addPassage(document: BeirDocument): Promise<void> {
      const text = beirPassageText(document);
      const bytes = new TextEncoder().encode(text);
      const { chunks } = await folio.catalog.addDocument({
        document: {
          spaceId: SPACE,
          title: document.title,
          fileName: `${document.id}.txt`,
          mediaType: "text/plain",
          sha256: createHash("sha256").update(bytes).digest("hex"),
          byteSize: bytes.byteLength,
          pageCount: null,
          uploader: null,
          bytes,
        },
        pages: [],
        chunks: [{ kind: "text", text, tokenCount: 1, position: 0, provenance: {}, terms: countTerms(text) }],
      });
      for (const chunk of chunks) docIdByChunk.set(chunk.id, document.id);
    }

    beforeAll(async () => {
      directory = await mkdtemp(path.join(os.tmpdir(), "folio-paper-hybrid-"));
      folio = await createFolio(
        loadConfig({
          FOLIO_DATA_DIR: path.join(directory, "data"),
          FOLIO_MODELS_DIR: sharedModelsDir,
          FOLIO_LOG_LEVEL: "silent",
        }),
        silentLogger,
      );
      const cached = await createCachedEmbedder(folio.embedder!, path.join(directory, "embedding-cache"));
      embedder = {
        ...cached,
        embedPassages: (texts, options) => {
          passageCalls.push(texts.length);
          return cached.embedPassages(texts, options);
        },
      };
      subset = await loadSubset();
      await folio.catalog.ensureSpace(SPACE);
      for (const document of subset.documents) await addPassage(document);
      retriever = createPaperHybridRetriever({
        catalog: folio.catalog,
        embedder,
        passageText: (_document, chunk) => chunk.text,
      });
    }, 300_000);

    afterAll(async () => {
      await folio?.close();
      if (directory) await rm(directory, { recursive: true, force: true });
    });

    it("ranks and scores every question exactly as the brute-force formula does, fitting the space once", async () => {
      expect(subset.documents.length).toBe(DOCUMENT_COUNT);
      const texts = subset.documents.map(beirPassageText);
      const denseVectors = await embedder.embedPassages(texts);
      const goldRanks: number[] = [];
      for (const query of subset.queries) {
        const timingsMs: Record<string, number> = {};
        const results = await retriever.search({
          query: query.text,
          spaceIds: [SPACE],
          limit: DOCUMENT_COUNT,
          timingsMs,
        });
        const expected = scoreByBruteForce(texts, denseVectors, query.text, await embedder.embedQuery(query.text))
          .map((score, index) => ({ docId: subset.documents[index]?.id, score }))
          .sort((left, right) => right.score - left.score);
        expect(results.map((result) => docIdByChunk.get(result.chunkId))).toEqual(expected.map((entry) => entry.docId));
        results.forEach((result, index) => {
          expect(Math.abs(result.score - (expected[index]?.score ?? 0))).toBeLessThan(1e-6);
        });
        goldRanks.push(1 + results.findIndex((result) => query.gold.includes(docIdByChunk.get(result.chunkId) ?? "")));
      }
      // One fit (30 passages, served by the cache the brute force filled), then none: the space did not change.
      expect(passageCalls).toEqual([30, 30]);
      // Each question's best gold document: first for 10 of 12 (the first question, SciFact's hardest, is 11th).
      expect(goldRanks).toEqual([11, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1]);
    }, 300_000);

    it("fits the space again once a document is added, and finds that document by its own text", async () => {
      const before = passageCalls.length;
      const dataset = await loadBeirDataset(datasetDirectory, "test");
      const extra = dataset.corpus.find((document) => !subset.documents.some((entry) => entry.id === document.id));
      await addPassage(extra!);
      const results = await retriever.search({ query: extra!.text, spaceIds: [SPACE], limit: 3 });
      expect(docIdByChunk.get(results[0]?.chunkId ?? "")).toBe(extra!.id);
      expect(passageCalls.slice(before)).toEqual([31]);
      await retriever.search({ query: "anything", spaceIds: [SPACE], limit: 3 });
      expect(passageCalls.slice(before)).toEqual([31]);
    }, 120_000);
  },
);
