/**
 * A TAT-QA run file (`folio eval tatqa --run-out FILE`) split into the even- and odd-numbered excerpts
 * of the dataset (in its order): the share of first sentences that hold, per answer type and overall,
 * for the half a change was tuned on and the half it never saw.
 *
 * Usage: tsx bench/tatqa-halves.ts <tatqa_dataset_dev.json> <run.jsonl>
 */
import { readFile } from "node:fs/promises";
import { readTatqaDataset } from "../src/evaluation/tatqa-dataset.js";

const [datasetPath, runPath] = process.argv.slice(2);
if (!datasetPath || !runPath) throw new Error("usage: tsx bench/tatqa-halves.ts <dataset.json> <run.jsonl>");

const excerpts = readTatqaDataset(await readFile(datasetPath, "utf8"));
const position = new Map(excerpts.map((excerpt, index) => [excerpt.uid, index]));
const lines = (await readFile(runPath, "utf8"))
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as { excerpt: string; type: string; holds: boolean });

type Tally = { questions: number; holds: number };
const tallies = new Map<string, Tally>();
const count = (key: string, holds: boolean) => {
  const tally = tallies.get(key) ?? { questions: 0, holds: 0 };
  tally.questions += 1;
  tally.holds += holds ? 1 : 0;
  tallies.set(key, tally);
};
for (const line of lines) {
  const half = (position.get(line.excerpt) ?? 0) % 2 === 0 ? "even" : "odd";
  for (const scope of [half, "all"]) {
    count(`${scope} overall`, line.holds);
    count(`${scope} ${line.type}`, line.holds);
  }
}
for (const [key, tally] of [...tallies].sort(([left], [right]) => left.localeCompare(right)))
  process.stdout.write(
    `${key.padEnd(20)} ${(tally.holds / tally.questions).toFixed(3)} (${tally.holds}/${tally.questions})\n`,
  );
