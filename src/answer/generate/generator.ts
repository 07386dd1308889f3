/**
 * The generation port: the extractive generator (quotes the best-supporting sentences with [n]
 * markers) and the LLM generator (a language model writes a draft that is verified afterwards).
 */
import type { SearchResult } from "../../domain/types.js";

/** A numbered source as it is shown to the generator: `n` is the marker the answer cites as [n]. */
export type NumberedSource = {
  n: number;
  result: SearchResult;
};

/** What a generator may report while it works, besides its text. */
export type GenerationHooks = {
  /** The model is busy and the question waits in line at this 1-based position. */
  onQueued?: (position: number) => void;
};

export interface AnswerGenerator {
  /** Streams answer text that cites sources as [n]. */
  generate(
    question: string,
    sources: NumberedSource[],
    signal?: AbortSignal,
    hooks?: GenerationHooks,
  ): AsyncIterable<string>;
}
