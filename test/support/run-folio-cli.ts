/**
 * Runs the real `folio` command line in a child process, as a user would — through the `bin` entry that
 * `npx folio` and a global install run (bin/folio.js) — and fails the test when it does not exit on its
 * own in time (a finished command must never hang on idle workers).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export type CliRun = { code: number | null; stdout: string; stderr: string };

export function runFolioCli(args: string[], env: NodeJS.ProcessEnv, exitWithinMs = 45_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["bin/folio.js", ...args], {
      cwd: repositoryRoot,
      env,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data: Buffer) => {
      stdout += data.toString();
    });
    child.stderr.on("data", (data: Buffer) => {
      stderr += data.toString();
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`folio ${args.join(" ")} did not exit within ${exitWithinMs} ms; stderr: ${stderr}`));
    }, exitWithinMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The JSON objects of a `--json` run, one per non-empty stdout line. */
export function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
