/**
 * Turns a callback-driven producer (node-llama-cpp's onTextChunk) into an async iterable: chunks pushed
 * before the reader asks are buffered in order, and an end or failure reaches the reader after them.
 */
export type ChunkChannel<T> = AsyncIterable<T> & {
  push(chunk: T): void;
  /** Ends the iteration once buffered chunks are read. */
  close(): void;
  /** Ends the iteration with this error once buffered chunks are read. */
  fail(error: unknown): void;
};

export function createChunkChannel<T>(): ChunkChannel<T> {
  const buffered: T[] = [];
  let ended = false;
  let failure: { error: unknown } | null = null;
  let wake: (() => void) | null = null;

  const notify = () => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };

  return {
    push(chunk) {
      if (ended) return;
      buffered.push(chunk);
      notify();
    },
    close() {
      ended = true;
      notify();
    },
    fail(error) {
      if (ended) return;
      ended = true;
      failure = { error };
      notify();
    },
    async *[Symbol.asyncIterator]() {
      while (true) {
        const chunk = buffered.shift();
        if (chunk !== undefined) {
          yield chunk;
          continue;
        }
        if (ended) {
          if (failure) throw failure.error;
          return;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}
