/**
 * Grid search of reciprocal rank fusion's k and list weights on saved runs — for tuning on a TRAIN
 * split, never on the test queries the table reports. Make the runs with the product itself:
 *   npm run folio -- eval retrieval --dataset DIR --split train --mode dense  --run-out dense.run
 *   npm run folio -- eval retrieval --dataset DIR --split train --mode sparse --run-out sparse.run
 * then: npx tsx bench/tune-fusion.ts DIR/qrels/train.tsv dense.run sparse.run [candidates=50]
 */
import { readFile } from "node:fs/promises";
import { evaluateRun, type Qrels, type Run } from "../src/evaluation/ir-metrics.js";
import { fuseReciprocalRanks } from "../src/stores/reciprocal-rank-fusion.js";

async function readRun(file: string): Promise<Map<string, string[]>> {
  const run = new Map<string, string[]>();
  for (const line of (await readFile(file, "utf8")).split("\n")) {
    const [queryId, , docId] = line.trim().split(/\s+/);
    if (!queryId || !docId) continue;
    const list = run.get(queryId) ?? [];
    list.push(docId);
    run.set(queryId, list);
  }
  return run;
}

async function readQrels(file: string): Promise<Qrels> {
  const qrels: Qrels = new Map();
  for (const line of (await readFile(file, "utf8")).split("\n").slice(1)) {
    const [queryId, docId, score] = line.trim().split(/\t/);
    if (!queryId || !docId) continue;
    const judgments = qrels.get(queryId) ?? new Map<string, number>();
    judgments.set(docId, Number(score));
    qrels.set(queryId, judgments);
  }
  return qrels;
}

const [qrelsFile, denseFile, sparseFile, candidatesArgument] = process.argv.slice(2);
if (!qrelsFile || !denseFile || !sparseFile)
  throw new Error("usage: tune-fusion.ts <qrels.tsv> <dense.run> <sparse.run>");
const candidates = Number(candidatesArgument ?? 50);
const [qrels, dense, sparse] = await Promise.all([readQrels(qrelsFile), readRun(denseFile), readRun(sparseFile)]);
const asHits = (docIds: string[]) =>
  docIds.slice(0, candidates).map((docId) => ({ chunkId: docId, documentId: docId, spaceId: "", score: 0 }));

const rows: Array<{ k: number; denseWeight: number; ndcg10: number; recall100: number }> = [];
for (const k of [5, 10, 20, 40, 60, 100]) {
  for (const denseWeight of [0.5, 0.75, 1, 1.25, 1.5, 2, 3]) {
    const run: Run = new Map();
    for (const queryId of qrels.keys()) {
      const fused = fuseReciprocalRanks(
        [
          { results: asHits(dense.get(queryId) ?? []), weight: denseWeight },
          { results: asHits(sparse.get(queryId) ?? []), weight: 1 },
        ],
        { k, limit: 100 },
      );
      run.set(
        queryId,
        fused.map((hit) => ({ docId: hit.chunkId, score: hit.score })),
      );
    }
    const { metrics } = evaluateRun(run, qrels);
    rows.push({ k, denseWeight, ndcg10: metrics["ndcg@10"], recall100: metrics["recall@100"] });
  }
}
rows.sort((left, right) => right.ndcg10 - left.ndcg10);
process.stdout.write("| k | dense weight (sparse 1) | nDCG@10 | R@100 |\n| --- | --- | --- | --- |\n");
for (const row of rows.filter((row, index) => index < 12 || row.k === 60)) {
  process.stdout.write(`| ${row.k} | ${row.denseWeight} | ${row.ndcg10.toFixed(4)} | ${row.recall100.toFixed(4)} |\n`);
}
