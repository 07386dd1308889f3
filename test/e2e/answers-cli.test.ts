/**
 * `folio answers add|list|remove` as a user runs them: real child processes on a temporary embedded
 * data directory, keyword-only (FOLIO_EMBED_MODEL=none, so approved answers match strictly lexically),
 * and `folio ask` leading with the approved answer that matches, labelled with its origin.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, jsonLines, runFolioCli } from "../support/run-folio-cli.js";
import { sharedModelsDir } from "../support/shared-paths.js";

let dataDir: string;
let scratchDir: string;

function runFolio(args: string[]): Promise<CliRun> {
  return runFolioCli(
    args,
    {
      ...process.env,
      FOLIO_DATA_DIR: dataDir,
      FOLIO_MODELS_DIR: sharedModelsDir,
      FOLIO_EMBED_MODEL: "none",
      FOLIO_OFFLINE: "1",
    },
    90_000,
  );
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "folio-answers-data-"));
  scratchDir = await mkdtemp(path.join(tmpdir(), "folio-answers-files-"));
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
  await rm(scratchDir, { recursive: true, force: true });
});

describe("folio answers", () => {
  it("adds a completed questionnaire, lists it with origins, leads answers with it, and removes one", async () => {
    const questionnaire = path.join(scratchDir, "security-review.csv");
    await writeFile(
      questionnaire,
      [
        "Ref,Requirement,Vendor response",
        "1,Encryption,",
        '1.1,"Do you encrypt customer data at rest?","Yes, AES-256 on every volume."',
        "1.2,Do you encrypt customer data in transit?,TLS 1.2 or later everywhere.",
        "2.1,Do you run background checks on employees?,",
      ].join("\n"),
    );
    const policy = path.join(scratchDir, "policy.md");
    await writeFile(
      policy,
      "# Security policy\n\nCustomer data at rest is encrypted with AES-256 on every storage volume.\n",
    );

    const added = await runFolio([
      "answers",
      "add",
      questionnaire,
      "--space",
      "console:review",
      "--answer-column",
      "C",
      "--json",
    ]);
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(jsonLines(added.stdout)).toEqual([
      {
        file: "security-review.csv",
        spaceId: "console:review",
        added: 2,
        replaced: 0,
        questionColumn: "Requirement",
        answerColumn: "Vendor response",
        sheets: [],
        skippedRows: 2,
      },
    ]);

    const listed = await runFolio(["answers", "list", "--space", "console:review", "--json"]);
    expect(listed.code).toBe(0);
    const records = jsonLines(listed.stdout);
    expect(records.map((record) => [record.question, record.answer, record.file, record.row, record.sheet])).toEqual([
      ["Do you encrypt customer data at rest?", "Yes, AES-256 on every volume.", "security-review.csv", 3, null],
      ["Do you encrypt customer data in transit?", "TLS 1.2 or later everywhere.", "security-review.csv", 4, null],
    ]);
    expect(String(records[0]?.addedBy)).toMatch(/^cli/);

    expect((await runFolio(["ingest", policy, "--space", "console:review", "--json"])).code).toBe(0);
    const asked = await runFolio([
      "ask",
      "Do you encrypt the customer data at rest?",
      "--space",
      "console:review",
      "--json",
    ]);
    expect(asked.code).toBe(0);
    const [answer] = jsonLines(asked.stdout);
    expect(String(answer?.answer)).toMatch(
      /^Approved answer: Yes, AES-256 on every volume\.\n\(from security-review\.csv, row 3; added by cli[^)]* on \d{4}-\d{2}-\d{2}\)\n\nFrom the documents: /,
    );
    expect(answer?.approvedAnswer).toMatchObject({
      answer: "Yes, AES-256 on every volume.",
      spaceId: "console:review",
    });
    expect(((answer?.citations ?? []) as Array<{ file: string }>).map((citation) => citation.file)).toContain(
      "policy.md",
    );

    const nearMiss = await runFolio([
      "ask",
      "Do you not encrypt customer data at rest?",
      "--space",
      "console:review",
      "--json",
    ]);
    expect(jsonLines(nearMiss.stdout)[0]?.approvedAnswer).toBeUndefined();

    const removed = await runFolio(["answers", "remove", String(records[0]?.id), "--space", "console:review"]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toBe(`Removed ${records[0]?.id} from console:review\n`);
    const again = await runFolio(["answers", "remove", String(records[0]?.id), "--space", "console:review"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("[approved_answer_not_found]");
    const after = await runFolio(["answers", "list", "--space", "console:review"]);
    expect(after.stdout).toContain("Do you encrypt customer data in transit?");
    expect(after.stdout).not.toContain("at rest");
    expect(after.stdout).toContain("1 approved answer in console:review");
    // Nine commands, each starting Folio in a fresh process: minutes on a loaded two-core machine.
  }, 600_000);

  it("says what is wrong with the command line or the file, in one line", async () => {
    const usage = await runFolio(["answers"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("answers needs a subcommand: add <file>, list, remove <id>");

    const text = path.join(scratchDir, "notes.txt");
    await writeFile(text, "Just some notes, not a questionnaire.\n");
    const refused = await runFolio(["answers", "add", text, "--space", "console:review"]);
    expect(refused.code).toBe(1);
    const lines = refused.stderr.split("\n").filter((line) => line.trim() !== "");
    expect(lines).toEqual([
      expect.stringMatching(
        /^folio: notes\.txt is plain text, not a completed questionnaire.*\[not_a_questionnaire\]$/,
      ),
    ]);
  }, 300_000);
});
