/**
 * `folio ingest` against a fake command backend: a server that starts shutting down part-way through a
 * batch yields one error saying what was done, not a success line followed by a refusal.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CliOptions } from "../../src/cli/cli-options.js";
import type { CommandBackend } from "../../src/cli/command-backend.js";
import { runIngestCommand } from "../../src/cli/commands/ingest-command.js";
import { FolioError } from "../../src/errors.js";

const options: CliOptions = {
  space: "club",
  spaceGiven: true,
  json: true,
  k: 10,
  mode: "default",
  dataset: undefined,
  docs: undefined,
  split: "test",
  store: undefined,
  runOut: undefined,
  generator: undefined,
  limit: undefined,
  keepBoth: false,
};

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "folio-ingest-command-"));
  await writeFile(path.join(folder, "a.txt"), "The rooftop sauna opens at 7am.");
  await writeFile(path.join(folder, "b.txt"), "The pool closes at 9pm.");
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(folder, { recursive: true, force: true });
});

function backendRefusingAfter(ingestedFiles: number): CommandBackend {
  let calls = 0;
  const refusal = new FolioError(
    "shutting_down",
    "The running folio serve refused the command: This Folio server is shutting down; try again in a few seconds.",
  );
  return {
    async ingestFile({ fileName, spaceId }) {
      calls += 1;
      if (calls > ingestedFiles) throw refusal;
      return { file: fileName, documentId: `doc-${calls}`, spaceId, status: "ingested", pages: null, chunks: 1 };
    },
    async finishIngest() {
      throw refusal;
    },
    search: async () => [],
    answerQuestion: async function* () {},
  };
}

describe("runIngestCommand while the server shuts down", () => {
  it("reports how many files got in and that the batch is unfinished, instead of a summary", async () => {
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const error = await runIngestCommand(backendRefusingAfter(1), [folder], options).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FolioError);
    expect((error as FolioError).code).toBe("shutting_down");
    expect((error as FolioError).message).toBe(
      "folio serve stopped taking work part-way: 1 of 2 files ingested but the batch is not finished (keyword search may miss them) — run the same command again once folio serve is back; files already in are skipped as unchanged.",
    );
    // One result line (the file that got in), and no summary line claiming the batch.
    const printed = stdout.mock.calls.map(([text]) => String(text));
    expect(printed).toHaveLength(1);
    expect(JSON.parse(printed[0] ?? "")).toMatchObject({ status: "ingested", documentId: "doc-1" });
  });
});

describe("runIngestCommand and files named like earlier ones", () => {
  it("asks to replace by default and to keep both with --keep-both, and says what it replaced", async () => {
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const asked: string[] = [];
    const backend: CommandBackend = {
      async ingestFile({ fileName, sameName }) {
        asked.push(`${fileName}:${sameName}`);
        return {
          file: fileName,
          documentId: "doc-2",
          status: "ingested",
          pages: null,
          chunks: 1,
          ...(sameName === "replace"
            ? { replaced: [{ documentId: "doc-1", title: "A", createdAt: "2026-11-20T08:00:00.000Z" }] }
            : {}),
        };
      },
      finishIngest: async () => {},
      search: async () => [],
      answerQuestion: async function* () {},
    };
    const file = path.join(folder, "a.txt");
    await runIngestCommand(backend, [file], { ...options, json: false });
    await runIngestCommand(backend, [file], { ...options, json: false, keepBoth: true });
    expect(asked).toEqual(["a.txt:replace", "a.txt:keep-both"]);
    const lines = stdout.mock.calls.map(([text]) => String(text)).filter((text) => text.startsWith("ingested"));
    expect(lines).toEqual([
      `ingested  ${file} — 1 passage — Replaced the earlier version (uploaded 2026-11-20): links in earlier answers now say so and open this one.\n`,
      `ingested  ${file} — 1 passage\n`,
    ]);
  });
});

describe("runIngestCommand's summary", () => {
  const backend: CommandBackend = {
    async ingestFile({ fileName }) {
      const pages = fileName.endsWith(".pdf") ? 12 : null;
      return { file: fileName, documentId: `doc-${fileName}`, status: "ingested", pages, chunks: 3 };
    },
    finishIngest: async () => {},
    search: async () => [],
    answerQuestion: async function* () {},
  };
  const summaryLine = (stdout: { mock: { calls: unknown[][] } }) =>
    stdout.mock.calls
      .map(([text]) => String(text))
      .find((text) => text.startsWith("\n2 files") || text.startsWith("\n3 files"));

  it("counts files and passages, and no pages when no file has any (a folder of Markdown is not '0 pages')", async () => {
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    await runIngestCommand(backend, [folder], { ...options, json: false });
    expect(summaryLine(stdout)).toMatch(/^\n2 files: 2 ingested, 0 unchanged, 0 rejected — 6 passages in [\d.]+ s\n$/);
  });

  it("counts the pages of the files that have them, and says how many those are", async () => {
    await writeFile(path.join(folder, "c.pdf"), "%PDF-1.4 (the fake backend never reads it)");
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    await runIngestCommand(backend, [folder], { ...options, json: false });
    expect(summaryLine(stdout)).toMatch(
      /^\n3 files: 3 ingested, 0 unchanged, 0 rejected — 12 pages in 1 PDF, 9 passages in [\d.]+ s\n$/,
    );
  });
});
