/**
 * A new user's first run on a machine that reaches neither the Hugging Face hub nor anything else
 * (HF_ENDPOINT points at a closed port), with an empty models folder: keyword-only mode starts from
 * `npm start` and stops cleanly on SIGTERM (exit 0, port free); the default set-up refuses in one line
 * naming the whole model, the ways to get it and how to start without it (each fix the README promises
 * for this case), exit 3, leaving no folder behind; a busy port is reported before storage is touched.
 * Needs no shared data.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkPortAvailable } from "../../src/http/listen-error.js";
import { freePort } from "../support/free-port.js";
import { runFolioCli } from "../support/run-folio-cli.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const EXIT_WITHIN_MS = 60_000;

let scratch: string;
let modelsDir: string;
let dataDir: string;
let unreachableHub: string;

beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "folio-first-run-"));
  modelsDir = path.join(scratch, "models");
  dataDir = path.join(scratch, "data");
  // A port that was free a moment ago and nothing listens on: connections are refused at once.
  unreachableHub = `http://127.0.0.1:${await freePort()}`;
});

afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function environment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FOLIO_MODELS_DIR: modelsDir,
    FOLIO_DATA_DIR: dataDir,
    HF_ENDPOINT: unreachableHub,
    FOLIO_LOG_LEVEL: "info",
    ...extra,
  };
  // The test runner's own choices must not decide what a first run does.
  for (const name of ["FOLIO_OFFLINE", "FOLIO_RERANK_MODEL", "FOLIO_LLM_MODEL", "LLM_BASE_URL", "DATABASE_URL"]) {
    if (!(name in extra)) delete env[name];
  }
  return env;
}

describe("first run without the hub", () => {
  it(
    "keyword-only: npm start serves with no model files, and SIGTERM to npm stops it with exit 0 and frees the port",
    async () => {
      const port = await freePort();
      const npm = spawn("npm", ["start"], {
        cwd: repositoryRoot,
        env: environment({ FOLIO_EMBED_MODEL: "none", PORT: String(port) }),
      });
      let stdout = "";
      let stderr = "";
      npm.stderr.on("data", (data: Buffer) => {
        stderr += data.toString();
      });
      const exited = new Promise<number | null>((resolve) => npm.on("exit", (code) => resolve(code)));
      const serving = new Promise<void>((resolve, reject) => {
        npm.stdout.on("data", (data: Buffer) => {
          stdout += data.toString();
          if (stdout.includes("Folio console:")) resolve();
        });
        void exited.then((code) => reject(new Error(`npm start exited with ${code} before serving: ${stderr}`)));
      });
      try {
        await serving;
        const health = await fetch(`http://127.0.0.1:${port}/healthz`);
        expect(health.status).toBe(200);
        npm.kill("SIGTERM");
        expect(await exited).toBe(0);
        // Nothing keeps listening: the port can be had again at once.
        await expect(checkPortAvailable(port, "0.0.0.0")).resolves.toBeUndefined();
        expect(stderr).toContain('"msg":"shutting down"');
        // Keyword-only needs no model: nothing was fetched or made in the models folder.
        expect(existsSync(modelsDir)).toBe(false);
      } finally {
        if (npm.exitCode === null) npm.kill("SIGKILL");
      }
    },
    EXIT_WITHIN_MS * 2,
  );

  it(
    "default set-up: one line naming the whole model, the ways to get it and how to start without it, exit 3, no folder left",
    async () => {
      const run = await runFolioCli(["serve"], environment({ PORT: String(await freePort()) }), EXIT_WITHIN_MS);
      expect(run.code).toBe(3);
      const folioLines = run.stderr.split("\n").filter((line) => line.startsWith("folio:"));
      expect(folioLines).toEqual([
        `folio: Model bge-small-en-v1.5 (the embedder: 5 files, 34.7 MB) is not in ${path.join(modelsDir, "bge-small-en-v1.5")}, and the hub at ${unreachableHub} cannot be reached (fetch failed (ECONNREFUSED)). Get it: let this machine reach ${unreachableHub} and start again; set HF_ENDPOINT to a mirror of the hub; run \`folio models pull embedder\` on a machine that reaches the hub, then copy its bge-small-en-v1.5 folder into ${modelsDir}; or set FOLIO_MODELS_DIR to a folder that already holds a bge-small-en-v1.5 folder. Or start without it, keyword search only: FOLIO_EMBED_MODEL=none. [model_missing]`,
      ]);
      expect(run.stderr).not.toMatch(/^\s+at /m);
      // What the README's quick start promises this line offers, it offers.
      const readme = await readFile(path.join(repositoryRoot, "README.md"), "utf8");
      const quickStart = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("## What it does"));
      for (const fix of [
        "FOLIO_EMBED_MODEL=none",
        "FOLIO_MODELS_DIR",
        "folio models pull",
        "models/bge-small-en-v1.5",
      ]) {
        expect(quickStart).toContain(fix);
        expect(folioLines[0]).toContain(
          fix === "models/bge-small-en-v1.5" ? path.join("models", "bge-small-en-v1.5") : fix,
        );
      }
      // The models folder did not exist before: it is gone again, so a copied folder lands in the right place.
      expect(existsSync(modelsDir)).toBe(false);
    },
    EXIT_WITHIN_MS + 5_000,
  );

  it(
    "a busy port is reported first: before storage is migrated or a model is looked for",
    async () => {
      const port = await freePort();
      const blocker: Server = createServer();
      await new Promise<void>((resolve) => blocker.listen(port, "0.0.0.0", resolve));
      try {
        const run = await runFolioCli(["serve"], environment({ PORT: String(port) }), EXIT_WITHIN_MS);
        expect(run.code).toBe(3);
        expect(run.stderr).toBe(
          `folio: port ${port} is in use — set PORT to a free port (or stop the other program, perhaps another folio serve) [port_in_use]\n`,
        );
        expect(existsSync(dataDir) ? await readdir(dataDir) : []).toEqual([]);
        expect(existsSync(modelsDir)).toBe(false);
      } finally {
        await new Promise<void>((resolve) => blocker.close(() => resolve()));
      }
    },
    EXIT_WITHIN_MS + 5_000,
  );
});
