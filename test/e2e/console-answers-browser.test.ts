/**
 * The console's approved-answers section in a real headless Chromium against a real Folio: add a
 * completed questionnaire through its file picker, see its answers listed with their origin, ask a
 * question that leads with the approved answer, remove one. Skipped, with the reason, without Chromium
 * or the shared models.
 */
import { existsSync } from "node:fs";
import ExcelJS from "exceljs";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedModel } from "../support/shared-paths.js";
import { startTestServer, type TestServer } from "../support/start-test-server.js";

const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
const chromiumPath = CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));
const modelPresent = existsSync(sharedModel("bge-small-en-v1.5", "config.json"));
if (!chromiumPath) console.warn("console approved answers skipped: no Chromium binary (apt-get install -y chromium)");
if (!modelPresent) console.warn("console approved answers skipped: no ../shared/models");

async function questionnaire(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Security");
  sheet.addRow(["Question", "Response"]);
  sheet.addRow(["Do you encrypt customer data at rest?", "Yes, AES-256 on every volume."]);
  sheet.addRow(["Do you run background checks on employees?", "Yes, before hiring."]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe.skipIf(!chromiumPath || !modelPresent)("console approved answers (headless Chromium)", () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    server = await startTestServer();
    browser = await chromium.launch({ executablePath: chromiumPath });
    page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.waitForSelector('body[data-documents="loaded"]');
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("adds a questionnaire, lists its answers, leads an answer with one, and removes one", async () => {
    await page.click("#answers-panel summary");
    await page.setInputFiles("#answers-input", {
      name: "security-review.xlsx",
      mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      buffer: await questionnaire(),
    });
    const items = page.locator('[data-role="approved-answer"]');
    await items.nth(1).waitFor({ timeout: 60_000 });
    expect(await page.locator("#answers-status").textContent()).toBe(
      "2 approved answers added from security-review.xlsx (questions from “Question”, answers from “Response”).",
    );
    expect(await page.locator("#answer-count").textContent()).toBe("(2)");
    expect(await items.locator('[data-role="answer-question"]').allTextContents()).toEqual([
      "Do you encrypt customer data at rest?",
      "Do you run background checks on employees?",
    ]);
    expect(await items.first().textContent()).toContain("security-review.xlsx, Security, row 2");

    await page.fill("#question", "Is customer data encrypted at rest?");
    await page.click("#ask");
    const answer = page.locator('[data-role="message"][data-kind="answer"]:not([data-status="streaming"])').first();
    await answer.waitFor({ timeout: 60_000 });
    // With no document in the console the documents' part says so; the approved answer still leads.
    expect(await answer.textContent()).toMatch(
      /Approved answer: Yes, AES-256 on every volume\.\s*\(from security-review\.xlsx, sheet Security, row 2; added by console on \d{4}-\d{2}-\d{2}\)\s*From the documents: I couldn't find anything about this/,
    );

    page.once("dialog", (dialog) => dialog.accept());
    await items.first().locator('[data-role="remove-answer"]').click();
    // A locator wait, not waitForFunction: the console's CSP (script-src 'self') forbids evaluating a string predicate.
    await page.locator('[data-role="approved-answer"]').nth(1).waitFor({ state: "detached" });
    expect(await items.locator('[data-role="answer-question"]').allTextContents()).toEqual([
      "Do you run background checks on employees?",
    ]);
  }, 300_000);
});
