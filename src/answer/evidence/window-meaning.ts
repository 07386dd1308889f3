/**
 * The meaning of candidate answer windows against a question: the question embedded with the model's
 * query instruction, each window as a passage with its context in front ("Changing your ENT password:
 * You must change …"), as its section would be indexed. Vectors are unit length, so the dot product is
 * the cosine. Costs one embedding per window: the reader embeds only its best candidates by words.
 */
import type { Embedder } from "../../embedding/embedder.js";
import type { AnswerWindow } from "./answer-windows.js";

/** Each passage's cosine with the question, in input order. */
export type PassageMeaning = (question: string, passages: readonly string[], signal?: AbortSignal) => Promise<number[]>;

export function windowPassage(window: Pick<AnswerWindow, "context" | "text">): string {
  return window.context === "" ? window.text : `${window.context}: ${window.text}`;
}

function dot(left: readonly number[], right: readonly number[]): number {
  let sum = 0;
  for (let index = 0; index < left.length; index += 1) sum += (left[index] ?? 0) * (right[index] ?? 0);
  return sum;
}

/** Passages' meaning with `embedder`; a question's vector is kept while the same question asks again. */
export function createPassageMeaning(embedder: Embedder): PassageMeaning {
  let last: { question: string; vector: Promise<number[]> } | null = null;
  return async (question, passages, signal) => {
    if (passages.length === 0) return [];
    if (last?.question !== question) last = { question, vector: embedder.embedQuery(question, { signal }) };
    const [questionVector, passageVectors] = await Promise.all([
      last.vector,
      // The asker waits on these: they go before queued ingestion batches.
      embedder.embedPassages([...passages], { signal, priority: "interactive" }),
    ]);
    return passageVectors.map((vector) => dot(questionVector, vector));
  };
}
