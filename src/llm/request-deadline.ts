/**
 * One request's cancellation: the caller's abort signal and the request timeout merged into a single
 * signal for the backend, remembering which of the two fired so the error says `llm_aborted` or
 * `llm_timeout` rather than a vendor's AbortError.
 */
import { FolioError } from "../errors.js";
import { LLM_ERROR_CODES } from "./language-model.js";

export type RequestDeadline = {
  /** Aborts when the caller aborts, the timeout passes, or cancel() is called. */
  readonly signal: AbortSignal;
  /** The error to throw once `signal` has aborted; null while it has not. */
  stoppedError(): FolioError | null;
  /** Ends the request early (the consumer stopped reading); reported as an abort. */
  cancel(): void;
  /** Clears the timer and the listener on the caller's signal. */
  dispose(): void;
};

export function createRequestDeadline(options: { signal?: AbortSignal; timeoutMs: number }): RequestDeadline {
  const controller = new AbortController();
  let stopped: FolioError | null = null;
  const stop = (error: FolioError) => {
    if (stopped) return;
    stopped = error;
    controller.abort(error);
  };
  const abortedError = () =>
    new FolioError(LLM_ERROR_CODES.aborted, "The question was cancelled before the answer ended.");
  const onCallerAbort = () => stop(abortedError());
  const callerSignal = options.signal;
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  const timer = setTimeout(() => {
    stop(
      new FolioError(LLM_ERROR_CODES.timeout, `The language model did not finish within ${options.timeoutMs} ms.`, {
        retryable: true,
        details: { timeoutMs: options.timeoutMs },
      }),
    );
  }, options.timeoutMs);
  // A pending deadline must not keep a CLI process alive on its own.
  timer.unref?.();
  return {
    signal: controller.signal,
    stoppedError: () => stopped,
    cancel: () => stop(abortedError()),
    dispose() {
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    },
  };
}
