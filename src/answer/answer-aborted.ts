/** A question cancelled by its asker: thrown inside the pipeline, reported as one `aborted` error event. */
export class AnswerAborted extends Error {}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AnswerAborted();
}
