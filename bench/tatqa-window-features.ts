/**
 * Window-reader calibration data from TAT-QA dev's span questions answered from the text: each excerpt
 * rendered as `folio eval tatqa` renders it (an HTML page), ingested into a space of its own, each question
 * searched there, and one JSON line per question with the candidate windows the reader weighs (features
 * and a label: 1 when the window, quoted as an answer, holds the gold span in its first sentence —
 * first-sentence.ts, the metric of `folio eval tatqa`). `conversationIndex` is the excerpt's 1-based number
 * plus one, so the tuning half of bench/calibrate-window-reader.ts (odd values) is the even-numbered
 * excerpts, the half #31 tuned the table reading on.
 * Usage: tsx bench/tatqa-window-features.ts <tatqa_dataset_dev.json> <out.jsonl> [--limit N]
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPassageMeaning } from "../src/answer/evidence/window-meaning.js";
import { createFolio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import { deleteEvaluationSpace, ingestIntoEvaluationSpace } from "../src/evaluation/evaluation-space.js";
import { firstSentenceHolds } from "../src/evaluation/first-sentence.js";
import { readTatqaDataset, renderExcerptHtml } from "../src/evaluation/tatqa-dataset.js";
import { createLogger } from "../src/logger.js";
import { windowCalibrationLine } from "./support/window-calibration-line.js";

const [datasetPath, outPath, ...flags] = process.argv.slice(2);
if (!datasetPath || !outPath)
  throw new Error("usage: tsx bench/tatqa-window-features.ts <tatqa_dataset_dev.json> <out.jsonl> [--limit N]");
const limit = flags.includes("--limit") ? Number(flags[flags.indexOf("--limit") + 1]) : Number.POSITIVE_INFINITY;
const config = loadConfig(process.env);
const folio = await createFolio({ ...config, llm: { kind: "none" } }, createLogger({ level: "warn" }), {
  embeddingCacheDir: path.join(config.dataDir, "embedding-cache"),
});
const meaning = folio.embedder === null ? null : createPassageMeaning(folio.embedder);
const pages = await mkdtemp(path.join(tmpdir(), "folio-tatqa-windows-"));
const lines: string[] = [];
try {
  const excerpts = readTatqaDataset(await readFile(datasetPath, "utf8")).slice(0, limit);
  for (const [index, excerpt] of excerpts.entries()) {
    const questions = excerpt.questions.filter(
      (question) => question.answerType === "span" && question.answerFrom === "text",
    );
    if (questions.length === 0) continue;
    const page = path.join(pages, `tatqa-${excerpt.uid.slice(0, 8)}.html`);
    await writeFile(page, renderExcerptHtml(excerpt, `Annual report excerpt ${index + 1}`));
    const spaceId = `calibrate:tatqa:${excerpt.uid}`;
    await ingestIntoEvaluationSpace(folio, spaceId, [page]);
    try {
      for (const question of questions) {
        const results = await folio.retriever.search({ query: question.question, spaceIds: [spaceId], limit: 20 });
        const line = await windowCalibrationLine({
          conversationIndex: index + 2,
          question: question.question,
          query: question.question,
          results,
          refusal: false,
          catalog: folio.catalog,
          meaning,
          label: (window) => (firstSentenceHolds(`“${window.text}” [1]`, question).holds ? 1 : 0),
        });
        lines.push(JSON.stringify(line));
      }
    } finally {
      await deleteEvaluationSpace(folio, spaceId);
    }
    if ((index + 1) % 20 === 0) process.stderr.write(`${index + 1}/${excerpts.length} excerpts\n`);
  }
  await writeFile(outPath, `${lines.join("\n")}\n`);
  process.stderr.write(`${lines.length} questions written to ${outPath}\n`);
} finally {
  await rm(pages, { recursive: true, force: true });
  await folio.close();
}
