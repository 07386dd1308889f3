/**
 * `npx folio` right after `npm ci`: package.json's `bin` names a file that is in the repository (no build
 * step), and npx runs it from the checkout.
 */
import { spawn } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

function run(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repositoryRoot, env: { ...process.env, npm_config_yes: "false" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data: Buffer) => {
      stdout += data.toString();
    });
    child.stderr.on("data", (data: Buffer) => {
      stderr += data.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the folio bin", () => {
  it("is a file in the checkout, executable, started by node", async () => {
    const manifest = JSON.parse(await readFile(path.join(repositoryRoot, "package.json"), "utf8")) as {
      bin: Record<string, string>;
    };
    expect(manifest.bin).toEqual({ folio: "bin/folio.js" });
    const entry = path.join(repositoryRoot, "bin", "folio.js");
    expect((await stat(entry)).mode & 0o111).not.toBe(0);
    expect((await readFile(entry, "utf8")).split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  it("answers `npx folio --help` with the usage and exit 0", async () => {
    const result = await run("npx", ["--no-install", "folio", "--help"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")[0]).toBe(
      "folio — answers questions from your documents, with page-linked citations",
    );
    expect(result.stdout).toContain("folio ask");
  });

  it("exits 2 with the one-line usage error for an unknown command", async () => {
    const result = await run(process.execPath, ["bin/folio.js", "summon"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'folio: unknown command "summon"; commands are ingest, ask, search, answers, eval, reindex, serve, models, questionnaire (see folio --help)\n',
    );
  });
});
