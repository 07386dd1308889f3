/**
 * The request a piece of work belongs to, carried through async calls (AsyncLocalStorage) so that
 * every log line written while serving a request names it — including lines from code that was
 * handed a logger without the request's id (Bolt's listeners, the stores).
 */
import { AsyncLocalStorage } from "node:async_hooks";

export type RequestContext = { requestId: string };

const storage = new AsyncLocalStorage<RequestContext>();

export function runInRequestContext<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

/** The request being served by the current async call chain, or undefined outside one. */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
