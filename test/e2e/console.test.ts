/**
 * The local web console in a real headless Chromium against a real Folio: the empty console says to
 * drop a file, upload a PDF through the file picker, ask a question whose answer sits on a known page,
 * follow the citation to the signed source viewer, ask a follow-up, see a broken file's specific
 * rejection, drop a file, check the layout from screenshots at desktop and phone widths, find the
 * thread again after a reload, delete a document, and start a new conversation. Skipped, with the
 * reason, where no Chromium binary is installed.
 */
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
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
const FOLLOW_UP = "And what about surfing lessons?";
const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
];

/**
 * How many distinct colours a PNG screenshot holds, decoded by the page itself (the test has no
 * image library): a blank or single-colour capture has 1, a rendered answer with text has many.
 */
async function countColours(page: Page, png: Buffer): Promise<number> {
  return page.evaluate(`(async () => {
    const image = new Image();
    image.src = "data:image/png;base64,${png.toString("base64")}";
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, image.width, image.height).data;
    const colours = new Set();
    for (let index = 0; index < pixels.length; index += 4) {
      colours.add((pixels[index] << 16) | (pixels[index + 1] << 8) | pixels[index + 2]);
      if (colours.size > 50) break;
    }
    return colours.size;
  })()`);
}

type Box = { x: number; y: number; width: number; height: number };

/** Asks through the form and waits for this question's own answer (earlier answers are done already). */
async function askAndWait(page: Page, question: string) {
  const answers = page.locator('[data-role="message"][data-kind="answer"]');
  const index = await answers.count();
  await page.fill("#question", question);
  await page.click("#ask");
  const answer = answers.nth(index);
  await page.locator('[data-role="message"][data-kind="answer"]:not([data-status="streaming"])').nth(index).waitFor({
    timeout: 30_000,
  });
  expect(await answer.getAttribute("data-status")).toBe("done");
  return answer;
}

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

  it("greets an empty console with what to do, serves its icon, and lines the header up with the content", async () => {
    await page.waitForSelector('body[data-documents="loaded"]');
    expect(await page.locator("#empty").textContent()).toMatch(/^No documents yet — drop a file here/);
    expect(await page.locator("#document-count").textContent()).toBe("(0)");

    const answer = await askAndWait(page, "What is the leave policy?");
    expect(await answer.locator(".body").textContent()).toMatch(/^No documents yet — drop a file here/);
    expect(await answer.textContent()).not.toContain("couldn't find");

    const icon = await fetch(`${server.url}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(await icon.text()).toContain("<svg");

    const left = async (selector: string) => (await page.locator(selector).boundingBox())?.x;
    const headerLeft = await left(".top-row h1");
    expect(headerLeft).toBeDefined();
    expect(await left("#thread")).toBe(headerLeft);
    expect(await left("#ask-form")).toBe(headerLeft);
  });

  it("uploads a PDF through the file picker and reports pages and passages, naming the file once", async () => {
    await page.setInputFiles("input#file-input", PDF_PATH);
    const result = page.locator('[data-role="upload-result"]').first();
    await result.waitFor();
    const documents = await server.folio.catalog.listDocuments("console:default");
    expect(documents.map((document) => document.fileName)).toEqual([PDF_NAME]);
    const chunks = await server.folio.catalog.listChunks(documents[0]?.id ?? "");
    expect(await result.textContent()).toBe(
      `Added — 4 pages, ${chunks.length} passages · searchable by keywords now, by meaning once read (see Documents)`,
    );
    expect(await result.getAttribute("data-status")).toBe("ingested");
    const card = page.locator('[data-role="message"][data-kind="upload"]').first();
    expect((await card.textContent())?.split(PDF_NAME).length).toBe(2);
  });

  it("streams an answer whose citation opens the cited page of the PDF", async () => {
    const answer = await askAndWait(page, QUESTION);
    expect(await answer.locator(".body").textContent()).toContain("expense up to $1000 for fitness-related programs");

    const citation = answer.locator('[data-role="citation"]').first();
    const href = (await citation.getAttribute("href")) ?? "";
    expect(await citation.getAttribute("target")).toBe("_blank");
    expect(href.startsWith(`${server.url}/files/`)).toBe(true);
    expect(href).toMatch(new RegExp(`#page=${ANSWER_PAGE}$`));
    expect(await citation.textContent()).toBe(`[1] PerksPlus Health and Wellness (${PDF_NAME}) — p. ${ANSWER_PAGE}`);

    const file = await fetch(href);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await file.arrayBuffer()).equals(readFileSync(PDF_PATH))).toBe(true);
  });

  it("answers a follow-up from the conversation's earlier turns", async () => {
    const answer = await askAndWait(page, FOLLOW_UP);
    expect(await answer.locator(".body").textContent()).toContain("Surfing lessons");
    expect(await answer.locator(".sources-label").textContent()).toBe("Sources");
    expect(await answer.locator('[data-role="citation"]').first().textContent()).toMatch(
      /^\[1\] PerksPlus Health and Wellness \(contoso-perksplus\.pdf\) — p\. \d$/,
    );
  });

  it("shows a broken file's specific rejection", async () => {
    await page.setInputFiles("input#file-input", {
      name: "broken.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from([0x13, 0x37, 0xbe, 0xef, 0x42, 0x99, 0x00, 0x7f]),
    });
    const result = page.locator('[data-role="upload-result"][data-status="rejected"]').last();
    await result.waitFor();
    expect(await result.getAttribute("data-code")).toBe("content_mismatch");
    expect(await result.textContent()).toMatch(
      /^Couldn't add this file: This file is named \.pdf, so a PDF was expected, but it is binary data /,
    );
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
    expect(await result.textContent()).toBe(
      "Added — 1 passage · searchable by keywords now, by meaning once read (see Documents)",
    );
    expect(await page.locator("#thread em").count()).toBe(0);
  });

  it("lists documents with pages, passages and when they were added, in plain words", async () => {
    await page.click("#documents-panel summary");
    const rows = page.locator('[data-role="document"]');
    await expect.poll(() => rows.count()).toBe(2);
    const metas = await page.locator('[data-role="document-meta"]').allTextContents();
    const documents = await server.folio.catalog.listDocuments("console:default");
    const pdf = documents.find((document) => document.fileName === PDF_NAME);
    const pdfSections = (await server.folio.catalog.listChunks(pdf?.id ?? "")).length;
    expect(metas).toContainEqual(
      expect.stringMatching(
        new RegExp(`^${PDF_NAME.replace(".", "\\.")} · 4 pages · ${pdfSections} passages · added .+`),
      ),
    );
    expect(metas).toContainEqual(expect.stringMatching(/^1 passage · added .+/));
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the visible text, what a user reads.
    const visibleText = await page.locator("body").innerText();
    expect(visibleText).not.toMatch(/chunk|ingest/i);
  });

  for (const viewport of VIEWPORTS) {
    it(`renders answers and citations inside a ${viewport.name} viewport (${viewport.width}px), from screenshots`, async () => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      const answer = page.locator('[data-role="message"][data-kind="answer"][data-status="done"]').nth(1);
      await answer.scrollIntoViewIfNeeded();
      const citation = answer.locator('[data-role="citation"]').first();
      for (const locator of [answer, citation, page.locator("#ask"), page.locator("#new-conversation")]) {
        expect(await locator.isVisible()).toBe(true);
        const box = (await locator.boundingBox()) as Box;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      }
      const overflow = await page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth",
      );
      expect(overflow).toBe(0);

      const answerShot = await answer.screenshot();
      expect(await countColours(page, answerShot)).toBeGreaterThan(10);
      const pageShot = await page.screenshot();
      // FOLIO_SCREENSHOT_DIR=/some/dir keeps the captures, to look at a layout change by eye.
      if (process.env.FOLIO_SCREENSHOT_DIR) {
        await writeFile(path.join(process.env.FOLIO_SCREENSHOT_DIR, `console-${viewport.name}.png`), pageShot);
      }
      expect(await countColours(page, pageShot)).toBeGreaterThan(10);
    });
  }

  it("shows the same thread after a reload, with working citation links", async () => {
    const before = await page.locator('[data-role="message"]').allTextContents();
    await page.reload();
    await page.waitForSelector('body[data-history="loaded"]');
    expect(await page.locator('[data-role="message"]').allTextContents()).toEqual(before);
    const href = (await page.locator('[data-role="citation"]').first().getAttribute("href")) ?? "";
    const file = await fetch(href);
    expect(file.status).toBe(200);
  });

  it("deletes a document only after confirmation", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.click("#documents-panel summary");
    await page.locator('[data-role="document"]').first().waitFor();
    const dropped = page.locator('[data-role="document"]', { hasText: /1 passage · added/ });
    const deleteButton = dropped.locator('[data-role="delete-document"]');

    page.once("dialog", (dialog) => dialog.dismiss());
    await deleteButton.click();
    expect(await page.locator('[data-role="document"]').count()).toBe(2);

    let question = "";
    page.once("dialog", (dialog) => {
      question = dialog.message();
      return dialog.accept();
    });
    await deleteButton.click();
    await expect.poll(() => page.locator('[data-role="document"]').count()).toBe(1);
    expect(question).toContain(DROPPED_NAME);
    const remaining = await server.folio.catalog.listDocuments("console:default");
    expect(remaining.map((document) => document.fileName)).toEqual([PDF_NAME]);
  });

  it("starts a new conversation that stays new after a reload", async () => {
    await page.click("#new-conversation");
    await expect.poll(() => page.locator('[data-role="message"]').count()).toBe(0);
    expect(await page.locator("#empty").textContent()).toMatch(/^Ask a question about your documents/);
    await page.reload();
    await page.waitForSelector('body[data-history="loaded"]');
    expect(await page.locator('[data-role="message"]').count()).toBe(0);
  });
});
