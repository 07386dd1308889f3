/**
 * Starts a worker thread from a module next to the caller, whether Folio runs from TypeScript source
 * (tsx, vitest) or from compiled JavaScript. From source the worker must load tsx itself before
 * importing the .ts entry: `--import tsx` in execArgv does not reach a worker's entry module on Node 20.
 */
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

/** `callerUrl` is the caller's import.meta.url; `entry` the worker module's name without extension. */
export function startWorker(callerUrl: string, entry: string, options: WorkerOptions): Worker {
  const runningFromSource = callerUrl.endsWith(".ts");
  const workerFile = new URL(`${entry}${runningFromSource ? ".ts" : ".js"}`, callerUrl);
  if (!runningFromSource) return new Worker(fileURLToPath(workerFile), options);
  // require.resolve yields the CommonJS build; the ESM build sits beside it as index.mjs.
  const tsxApi = pathToFileURL(
    createRequire(callerUrl)
      .resolve("tsx/esm/api")
      .replace(/\.cjs$/, ".mjs"),
  ).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => { api.register(); return import(${JSON.stringify(workerFile.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
