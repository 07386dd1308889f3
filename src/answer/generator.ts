/**
 * The generation port. Today's implementation is extractive (quotes the best-supporting sentences
 * with [n] markers); the LLM issue adds a node-llama-cpp / OpenAI-compatible implementation.
 */
import type { SearchResult } from "../domain/types.js";

/** A numbered source as it is shown to the generator: `n` is the marker the answer cites as [n]. */
export type NumberedSource = {
  n: number;
  result: SearchResult;
};

export interface AnswerGenerator {
  /** Streams answer text that cites sources as [n]. */
  generate(question: string, sources: NumberedSource[], signal?: AbortSignal): AsyncIterable<string>;
}
