/**
 * The console's "Answer a questionnaire" button in a real headless Chromium against a real Folio
 * (keyword search, extractive answers): pick a CSV questionnaire, see what was found (header row,
 * question column, first questions) and pick another column, answer it, watch its progress, download
 * the filled copy; a PDF picked by mistake is refused with its reason. Skipped, with the reason, where
 * no Chromium binary is installed.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { parse as parseCsvText } from "csv-parse/sync";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasSharedData } from "../support/shared-paths.js";
import { startTestServer, type TestServer } from "../support/start-test-server.js";

const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
const chromiumPath = CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));
if (!chromiumPath) {
  console.warn(
    `console-questionnaire skipped: no Chromium binary at ${CHROMIUM_CANDIDATES.join(", ")} (apt-get install -y chromium)`,
  );
}
if (!hasSharedData) console.warn("console-questionnaire: skipped — no shared data (../shared) for the tokenizer.");

const POLICY = `# Security policy

## Backups
Backups are taken every night and kept for 35 days.
`;

const QUESTIONNAIRE = "Question\nHow long are backups kept?\nHow many visitor parking spaces are there?\n";

describe.skipIf(!chromiumPath || !hasSharedData)("console questionnaire (headless Chromium)", () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer({ environment: { FOLIO_EMBED_MODEL: "none" } });
    const result = await server.folio.core.ingestFile({
      bytes: new TextEncoder().encode(POLICY),
      fileName: "policy.md",
      spaceId: "console:default",
      uploader: null,
    });
    expect(result.status).toBe("ingested");
    browser = await chromium.launch({ executablePath: chromiumPath });
    page = await browser.newPage({ acceptDownloads: true });
    await page.goto(`${server.url}/`);
    await page.waitForSelector('body[data-history="loaded"]');
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows what was found before answering, and answers with the column picked instead", async () => {
    // A title row above the header, and the questions in the second column under no name.
    const titled =
      "Vendor review — please answer every question\n\nID,,Notes\nQ1,How long are backups kept?,see policy\nQ2,How many visitor parking spaces are there?,\n";
    await page.setInputFiles("#questionnaire-input", {
      name: "titled.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(titled),
    });
    const card = page.locator('[data-role="questionnaire"]').last();
    const found = card.locator('[data-role="questionnaire-found"]');
    await found.waitFor({ timeout: 60_000 });
    expect(await found.textContent()).toBe('Sheet "titled": header row 3, question column B, 2 questions');
    expect(await card.locator(".questionnaire-preview li").allTextContents()).toEqual([
      "How long are backups kept?",
      "How many visitor parking spaces are there?",
    ]);
    // Picking another column reads the file again with it.
    await card.locator('[data-role="questionnaire-column"]').selectOption("C");
    await card
      .locator('[data-role="questionnaire-found"]', { hasText: "question column C" })
      .waitFor({ timeout: 60_000 });
    expect(await card.locator('[data-role="questionnaire-found"]').textContent()).toBe(
      'Sheet "titled": header row 3, question column C ("Notes"), 1 question',
    );
    await card.locator('[data-role="questionnaire-column"]').selectOption("B");
    await card
      .locator('[data-role="questionnaire-found"]', { hasText: "question column B" })
      .waitFor({ timeout: 60_000 });
    await card.locator('[data-role="questionnaire-start"]').click();
    await page.locator('[data-role="questionnaire"][data-status="succeeded"]').last().waitFor({ timeout: 120_000 });
    expect(await card.locator('[data-role="questionnaire-status"]').textContent()).toMatch(
      /^2\/2 done · 1 answered · 1 not found · took \d+ s$/,
    );
  });

  it("answers a picked questionnaire with progress and offers the filled copy for download", async () => {
    await page.setInputFiles("#questionnaire-input", {
      name: "review.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(QUESTIONNAIRE),
    });
    const preview = page.locator('[data-role="questionnaire"]').last().locator('[data-role="questionnaire-found"]');
    await preview.waitFor({ timeout: 60_000 });
    expect(await preview.textContent()).toBe(
      'Sheet "review": header row 1, question column A ("Question"), 2 questions',
    );
    await page.locator('[data-role="questionnaire"]').last().locator('[data-role="questionnaire-start"]').click();
    const card = page.locator('[data-role="questionnaire"][data-status="succeeded"]', { hasText: "review.csv" });
    await card.waitFor({ timeout: 120_000 });
    expect(await card.locator('[data-role="questionnaire-status"]').textContent()).toMatch(
      /^2\/2 done · 1 answered · 1 not found · took \d+ s$/,
    );
    const downloading = page.waitForEvent("download");
    await card.locator('[data-role="questionnaire-download"]').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("review (filled).csv");
    const rows = parseCsvText(await readFile((await download.path()) ?? ""), {
      relax_column_count: true,
    }) as string[][];
    expect(rows.map((row) => row.slice(0, 1))).toEqual([
      ["Question"],
      ["How long are backups kept?"],
      ["How many visitor parking spaces are there?"],
    ]);
    expect(rows[0]?.slice(1, 5)).toEqual(["Answer", "Status", "Sources", "Quote"]);
    expect(rows[1]?.[1]).toContain("35 days");
    expect(rows[1]?.[2]).toBe("answered");
    expect(rows[2]?.[2]).toBe("not found in the documents");
  });

  it("refuses a PDF picked as a questionnaire and says what to upload", async () => {
    await page.setInputFiles("#questionnaire-input", {
      name: "policy.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("%PDF-1.4\n%%EOF\n"),
    });
    const card = page.locator('[data-role="questionnaire"][data-status="rejected"]');
    await card.waitFor({ timeout: 60_000 });
    expect(await card.locator('[data-role="questionnaire-status"]').textContent()).toMatch(
      /^This file is a PDF, not a questionnaire Folio can fill — upload an Excel workbook/,
    );
  });
});
