/**
 * A real `folio serve` in a child process, as an orchestrator runs it, for tests that kill it, restart
 * it or run two side by side. Output (stdout and stderr) is kept for assertions on log lines.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { waitFor } from "./wait-for.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export type FolioProcess = {
  child: ChildProcess;
  url: string;
  output(): string;
  /** SIGKILL, and wait until the process is gone. */
  kill(): Promise<void>;
};

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/** Starts `folio serve` with `environment` on a free port and waits until /readyz answers 200. */
export async function startFolioServe(environment: Record<string, string>, readyWithinMs = 90_000) {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "serve"], {
    cwd: repositoryRoot,
    env: { ...process.env, FOLIO_OFFLINE: "1", FOLIO_LOG_LEVEL: "info", PORT: String(port), ...environment },
  });
  let output = "";
  child.stdout?.on("data", (data: Buffer) => {
    output += data.toString();
  });
  child.stderr?.on("data", (data: Buffer) => {
    output += data.toString();
  });
  const served: FolioProcess = {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
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
