/**
 * The embedding port: text to unit-length dense vectors. Questions carry the model's query
 * instruction, passages do not. Implementations batch work off the main thread and serve questions
 * before queued passages, so a large upload never stalls an answer.
 */
export type EmbedOptions = {
  signal?: AbortSignal;
  /**
   * Passages are background work (ingestion) unless a question waits on them (quoting the sentences of
   * its sources): "interactive" runs before queued ingestion batches. Questions are always interactive.
   */
  priority?: "interactive" | "background";
  /** Called after each batch with the number of texts embedded so far. */
  onProgress?: (embedded: number, total: number) => void;
};

export interface Embedder {
  /** The model's name as configured (e.g. "bge-small-en-v1.5"); recorded with every vector it makes. */
  readonly modelId: string;
  readonly dimensions: number;
  /** A question, with the model's query instruction prepended. */
  embedQuery(text: string, options?: EmbedOptions): Promise<number[]>;
  /** Passages (chunk texts), without instruction, in input order. */
  embedPassages(texts: string[], options?: EmbedOptions): Promise<number[][]>;
  /**
   * Loads the model now, off the main thread, so the first question does not wait for it (a command
   * that asks at once starts this while it opens the stores). Optional: fakes and caches may lack it.
   */
  warmUp?(): Promise<void>;
  close(): Promise<void>;
}
