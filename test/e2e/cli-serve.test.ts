/**
 * `folio serve` beside the other commands, as a user runs them (real child processes, a temporary
 * embedded data directory): a busy port is one line naming PORT and exit 3; while a server holds
 * the embedded store, `folio ingest|search|ask` work through its local API instead of refusing; the
 * server's address file is private to its user and gone once it stops.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readServerAddress, serverAddressPath } from "../../src/cli/server-address-file.js";
import { freePort } from "../support/free-port.js";
import { type CliRun, jsonLines, runFolioCli } from "../support/run-folio-cli.js";
import { hasSharedData, sharedModelsDir } from "../support/shared-paths.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const EXIT_WITHIN_MS = 60_000;
const NOTE = "Clubhouse hours: the rooftop sauna opens at 7am and closes at 9pm on weekdays.";

if (!hasSharedData) console.warn("cli-serve: skipped — no shared models (../shared) for folio serve.");

/** Starts `folio serve` and resolves once it prints its console address. */
function startServe(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcessWithoutNullStreams; stderr: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "serve"], {
      cwd: repositoryRoot,
      env,
    });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`folio serve did not start in time; stderr: ${stderr}`));
    }, EXIT_WITHIN_MS);
    child.stderr.on("data", (data: Buffer) => {
      stderr += data.toString();
    });
    child.stdout.on("data", (data: Buffer) => {
      stdout += data.toString();
      if (stdout.includes("Folio console:")) {
        clearTimeout(timer);
        resolve({ child, stderr: () => stderr });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`folio serve exited with ${code} before serving; stderr: ${stderr}`));
    });
  });
}

describe.skipIf(!hasSharedData)("folio serve and the other commands", () => {
  let dataDir: string;
  let scratchDir: string;

  const environment = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    ...process.env,
    FOLIO_DATA_DIR: dataDir,
    FOLIO_MODELS_DIR: sharedModelsDir,
    FOLIO_LOG_LEVEL: "warn",
    ...extra,
  });
  const runFolio = (args: string[], extra: Record<string, string> = {}): Promise<CliRun> =>
    runFolioCli(args, environment(extra), EXIT_WITHIN_MS);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "folio-cli-serve-data-"));
    scratchDir = await mkdtemp(path.join(tmpdir(), "folio-cli-serve-files-"));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await rm(`${dataDir}.lock`, { force: true });
    await rm(scratchDir, { recursive: true, force: true });
  });

  it(
    "says which port is in use and to set PORT, in one line, and exits 3",
    async () => {
      const blocker: Server = createServer();
      const port = await freePort();
      await new Promise<void>((resolve) => blocker.listen(port, "0.0.0.0", resolve));
      try {
        const run = await runFolio(["serve"], { PORT: String(port), FOLIO_LOG_LEVEL: "info" });
        expect(run.code).toBe(3);
        const folioLines = run.stderr.split("\n").filter((line) => line.startsWith("folio:"));
        expect(folioLines).toEqual([
          `folio: port ${port} is in use — set PORT to a free port (or stop the other program, perhaps another folio serve) [port_in_use]`,
        ]);
        // Exits cleanly: no error-level log lines (pino level 50) and no stack.
        expect(run.stderr).not.toContain('"level":50');
        expect(run.stderr).not.toMatch(/^\s+at /m);
        expect(await readServerAddress(dataDir)).toBeNull();
      } finally {
        await new Promise<void>((resolve) => blocker.close(() => resolve()));
      }
    },
    EXIT_WITHIN_MS + 5_000,
  );

  it(
    "ingests, searches and answers through a running folio serve that holds the store",
    async () => {
      const note = path.join(scratchDir, "clubhouse.txt");
      await writeFile(note, NOTE);
      const port = await freePort();
      const serve = await startServe(environment({ PORT: String(port) }));
      try {
        const address = await readServerAddress(dataDir);
        expect(address).toMatchObject({ url: `http://127.0.0.1:${port}`, pid: serve.child.pid });
        expect((await stat(serverAddressPath(dataDir))).mode & 0o777).toBe(0o600);

        // The local API answers only the holder of the token in the (0600) address file.
        for (const authorization of [undefined, "Bearer not-the-token"]) {
          const refused = await fetch(`${address?.url}/api/local/search`, {
            method: "POST",
            headers: authorization ? { Authorization: authorization } : {},
            body: JSON.stringify({ query: "sauna", space: "club" }),
          });
          expect(refused.status).toBe(403);
          expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("local_api_refused");
        }

        const ingest = await runFolio(["ingest", note, "--space", "club", "--json"]);
        expect(ingest.stderr).toContain(`working through the running folio serve, pid ${serve.child.pid}`);
        expect(ingest.code).toBe(0);
        const [result, summary] = jsonLines(ingest.stdout);
        expect(result).toMatchObject({ file: note, status: "ingested", pages: null, chunks: 1 });
        expect(summary).toMatchObject({ summary: { files: 1, ingested: 1, rejected: 0, chunks: 1 } });

        const human = await runFolio(["ingest", note, "--space", "club"]);
        expect(human.code).toBe(0);
        expect(human.stdout).toContain("1 file: 0 ingested, 1 unchanged, 0 rejected — 1 passage in ");

        const search = await runFolio(["search", "rooftop sauna hours", "--space", "club", "--json"]);
        expect(search.code).toBe(0);
        const { results } = jsonLines(search.stdout)[0] as { results: Array<Record<string, unknown>> };
        expect(results).toHaveLength(1);
        expect(results[0]).toMatchObject({ file: "clubhouse.txt", text: NOTE, documentId: result?.documentId });

        const ask = await runFolio(["ask", "When does the rooftop sauna open?", "--space", "club", "--json"]);
        expect(ask.code).toBe(0);
        const answer = jsonLines(ask.stdout)[0] as { answer: string; noContext: boolean; citations: unknown[] };
        expect(answer.noContext).toBe(false);
        expect(answer.answer).toContain("7am");
        expect(answer.citations).toHaveLength(1);
      } finally {
        serve.child.kill("SIGTERM");
        await new Promise((resolve) => serve.child.once("exit", resolve));
      }
      expect(serve.stderr()).not.toContain('"level":50');
      expect(await readServerAddress(dataDir, { checkProcess: false })).toBeNull();
    },
    4 * EXIT_WITHIN_MS,
  );
});
