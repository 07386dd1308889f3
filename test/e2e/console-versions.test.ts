/**
 * The console in two real headless Chromium tabs against a real Folio: a FinanceBench 10-K whose PDF
 * metadata title is its SEC accession number is listed, cited and shown in the viewer under its real
 * title with its file name; the second tab sees it appear without reloading; uploading a new version
 * under the same name asks replace / keep both / cancel, replaces it, and the second tab sees the
 * change; the earlier answer's link then says the version was replaced and opens the current one;
 * a deletion disappears from the second tab too. Skipped, with the reason, without Chromium or ../shared.
 */
import { existsSync, readFileSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasSharedData, sharedData } from "../support/shared-paths.js";
import { startTestServer, type TestServer } from "../support/start-test-server.js";

const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
const chromiumPath = CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));
if (!chromiumPath) console.warn(`console versions: skipped — no Chromium binary at ${CHROMIUM_CANDIDATES.join(", ")}.`);
if (!hasSharedData) console.warn("console versions: skipped — no shared data (../shared) for the 10-K and models.");

/** Its PDF metadata title is "0001018724-20-000004" (pdfinfo), the filing's accession number. */
const FILE_NAME = "AMAZON_2019_10K.pdf";
const FILE_PATH = sharedData("financebench-dev/pdfs", FILE_NAME);
/** What ingestion/document-title.ts reads from the cover page instead. */
const REAL_TITLE = "AMAZON.COM, INC. — Form 10-K, fiscal year ended December 31, 2019";
const LABEL = `${REAL_TITLE} (${FILE_NAME})`;
const QUESTION = "What were Amazon's total net sales in 2019?";

const documentRows = (page: Page) => page.locator('[data-role="document"]');

async function openConsole(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${url}/`);
  await page.waitForSelector('body[data-documents="loaded"][data-live-documents="connected"]');
  return page;
}

/** Chooses the file in the picker; `choice` answers the same-name question when it is asked. */
async function upload(page: Page, buffer: Buffer, choice?: "replace" | "keep-both" | "cancel") {
  const cards = page.locator('[data-role="message"][data-kind="upload"]');
  const index = await cards.count();
  await page.setInputFiles("input#file-input", { name: FILE_NAME, mimeType: "application/pdf", buffer });
  const card = cards.nth(index);
  if (choice) {
    await card.locator('[data-role="same-name-prompt"]').waitFor();
    await card.locator(`[data-role="same-name-choice"][data-choice="${choice}"]`).click();
  }
  if (choice === "cancel") return card.locator('[data-role="upload-cancelled"]');
  const result = card.locator('[data-role="upload-result"]');
  await result.waitFor({ timeout: 240_000 });
  return result;
}

describe.skipIf(!chromiumPath || !hasSharedData)("console: titles, versions and live lists (two Chromium tabs)", () => {
  let server: TestServer;
  let browser: Browser;
  let first: Page;
  let second: Page;
  const original = hasSharedData ? readFileSync(FILE_PATH) : Buffer.alloc(0);
  /** The same filing with a line after %%EOF: other bytes (a new version), the same text. */
  const revised = Buffer.concat([original, Buffer.from("\n% revised copy\n")]);
  let firstCitation = "";

  beforeAll(async () => {
    server = await startTestServer();
    browser = await chromium.launch({ executablePath: chromiumPath });
    first = await openConsole(browser, server.url);
    second = await openConsole(browser, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("lists the filing under its real title with its file name, in both tabs", async () => {
    const result = await upload(first, original);
    expect(await result.getAttribute("data-status")).toBe("ingested");
    expect(await result.textContent()).toMatch(
      /^Added — 83 pages, \d+ passages · searchable by keywords now, by meaning once read \(see Documents\)$/,
    );
    for (const page of [first, second]) {
      // The console's CSP forbids evaluated strings: wait on what it renders instead.
      await page.locator("#document-count", { hasText: /^\(1\)$/ }).waitFor();
      const row = documentRows(page).first();
      expect(await row.locator('[data-role="document-link"]').textContent()).toBe(REAL_TITLE);
      expect(await row.locator('[data-role="document-meta"]').textContent()).toMatch(
        new RegExp(`^${FILE_NAME.replace(".", "\\.")} · 83 pages · \\d+ passages · added `),
      );
      expect(await row.locator('[data-role="document-search"]').textContent()).toMatch(
        /^(Searchable by keywords · (reading for meaning|embedding \d+\/\d+ passages for meaning)…|Searchable)$/,
      );
    }
    expect(await second.locator("#document-count").textContent()).toBe("(1)");
  });

  it("cites it under its title and file name, and the viewer's title says both", async () => {
    await first.fill("#question", QUESTION);
    await first.click("#ask");
    const answer = first.locator('[data-role="message"][data-kind="answer"][data-status="done"]').first();
    await answer.waitFor({ timeout: 120_000 });
    const citation = answer.locator('[data-role="citation"]').first();
    expect(await citation.textContent()).toMatch(new RegExp(`^\\[1\\] ${escapeRegExp(LABEL)} — pp?\\. \\d+`));
    firstCitation = (await citation.getAttribute("href")) ?? "";
    const viewer = await browser.newPage();
    await viewer.goto(firstCitation);
    expect(await viewer.title()).toBe(LABEL);
    expect(await viewer.locator('[data-role="viewer-title"]').textContent()).toBe(`${REAL_TITLE} ${FILE_NAME}`);
    await viewer.close();
  });

  it("asks before uploading a file of the same name, and cancelling sends nothing", async () => {
    const cancelled = await upload(first, revised, "cancel");
    expect(await cancelled.textContent()).toBe("Cancelled — nothing was uploaded.");
    expect((await server.folio.core.listDocuments("console:default")).length).toBe(1);
  });

  it("replaces it with a new version; the other tab sees the change and the old link says so", async () => {
    const before = await documentRows(second).first().getAttribute("data-document-id");
    const prompt = first.locator('[data-role="same-name-prompt"]');
    const result = await upload(first, revised, "replace");
    expect(await prompt.count()).toBe(0);
    expect(await result.textContent()).toMatch(/^Replaced the earlier version — 83 pages, \d+ passages/);
    const documents = await server.folio.core.listDocuments("console:default");
    expect(documents.map((document) => [document.title, document.fileName])).toEqual([[REAL_TITLE, FILE_NAME]]);
    const now = documents[0]?.id ?? "";
    expect(now).not.toBe(before);
    // The list sits in a closed panel: attached, not visible.
    await second.waitForSelector(`[data-role="document"][data-document-id="${now}"]`, { state: "attached" });
    expect(await documentRows(second).count()).toBe(1);

    const oldLink = await browser.newPage();
    await oldLink.goto(firstCitation);
    expect(await oldLink.locator("h1").textContent()).toBe("This version was replaced");
    const current = oldLink.locator('[data-role="current-version"]');
    expect(await current.textContent()).toBe(LABEL);
    // The cited page travels on: the current version opens where the old answer pointed.
    expect(await current.getAttribute("href")).toMatch(/#page=\d+$/);
    await oldLink.close();
  });

  it("a document deleted in one tab disappears from the other", async () => {
    first.once("dialog", (dialog) => dialog.accept());
    await first.click("#documents-panel summary");
    await documentRows(first).first().locator('[data-role="delete-document"]').click();
    await second.locator("#document-count", { hasText: /^\(0\)$/ }).waitFor();
    expect(await documentRows(second).count()).toBe(0);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
