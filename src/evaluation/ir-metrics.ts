/**
 * Ranking metrics with trec_eval's conventions: a run is sorted by score descending with ties broken by
 * document id descending; nDCG uses linear gain (the judged relevance) and a log2(rank + 1) discount
 * with the ideal ranking built from all judged documents; MAP@k divides by the number of relevant
 * documents (not by k); queries without any relevant judgment are left out (BEIR's convention).
 */
export type RankedDocument = { docId: string; score: number };
export type Run = Map<string, RankedDocument[]>;
export type Qrels = Map<string, Map<string, number>>;

export type MetricName = "ndcg@5" | "ndcg@10" | "map@10" | "recall@5" | "recall@10" | "recall@100" | "p@5" | "mrr@10";
export const METRIC_NAMES: MetricName[] = [
  "ndcg@5",
  "ndcg@10",
  "map@10",
  "recall@5",
  "recall@10",
  "recall@100",
  "p@5",
  "mrr@10",
];

export function sortRun(documents: RankedDocument[]): string[] {
  return [...documents]
    .sort(
      (left, right) => right.score - left.score || (left.docId < right.docId ? 1 : left.docId > right.docId ? -1 : 0),
    )
    .map((document) => document.docId);
}

export function ndcgAt(ranked: string[], judgments: Map<string, number>, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((docId, index) => {
    const gain = judgments.get(docId) ?? 0;
    if (gain > 0) dcg += gain / Math.log2(index + 2);
  });
  const ideal = [...judgments.values()]
    .filter((gain) => gain > 0)
    .sort((left, right) => right - left)
    .slice(0, k)
    .reduce((sum, gain, index) => sum + gain / Math.log2(index + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

function relevantCount(judgments: Map<string, number>): number {
  return [...judgments.values()].filter((gain) => gain > 0).length;
}

export function averagePrecisionAt(ranked: string[], judgments: Map<string, number>, k: number): number {
  const relevant = relevantCount(judgments);
  if (relevant === 0) return 0;
  let hits = 0;
  let sum = 0;
  ranked.slice(0, k).forEach((docId, index) => {
    if ((judgments.get(docId) ?? 0) > 0) {
      hits += 1;
      sum += hits / (index + 1);
    }
  });
  return sum / relevant;
}

export function recallAt(ranked: string[], judgments: Map<string, number>, k: number): number {
  const relevant = relevantCount(judgments);
  if (relevant === 0) return 0;
  return ranked.slice(0, k).filter((docId) => (judgments.get(docId) ?? 0) > 0).length / relevant;
}

export function precisionAt(ranked: string[], judgments: Map<string, number>, k: number): number {
  return ranked.slice(0, k).filter((docId) => (judgments.get(docId) ?? 0) > 0).length / k;
}

export function reciprocalRankAt(ranked: string[], judgments: Map<string, number>, k: number): number {
  const index = ranked.slice(0, k).findIndex((docId) => (judgments.get(docId) ?? 0) > 0);
  return index === -1 ? 0 : 1 / (index + 1);
}

export function scoreQuery(ranked: string[], judgments: Map<string, number>): Record<MetricName, number> {
  return {
    "ndcg@5": ndcgAt(ranked, judgments, 5),
    "ndcg@10": ndcgAt(ranked, judgments, 10),
    "map@10": averagePrecisionAt(ranked, judgments, 10),
    "recall@5": recallAt(ranked, judgments, 5),
    "recall@10": recallAt(ranked, judgments, 10),
    "recall@100": recallAt(ranked, judgments, 100),
    "p@5": precisionAt(ranked, judgments, 5),
    "mrr@10": reciprocalRankAt(ranked, judgments, 10),
  };
}

/** Mean of every metric over the judged queries; a judged query missing from the run scores 0. */
export function evaluateRun(run: Run, qrels: Qrels): { queries: number; metrics: Record<MetricName, number> } {
  const totals = Object.fromEntries(METRIC_NAMES.map((name) => [name, 0])) as Record<MetricName, number>;
  let queries = 0;
  for (const [queryId, judgments] of qrels) {
    if (relevantCount(judgments) === 0) continue;
    queries += 1;
    const scores = scoreQuery(sortRun(run.get(queryId) ?? []), judgments);
    for (const name of METRIC_NAMES) totals[name] += scores[name];
  }
  const metrics = Object.fromEntries(
    METRIC_NAMES.map((name) => [name, queries === 0 ? 0 : Math.round((totals[name] / queries) * 10_000) / 10_000]),
  ) as Record<MetricName, number>;
  return { queries, metrics };
}
