/**
 * Page hit@5 per retrieval mode on a page-cited QA set (Northwind), overall and for the questions with
 * a misspelt word — a word of three or more letters that occurs nowhere in the documents and is not a
 * whole word of the embedding model's WordPiece vocabulary, which stands in for a dictionary ("Wht",
 * "Helth", "servces"; also unknown names). Documents are ingested once through the real pipeline.
 * Usage: tsx bench/misspelt-questions.ts [qa.jsonl] [docs dir]   (FOLIO_DATA_DIR: where vectors are cached)
 */
import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { createFolio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import { goldPagesOf } from "../src/evaluation/answer-evaluation.js";
import { createLogger } from "../src/logger.js";
import { RETRIEVAL_MODES, type RetrievalMode } from "../src/retrieval/retriever.js";
import { sharedData } from "../test/support/shared-paths.js";

const [
  datasetPath = sharedData("northwind-rag-qa", "ground_truth.jsonl"),
  docsDir = sharedData("northwind-rag-qa", "pdfs"),
] = process.argv.slice(2);
const config = loadConfig(process.env);
const folio = await createFolio(config, createLogger({ level: "warn" }), {
  embeddingCacheDir: path.join(config.dataDir, "embedding-cache"),
});
const spaceId = `eval:${randomUUID()}`;
const tokenizer = JSON.parse(
  await readFile(path.join(config.modelsDir, config.embedModel ?? "bge-small-en-v1.5", "tokenizer.json"), "utf8"),
) as { model: { vocab: Record<string, number> } };
const dictionary = new Set(Object.keys(tokenizer.model.vocab));
const words = (text: string) => text.toLowerCase().match(/\p{L}{3,}/gu) ?? [];
try {
  const vocabulary = new Set<string>();
  for (const fileName of (await readdir(docsDir)).sort()) {
    const bytes = new Uint8Array(await readFile(path.join(docsDir, fileName)));
    const result = await folio.ingestion.ingestFile({ bytes, fileName, spaceId, uploader: null });
    if (!result.documentId) continue;
    for (const page of await folio.catalog.getPages(result.documentId))
      for (const word of words(page.text)) vocabulary.add(word);
    for (const chunk of await folio.catalog.listChunks(result.documentId))
      for (const word of words(chunk.text)) vocabulary.add(word);
  }
  await folio.sparseVectors.rebuild(spaceId);
  const questions = (await readFile(datasetPath, "utf8"))
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as { question: string; truth: string })
    .map((entry) => ({
      question: entry.question,
      gold: goldPagesOf(entry.truth),
      misspelt: words(entry.question).some((word) => !vocabulary.has(word) && !dictionary.has(word)),
    }))
    .filter((entry) => entry.gold.length > 0);
  const modes = RETRIEVAL_MODES.filter((mode) => mode !== "hybrid+rerank" || folio.reranker !== null);
  process.stdout.write("| mode | page hit@5, all | page hit@5, misspelt |\n| --- | --- | --- |\n");
  for (const mode of modes as RetrievalMode[]) {
    let all = 0;
    let misspelt = 0;
    for (const entry of questions) {
      const results = await folio.retriever.search({ query: entry.question, spaceIds: [spaceId], limit: 5, mode });
      const hit = results.some((result) =>
        entry.gold.some(
          (gold) =>
            gold.file === result.file &&
            result.pageStart !== null &&
            gold.page >= result.pageStart &&
            gold.page <= (result.pageEnd ?? result.pageStart),
        ),
      );
      if (hit) all += 1;
      if (hit && entry.misspelt) misspelt += 1;
    }
    const misspeltTotal = questions.filter((entry) => entry.misspelt).length;
    process.stdout.write(`| ${mode} | ${all}/${questions.length} | ${misspelt}/${misspeltTotal} |\n`);
  }
} finally {
  for (const document of await folio.catalog.listDocuments(spaceId)) await folio.core.deleteDocument(document.id);
  await folio.close();
}
