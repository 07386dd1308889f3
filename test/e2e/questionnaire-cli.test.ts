/**
 * `folio questionnaire fill` as a user runs it, keyword search and extractive answers: on its own
 * store, then through a running `folio serve` (its local API). The filled CSV keeps each original line
 * and adds the answer fields; a Word questionnaire comes back as Word with the answers in its table; a
 * file that is no questionnaire fails with its reason and exit 1, an --out of another format with exit 2.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parse as parseCsvText } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readQuestionnaireGrid } from "../../src/questionnaire/read/read-questionnaire-grid.js";
import { type FolioProcess, startFolioServe } from "../support/ops-folio-process.js";
import { docxWithTable } from "../support/questionnaire-files.js";
import { jsonLines, runFolioCli } from "../support/run-folio-cli.js";
import { hasSharedData, sharedModel } from "../support/shared-paths.js";

if (!hasSharedData) console.warn("questionnaire-cli: skipped — no shared data (../shared) for the tokenizer.");

const POLICY = `# Security policy

## Backups
Backups are taken every night and kept for 35 days. Backup media are encrypted with AES-256.

## Access reviews
Administrator access is reviewed every quarter by the security team.
`;

const QUESTIONNAIRE = `Section,Question
Backups,How long are backups kept?
Backups,Are backup media encrypted?
Access,How often is administrator access reviewed?
Facilities,How many parking spaces does the office have for visitors?
`;

describe.skipIf(!hasSharedData)("folio questionnaire fill", () => {
  let directory: string;
  let server: FolioProcess | null = null;
  const environment = () => ({
    ...process.env,
    FOLIO_DATA_DIR: path.join(directory, "data"),
    FOLIO_MODELS_DIR: path.dirname(sharedModel("bge-small-en-v1.5")),
    FOLIO_EMBED_MODEL: "none",
    FOLIO_OFFLINE: "1",
    FOLIO_LOG_LEVEL: "warn",
  });

  beforeAll(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), "folio-questionnaire-cli-"));
    await writeFile(path.join(directory, "policy.md"), POLICY);
    await writeFile(path.join(directory, "review.csv"), QUESTIONNAIRE);
  });
  afterAll(async () => {
    await server?.kill();
    await rm(directory, { recursive: true, force: true });
  });

  const checkFilled = async (out: string) => {
    const text = await readFile(out, "utf8");
    const lines = text.split("\n");
    const originalLines = QUESTIONNAIRE.split("\n");
    for (const [index, line] of originalLines.entries()) expect(lines[index]?.startsWith(line)).toBe(true);
    const rows = parseCsvText(text, { relax_column_count: true }) as string[][];
    expect(rows[0]).toEqual(
      ["Section", "Question", "Answer", "Status", "Sources", "Quote", "Source 2"].slice(0, rows[0]?.length),
    );
    expect(rows[1]?.[3]).toBe("answered");
    expect(rows[1]?.[2]).toMatch(/35 days/);
    expect(rows[1]?.[4]).toMatch(/^\[1\] .*policy\.md/);
    expect(rows[4]?.[3]).toBe("not found in the documents");
    expect(rows[4]?.[2]).toBe("");
  };

  it("fills a CSV questionnaire on its own store, and refuses a file that is none", async () => {
    const ingest = await runFolioCli(
      ["ingest", path.join(directory, "policy.md"), "--space", "s1"],
      environment(),
      180_000,
    );
    expect(ingest.code).toBe(0);
    const out = path.join(directory, "filled.csv");
    const fill = await runFolioCli(
      ["questionnaire", "fill", path.join(directory, "review.csv"), "--space", "s1", "--out", out, "--json"],
      environment(),
      180_000,
    );
    expect(fill.stderr).toBe("");
    expect(fill.code).toBe(0);
    expect(jsonLines(fill.stdout)).toEqual([
      expect.objectContaining({ out, status: "succeeded", questions: 4, errors: 0, pending: 0 }),
    ]);
    const [summary] = jsonLines(fill.stdout);
    expect(Number(summary?.answered) + Number(summary?.notFound) + Number(summary?.needsReview)).toBe(4);
    await checkFilled(out);

    const refused = await runFolioCli(
      ["questionnaire", "fill", path.join(directory, "policy.md"), "--space", "s1"],
      environment(),
      180_000,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /not a questionnaire Folio can fill — upload an Excel workbook .*\[questionnaire_unsupported_type\]/,
    );
  }, 600_000);

  it("--dry-run prints the sheet, header row, question column and first questions, and answers nothing", async () => {
    const titled = path.join(directory, "titled.csv");
    await writeFile(
      titled,
      [
        "Vendor security and policy review — please answer every question",
        "",
        "ID,Question,Response options,Reviewer notes",
        "Backups",
        "Q1,How long are backups kept?,,",
        "Q2,Are backup media encrypted?,Yes | No,",
        "Q3,Encryption,,",
        "Access",
        "Q4,How often is administrator access reviewed?,,",
        "",
      ].join("\n"),
    );
    const dry = await runFolioCli(
      ["questionnaire", "fill", titled, "--space", "s1", "--dry-run"],
      environment(),
      180_000,
    );
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(
      [
        "titled.csv: 3 questions found; 3 rows skipped (not questions)",
        '  sheet "titled": header row 3, question column B ("Question"), 3 questions',
        "    1. How long are backups kept?",
        "    2. Are backup media encrypted?",
        "    3. How often is administrator access reviewed?",
        "    not asked: 2 section names, 1 single word",
        "Another column: --column C (a letter, a number or its header); another sheet: --sheet N.",
        "",
      ].join("\n"),
    );
    const json = await runFolioCli(
      ["questionnaire", "fill", titled, "--space", "s1", "--dry-run", "--json"],
      environment(),
      180_000,
    );
    expect(json.code).toBe(0);
    expect(jsonLines(json.stdout)).toEqual([
      expect.objectContaining({
        fileName: "titled.csv",
        format: "csv",
        questions: 3,
        skipped: 3,
        sheets: [
          expect.objectContaining({
            headerRow: 3,
            questionColumn: "B",
            questionHeader: "Question",
            questions: 3,
            skipped: { section: 2, single_word: 1 },
          }),
        ],
      }),
    ]);
    const empty = await runFolioCli(
      ["questionnaire", "fill", titled, "--space", "s1", "--dry-run", "--column", "D"],
      environment(),
      180_000,
    );
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('Column "D" holds no question text — name another one with --column.');
    // Nothing was written beside the questionnaire.
    expect(existsSync(path.join(directory, "titled (filled).csv"))).toBe(false);
  }, 600_000);

  it("works through a running folio serve", async () => {
    server = await startFolioServe(environment());
    const out = path.join(directory, "through-server.csv");
    const fill = await runFolioCli(
      ["questionnaire", "fill", path.join(directory, "review.csv"), "--space", "s1", "--out", out],
      environment(),
      180_000,
    );
    expect(fill.code).toBe(0);
    expect(fill.stderr).toContain("working through the running folio serve");
    expect(fill.stdout).toMatch(/^Filled copy: .*through-server\.csv\n\d+ answered · \d+ not found in the documents/);
    await checkFilled(out);
  }, 600_000);

  it("fills a Word questionnaire into a Word copy, and refuses an --out named for another format", async () => {
    const review = path.join(directory, "review.docx");
    await writeFile(
      review,
      docxWithTable([
        ["Section", "Question"],
        ["Backups", "How long are backups kept?"],
        ["Facilities", "How many parking spaces does the office have for visitors?"],
      ]),
    );
    const ingest = await runFolioCli(
      ["ingest", path.join(directory, "policy.md"), "--space", "word"],
      environment(),
      180_000,
    );
    expect(ingest.code).toBe(0);
    const wrong = await runFolioCli(
      ["questionnaire", "fill", review, "--space", "word", "--out", path.join(directory, "review-filled.xlsx")],
      environment(),
      180_000,
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      /the filled copy of review\.docx is a Word document \(\.docx\), but --out names review-filled\.xlsx — give --out a \.docx name/,
    );
    const out = path.join(directory, "review-filled.docx");
    const fill = await runFolioCli(
      ["questionnaire", "fill", review, "--space", "word", "--out", out, "--json"],
      environment(),
      180_000,
    );
    expect(fill.code).toBe(0);
    expect(jsonLines(fill.stdout)).toEqual([
      expect.objectContaining({ out, status: "succeeded", questions: 2, errors: 0, pending: 0 }),
    ]);
    const grid = await readQuestionnaireGrid(new Uint8Array(await readFile(out)), "review-filled.docx");
    expect(grid.format).toBe("docx");
    const rows = grid.sheets[0]?.rows ?? [];
    expect(rows[0]?.cells).toEqual(["Section", "Question", "Answer", "Status", "Sources", "Quote"]);
    expect(rows[1]?.cells.slice(0, 2)).toEqual(["Backups", "How long are backups kept?"]);
    expect(rows[1]?.cells[2]).toMatch(/35 days/);
    expect(rows[1]?.cells[3]).toBe("answered");
    expect(rows[1]?.cells[4]).toMatch(/^\[1\] .*policy\.md/);
    expect(rows[2]?.cells.slice(0, 4)).toEqual([
      "Facilities",
      "How many parking spaces does the office have for visitors?",
      "",
      "not found in the documents",
    ]);
  }, 600_000);
});
