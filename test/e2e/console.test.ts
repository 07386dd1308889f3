/**
 * The local web console in a real headless Chromium against a real Folio: upload a PDF through the
 * file picker, ask a question whose answer sits on a known page, follow the citation to the signed
 * source viewer, see a broken file's specific rejection, drop a file, and find the thread again after
 * a reload. Skipped, with the reason, where no Chromium binary is installed.
 */
import { existsSync, readFileSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasSharedData, sharedData } from "../support/shared-paths.js";
import { startTestServer, type TestServer } from "../support/start-test-server.js";

const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
const chromiumPath = CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));
if (!chromiumPath) {
  console.warn(
    `console e2e skipped: no Chromium binary at ${CHROMIUM_CANDIDATES.join(", ")} (install it with: apt-get install -y chromium)`,
  );
}

const PDF_NAME = "contoso-perksplus.pdf";
const PDF_PATH = sharedData("enterprise-pdfs/pdfs", PDF_NAME);
/** pdftotext -f 3 -l 3 contoso-perksplus.pdf: "employees have the opportunity to expense up to $1000 for fitness-related programs". */
const QUESTION = "How much can employees expense for fitness-related programs?";
const ANSWER_PAGE = 3;
/** A name that would become markup if the console ever rendered text as HTML. */
const DROPPED_NAME = "<em>gym<em>.txt";

if (!hasSharedData) console.warn(`console: skipped — no shared data (../shared) for its PDFs and models.`);

describe.skipIf(!chromiumPath || !hasSharedData)("Folio web console (headless Chromium)", () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await chromium.launch({ executablePath: chromiumPath });
    page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.waitForSelector('body[data-history="loaded"]');
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("uploads a PDF through the file picker and reports pages and chunks", async () => {
    await page.setInputFiles("input#file-input", PDF_PATH);
    const result = page.locator('[data-role="upload-result"]').first();
    await result.waitFor();
    const documents = await server.folio.catalog.listDocuments("console:default");
    expect(documents.map((document) => document.fileName)).toEqual([PDF_NAME]);
    const chunks = await server.folio.catalog.listChunks(documents[0]?.id ?? "");
    expect(await result.textContent()).toBe(`Ingested ${PDF_NAME} — 4 pages, ${chunks.length} chunks`);
    expect(await result.getAttribute("data-status")).toBe("ingested");
  });

  it("streams an answer whose citation opens the cited page of the PDF", async () => {
    await page.fill("#question", QUESTION);
    await page.click("#ask");
    const answer = page.locator('[data-role="message"][data-kind="answer"][data-status="done"]').last();
    await answer.waitFor({ timeout: 30_000 });
    expect(await answer.locator(".body").textContent()).toContain("expense up to $1000 for fitness-related programs");

    const citation = answer.locator('[data-role="citation"]').first();
    const href = (await citation.getAttribute("href")) ?? "";
    expect(await citation.getAttribute("target")).toBe("_blank");
    expect(href.startsWith(`${server.url}/files/`)).toBe(true);
    expect(href).toMatch(new RegExp(`#page=${ANSWER_PAGE}$`));
    expect(await citation.textContent()).toBe(`[1] PerksPlus Health and Wellness — p. ${ANSWER_PAGE}`);

    const file = await fetch(href);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await file.arrayBuffer()).equals(readFileSync(PDF_PATH))).toBe(true);
  });

  it("shows a broken file's specific rejection", async () => {
    await page.setInputFiles("input#file-input", {
      name: "broken.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from([0x13, 0x37, 0xbe, 0xef, 0x42, 0x99, 0x00, 0x7f]),
    });
    const result = page.locator('[data-role="upload-result"][data-status="rejected"]').last();
    await result.waitFor();
    expect(await result.getAttribute("data-code")).toBe("unsupported_type");
    expect(await result.textContent()).toMatch(/^Could not ingest broken\.pdf: Folio cannot read /);
  });

  it("accepts a dropped file and renders its name as text, not markup", async () => {
    // Runs in the page (the test's own TypeScript has no DOM types), like a file dragged from the desktop.
    await page.evaluate(`(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(["Gym hours are 6am to 10pm on weekdays."], "${DROPPED_NAME}", { type: "text/plain" }));
      window.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    })()`);
    const result = page.locator('[data-role="upload-result"]').nth(2);
    await result.waitFor();
    expect(await result.textContent()).toBe(`Ingested ${DROPPED_NAME} — 1 chunk`);
    expect(await page.locator("#thread em").count()).toBe(0);
  });

  it("shows the same thread after a reload, with working citation links", async () => {
    const before = await page.locator('[data-role="message"]').allTextContents();
    await page.reload();
    await page.waitForSelector('body[data-history="loaded"]');
    expect(await page.locator('[data-role="message"]').allTextContents()).toEqual(before);
    const href = (await page.locator('[data-role="citation"]').first().getAttribute("href")) ?? "";
    const file = await fetch(href);
    expect(file.status).toBe(200);
  });
});
