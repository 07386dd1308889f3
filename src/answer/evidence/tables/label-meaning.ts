/**
 * Row labels matched by meaning, for a question that names a line item in other words than the table
 * prints it ("How much did they spend on research?" → "R&D expenses"): the question's measure words and
 * each label are embedded (labels without the query instruction, as passages), and a label's cosine with
 * the measure is its meaning match. Label vectors are kept in a bounded cache, since the same tables
 * answer many questions; only consulted when words alone name no row.
 */
import type { Embedder } from "../../../embedding/embedder.js";

/** Labels kept; a label is a few words, so this is a few megabytes of vectors. */
const CACHE_LABELS = 4000;

export type LabelMeaning = (measure: string, labels: readonly string[], signal?: AbortSignal) => Promise<number[]>;

function cosine(left: readonly number[], right: readonly number[]): number {
  let sum = 0;
  for (let index = 0; index < left.length; index += 1) sum += (left[index] ?? 0) * (right[index] ?? 0);
  return sum;
}

export function createLabelMeaning(embedder: Embedder): LabelMeaning {
  const vectors = new Map<string, number[]>();
  return async (measure, labels, signal) => {
    const missing = [...new Set(labels.filter((label) => !vectors.has(label)))];
    const [measureVector, embedded] = await Promise.all([
      embedder.embedQuery(measure, { signal }),
      missing.length === 0 ? Promise.resolve([]) : embedder.embedPassages(missing, { signal, priority: "interactive" }),
    ]);
    missing.forEach((label, index) => {
      const vector = embedded[index];
      if (vector !== undefined) vectors.set(label, vector);
    });
    // Oldest first in the map: the cache forgets the labels it was given longest ago.
    while (vectors.size > CACHE_LABELS) vectors.delete(vectors.keys().next().value as string);
    return labels.map((label) => {
      const vector = vectors.get(label);
      return vector === undefined ? 0 : cosine(measureVector, vector);
    });
  };
}
