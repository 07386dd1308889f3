/**
 * Readiness: whether each dependency Folio needs to answer (catalog, vector store, embedder, language
 * model) answers right now. Every check runs in parallel under a time limit; the report names each
 * dependency with its state and, when down, what failed — the body of GET /readyz.
 */
import { toFolioError } from "../errors.js";

export type DependencyName = "catalog" | "vectorStore" | "embedder" | "languageModel";

export type ReadinessCheck = {
  name: DependencyName;
  /** Resolves (optionally with a short description of what answered) when the dependency is usable. */
  check(signal: AbortSignal): Promise<string | undefined>;
};

export type DependencyState =
  | { status: "up"; latencyMs: number; detail?: string }
  | { status: "down"; latencyMs: number; error: { code: string; message: string } }
  /** Not configured (no LLM: answers are extractive); never makes Folio unready. */
  | { status: "off"; detail: string };

export type ReadinessReport = {
  ready: boolean;
  dependencies: Partial<Record<DependencyName, DependencyState>>;
};

export const DEFAULT_CHECK_TIMEOUT_MS = 5_000;

export function createReadinessProbe(options: {
  checks: ReadinessCheck[];
  /** Dependencies deliberately absent, with why; reported as "off". */
  off?: Partial<Record<DependencyName, string>>;
  timeoutMs?: number;
}): () => Promise<ReadinessReport> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  return async () => {
    const states = await Promise.all(
      options.checks.map(async (check) => [check.name, await runCheck(check, timeoutMs)] as const),
    );
    const dependencies: ReadinessReport["dependencies"] = {};
    for (const [name, state] of states) dependencies[name] = state;
    for (const [name, detail] of Object.entries(options.off ?? {}) as Array<[DependencyName, string]>) {
      dependencies[name] = { status: "off", detail };
    }
    return { ready: states.every(([, state]) => state.status === "up"), dependencies };
  };
}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<DependencyState> {
  const started = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(
        Object.assign(new Error(`no answer within ${timeoutMs} ms`), {
          code: "readiness_timeout",
        }),
      );
    }, timeoutMs);
  });
  const latencyMs = () => Math.round(performance.now() - started);
  try {
    const detail = await Promise.race([check.check(controller.signal), timedOut]);
    return detail === undefined
      ? { status: "up", latencyMs: latencyMs() }
      : { status: "up", latencyMs: latencyMs(), detail };
  } catch (error) {
    const code =
      typeof (error as { code?: unknown }).code === "string"
        ? (error as { code: string }).code
        : toFolioError(error).code;
    const message = error instanceof Error ? error.message : String(error);
    return { status: "down", latencyMs: latencyMs(), error: { code, message } };
  } finally {
    clearTimeout(timer);
  }
}
