/**
 * The token counter with the real bge-small-en-v1.5 tokenizer from the shared models folder: exact
 * counts with [CLS] and [SEP], no silent truncation at the model's 512, and the additivity over
 * whitespace that the chunker's packing relies on.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadTokenCounter } from "../../ingestion/token-counter.js";
import { sharedModel } from "../support/shared-paths.js";

const tokenizerDirectory = sharedModel("bge-small-en-v1.5");
const hasTokenizer = existsSync(path.join(tokenizerDirectory, "tokenizer.json"));

describe.skipIf(!hasTokenizer)("loadTokenCounter with bge-small-en-v1.5", () => {
  const emptyDirectory = mkdtempSync(path.join(os.tmpdir(), "folio-no-tokenizer-"));
  afterAll(() => rmSync(emptyDirectory, { recursive: true, force: true }));

  it.each([
    ["", 2],
    ["hello world", 4],
    ["Hello, World!", 6],
    ["unaffable", 5],
    ["The quick brown fox jumps over the lazy dog.", 12],
    ["Résumé naïve café", 5],
  ])("counts %j as %i tokens, special tokens included", async (text, expected) => {
    const counter = await loadTokenCounter(tokenizerDirectory);
    expect(counter.count(text)).toBe(expected);
  });

  it("does not truncate long text at the model's 512-token limit", async () => {
    const counter = await loadTokenCounter(tokenizerDirectory);
    expect(counter.count("word ".repeat(3000))).toBe(3002);
  });

  it("adds up over whitespace-separated pieces, as the chunker assumes", async () => {
    const counter = await loadTokenCounter(tokenizerDirectory);
    const pieces = [
      "Organizations should establish logging standards,",
      "procedures (e.g., NIST SP 800-92) and",
      "review the data regularly—at least weekly.",
      "naïve “quoted” co-operation 3.14159",
    ];
    const separate = pieces.reduce((sum, piece) => sum + counter.count(piece) - 2, 0);
    expect(counter.count(pieces.join(" \n"))).toBe(separate + 2);
  });

  it("loads each directory once and reuses the counter", async () => {
    const first = loadTokenCounter(tokenizerDirectory);
    const second = loadTokenCounter(`${tokenizerDirectory}${path.sep}`);
    expect(second).toBe(first);
  });

  it("fails with tokenizer_missing for a directory without tokenizer files", async () => {
    await expect(loadTokenCounter(emptyDirectory)).rejects.toMatchObject({ code: "tokenizer_missing" });
  });
});
