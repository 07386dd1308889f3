/**
 * A real `folio serve` in a child process, as an orchestrator runs it, for tests (and benchmarks) that
 * signal it, kill it, restart it or run two side by side. Its output is kept for assertions on log lines.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./free-port.js";
import { waitFor } from "./wait-for.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export type FolioProcess = {
  child: ChildProcess;
  url: string;
  /** stdout and stderr together, in the order they arrived. */
  output(): string;
  /** stderr alone: the JSON log lines, whole. */
  stderr(): string;
  /** Resolves when the process exits, with its exit code or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL, and wait until the process is gone. */
  kill(): Promise<void>;
};

/**
 * Starts `folio serve` on a free port and waits until /readyz answers 200. Its environment is this
 * process's, with FOLIO_OFFLINE=1 and FOLIO_LOG_LEVEL=info, then `environment` on top; a variable
 * given as undefined there is left out. `root`: another checkout to run (a benchmark's "before").
 */
export async function startFolioServe(
  environment: Record<string, string | undefined>,
  readyWithinMs = 90_000,
  root = repositoryRoot,
): Promise<FolioProcess> {
  const port = await freePort();
  const merged = { ...process.env, FOLIO_OFFLINE: "1", FOLIO_LOG_LEVEL: "info", PORT: String(port), ...environment };
  const env = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "serve"], { cwd: root, env });
  let output = "";
  let stderr = "";
  child.stdout?.on("data", (data: Buffer) => {
    output += data.toString();
  });
  child.stderr?.on("data", (data: Buffer) => {
    output += data.toString();
    stderr += data.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const served: FolioProcess = {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    stderr: () => stderr,
    exited,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`folio serve exited early: ${output}`);
        return (await fetch(`${served.url}/readyz`).catch(() => null))?.status === 200;
      },
      readyWithinMs,
      "folio serve to be ready",
    );
  } catch (error) {
    await served.kill();
    throw error;
  }
  return served;
}
