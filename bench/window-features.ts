/**
 * Calibration data for the window reader: reads a run of bench/diagnose-conversations.ts (each turn's
 * search results), and writes one JSON line per turn with the candidate windows the reader weighs, each
 * with its features (window-scoring.ts) and its label — the share of the turn's checks its text (with its
 * context) meets on its own. Terms are weighed by the diagnosis space's BM25
 * statistics (FOLIO_DATA_DIR must be the diagnosis run's). With an embedding model configured
 * (FOLIO_EMBED_MODEL not "none"), the windows' meaning is scored too (cached under
 * FOLIO_DATA_DIR/embedding-cache).
 * Usage: tsx bench/window-features.ts <diagnosis.jsonl> <out.jsonl>
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createPassageMeaning } from "../src/answer/evidence/window-meaning.js";
import { createFolio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import type { SearchResult } from "../src/domain/types.js";
import type { TurnExpectation } from "../src/evaluation/conversation-dataset.js";
import { expectationShare } from "../src/evaluation/turn-check.js";
import { createLogger } from "../src/logger.js";
import { windowCalibrationLine } from "./support/window-calibration-line.js";

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
  const line = await windowCalibrationLine({
    conversationIndex: turn.conversationIndex,
    question: turn.question,
    query: turn.query,
    results: turn.results,
    refusal: turn.expect.refusal === true,
    catalog: folio.catalog,
    meaning,
    label: (window) => expectationShare(`${window.context} ${window.text}`, turn.expect),
  });
  lines.push(JSON.stringify({ ...line, turn: turn.turn, kind: turn.kind }));
}
await writeFile(outPath, `${lines.join("\n")}\n`);
process.stderr.write(`${turns.length} turns written to ${outPath}\n`);
await folio.close();
