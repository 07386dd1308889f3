/**
 * Diagnostics for `folio eval answers` sets: ingests the documents once into a kept space of FOLIO_DATA_DIR
 * ("diagnose:<dataset>"), then for every question prints where the gold pages rank among the first 20
 * results, the top five (file, pages, kind, heading), the no-context coverage and the answer's cited pages.
 * The documents stay, so a run after a change to retrieval or answering takes minutes; after a change to
 * ingestion (parsing, chunking, headings) pass --reingest.
 * Usage: tsx bench/diagnose-answers.ts <qa.jsonl> <docs dir> [--reingest]
 */
import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Answer } from "../src/answer/answer-events.js";
import { assessRelevance } from "../src/answer/evidence/no-context.js";
import { createFolio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import { goldPagesOf } from "../src/evaluation/answer-evaluation.js";
import { createLogger } from "../src/logger.js";
import { informationNeed } from "../src/retrieval/information-need.js";

const [datasetPath, docsDir, flag] = process.argv.slice(2);
if (!datasetPath || !docsDir)
  throw new Error("usage: tsx bench/diagnose-answers.ts <qa.jsonl> <docs dir> [--reingest]");
const config = loadConfig(process.env);
const folio = await createFolio({ ...config, llm: { kind: "none" } }, createLogger({ level: "warn" }), {
  embeddingCacheDir: path.join(config.dataDir, "embedding-cache"),
});
const spaceId = `diagnose:${path.basename(path.dirname(path.resolve(datasetPath)))}`;
let documents = await folio.catalog.listDocuments(spaceId);
if (flag === "--reingest" || documents.length === 0) {
  for (const document of documents) await folio.core.deleteDocument(document.id);
  for (const fileName of (await readdir(docsDir)).filter((name) => !name.startsWith(".")).sort()) {
    const bytes = new Uint8Array(await readFile(path.join(docsDir, fileName)));
    const result = await folio.ingestion.ingestFile({ bytes, fileName, spaceId, uploader: null });
    process.stderr.write(`ingested ${fileName}: ${result.status}\n`);
  }
  await folio.sparseVectors.rebuild(spaceId);
  documents = await folio.catalog.listDocuments(spaceId);
}
const entries = (await readFile(datasetPath, "utf8"))
  .split("\n")
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line) as { question: string; truth: string });
const summary = { hit1: 0, hit5: 0, hit20: 0, cited: 0, noContext: 0 };
for (const [index, entry] of entries.entries()) {
  const gold = goldPagesOf(entry.truth);
  const isGold = (file: string, start: number | null, end: number | null) =>
    gold.some((page) => page.file === file && start !== null && page.page >= start && page.page <= (end ?? start));
  const results = await folio.retriever.search({ query: entry.question, spaceIds: [spaceId], limit: 20 });
  const ranks = results.flatMap((result, rank) =>
    isGold(result.file, result.pageStart, result.pageEnd) ? [rank + 1] : [],
  );
  let answer: Answer | null = null;
  for await (const event of folio.core.answerQuestion(entry.question, {
    spaceIds: [spaceId],
    history: [],
    requestId: randomUUID(),
  }))
    if (event.type === "done") answer = event.answer;
  const cited = answer && !answer.noContext && answer.citations.some((c) => isGold(c.file, c.pageStart, c.pageEnd));
  const coverage = assessRelevance(informationNeed(entry.question), results.slice(0, 5)).coverage;
  if (ranks[0] === 1) summary.hit1 += 1;
  if ((ranks[0] ?? 99) <= 5) summary.hit5 += 1;
  if (ranks.length > 0) summary.hit20 += 1;
  if (cited) summary.cited += 1;
  if (answer?.noContext) summary.noContext += 1;
  console.log(`\n#${index + 1} ${entry.question.slice(0, 160)}`);
  console.log(`  need: ${informationNeed(entry.question).slice(0, 160)}`);
  console.log(
    `  gold: ${gold.map((g) => `${g.file}#${g.page}`).join(" ")}  ranks: ${ranks.join(",") || "-"}  coverage ${coverage.toFixed(2)}  ${answer?.noContext ? "NO-CONTEXT" : cited ? "CITED-GOLD" : "cited-other"}`,
  );
  for (const [rank, result] of results.slice(0, 5).entries())
    console.log(
      `  ${rank + 1}. ${result.file}#${result.pageStart}-${result.pageEnd} ${result.kind} [${(result.provenance.headingPath ?? []).join(" / ").slice(0, 70)}] ${result.text.replace(/\s+/g, " ").slice(0, 80)}`,
    );
  console.log(
    `  cited: ${(answer?.citations ?? []).map((c) => `${c.file}#${c.pageStart}`).join(" ")} | ${answer?.answer.replace(/\s+/g, " ").slice(0, 200)}`,
  );
}
const n = entries.length;
console.log(
  `\nhit@1 ${(summary.hit1 / n).toFixed(3)} hit@5 ${(summary.hit5 / n).toFixed(3)} hit@20 ${(summary.hit20 / n).toFixed(3)} cited ${(summary.cited / n).toFixed(3)} no-context ${(summary.noContext / n).toFixed(3)}`,
);
await folio.close();
