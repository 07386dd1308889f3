/**
 * The console at phone width in a real headless Chromium against a real Folio (keyword-only, five
 * uploaded PDFs): at 390 px every document of the open Documents list is laid out in the page — not
 * clipped inside a scroll area of its own — within the screen's width, and the subtitle is shown. One
 * document is reported half-embedded, so the list's "embedding 120/310 passages" line is checked too, and
 * a live progress event moves it. With FOLIO_SCREENSHOT_DIR set, full-page screenshots at 1280 and 390 px
 * are written there. Skipped, with the reason, without Chromium or the shared data.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFolio, type Folio } from "../../src/composition-root.js";
import { loadConfig } from "../../src/config/config.js";
import type { SpaceId } from "../../src/domain/types.js";
import { locateConsoleAssets } from "../../src/http/console-assets.js";
import { createHttpServer, DEFAULT_CONSOLE_SPACE_ID, type HttpServer } from "../../src/http/http-server.js";
import { silentLogger } from "../../src/logger.js";
import { freePort } from "../support/free-port.js";
import { hasSharedData, sharedData } from "../support/shared-paths.js";

const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
const chromiumPath = CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));
if (!chromiumPath) console.warn("console at phone width skipped: no Chromium binary (apt-get install -y chromium)");
if (!hasSharedData) console.warn("console at phone width skipped: no ../shared/data");

const FILES = [
  "nist-sp800-145-cloud-definition.pdf",
  "contoso-benefit-options.pdf",
  "contoso-employee-handbook.pdf",
  "fedramp-oscal-vendor-resources.pdf",
  "gao-cybersecurity-strategy-2023-indesign.pdf",
];
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

describe.skipIf(!chromiumPath || !hasSharedData)("console at phone width (headless Chromium)", () => {
  let dataDir: string;
  let folio: Folio;
  let server: HttpServer;
  let url: string;
  let browser: Browser;
  /** The document reported as half-embedded (its vectors are "being written"). */
  let pendingId = "";

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "folio-phone-"));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const config = loadConfig(
      { FOLIO_DATA_DIR: dataDir, FOLIO_EMBED_MODEL: "none", FOLIO_PUBLIC_URL: url, FOLIO_LOG_LEVEL: "silent" },
      process.cwd(),
    );
    folio = await createFolio(config, silentLogger);
    for (const file of FILES) {
      const bytes = new Uint8Array(await readFile(sharedData("enterprise-pdfs", "pdfs", file)));
      const result = await folio.ingestion.ingestFile({
        bytes,
        fileName: file,
        spaceId: DEFAULT_CONSOLE_SPACE_ID,
        uploader: "console",
      });
      if (file === FILES[0]) pendingId = result.documentId ?? "";
    }
    // Keyword-only Folio embeds nothing; the list is told that one document is being embedded.
    const listDocuments = async (spaceId: SpaceId) =>
      (await folio.core.listDocuments(spaceId)).map((document) =>
        document.id === pendingId ? { ...document, awaitingMeaning: true } : document,
      );
    server = createHttpServer({
      folio: {
        ...folio,
        coreFor: (adapter) => ({ ...folio.coreFor(adapter), listDocuments }),
        meaningIndexer: {
          progressOf: (documentId) => (documentId === pendingId ? { done: 120, total: 310 } : null),
          hasFailed: () => false,
          enqueue: async () => false,
          resumeAwaiting: async () => 0,
          close: async () => {},
        },
      },
      logger: silentLogger,
      consoleAssetsDir: locateConsoleAssets(),
    });
    await server.listen(port, "127.0.0.1");
    browser = await chromium.launch({ executablePath: chromiumPath });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await folio?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function openConsole(viewport: { width: number; height: number }): Promise<Page> {
    const page = await browser.newPage({ viewport });
    await page.goto(`${url}/`);
    // The list is drawn once on load and again once the live events connect: measured after both, so
    // no redraw replaces the rows between finding one and measuring it, and no progress event is missed.
    await page.waitForSelector('body[data-live-documents="connected"]');
    await page.waitForSelector('body[data-document-loads]:not([data-document-loads="1"])');
    await page.click("#documents-panel summary");
    await page
      .locator('[data-role="document"]')
      .nth(FILES.length - 1)
      .waitFor();
    return page;
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    const directory = process.env.FOLIO_SCREENSHOT_DIR;
    if (directory) await page.screenshot({ path: path.join(directory, name), fullPage: true });
  }

  it("shows every document of the list in the page, within the screen, and the subtitle, at 390 px", async () => {
    const page = await openConsole(PHONE);
    const rows = page.locator('[data-role="document"]');
    expect(await rows.count()).toBe(5);
    await screenshot(page, "console-390.png");
    const list = await page.locator("#documents").boundingBox();
    let rowsHeight = 0;
    for (let index = 0; index < 5; index += 1) {
      const box = await rows.nth(index).boundingBox();
      if (!box || !list) throw new Error("the list or a row has no box");
      rowsHeight += box.height;
      // Inside the screen's width, and inside the list's own box: nothing hidden in a scroll area.
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      expect(box.y + box.height).toBeLessThanOrEqual(list.y + list.height + 0.5);
      expect(await rows.nth(index).locator('[data-role="document-link"]').isVisible()).toBe(true);
    }
    expect(list?.height ?? 0).toBeGreaterThanOrEqual(rowsHeight);
    const subtitle = page.locator(".subtitle");
    expect(await subtitle.isVisible()).toBe(true);
    expect(await subtitle.textContent()).toBe("Ask your documents. Answers cite the page they came from.");
    const subtitleBox = await subtitle.boundingBox();
    expect((subtitleBox?.x ?? -1) + (subtitleBox?.width ?? PHONE.width + 1)).toBeLessThanOrEqual(PHONE.width);
    // Nothing wider than the screen: no sideways scrolling.
    const pageBox = await page.locator("body").boundingBox();
    expect(pageBox?.width).toBe(PHONE.width);

    const pending = page.locator(`[data-document-id="${pendingId}"] [data-role="document-search"]`);
    expect(await pending.textContent()).toBe("Searchable by keywords · embedding 120/310 passages for meaning…");
    // A live progress event moves the count in place.
    folio.documentEvents.publish({
      type: "meaning_progress",
      spaceId: DEFAULT_CONSOLE_SPACE_ID,
      documentId: pendingId,
      done: 160,
      total: 310,
    });
    await page
      .locator(`[data-document-id="${pendingId}"] [data-role="document-search"]`, { hasText: "160/310" })
      .waitFor();
    expect(await pending.textContent()).toBe("Searchable by keywords · embedding 160/310 passages for meaning…");
    await page.close();
  }, 120_000);

  it("keeps the desktop layout at 1280 px", async () => {
    const page = await openConsole(DESKTOP);
    const column = await page.locator("main").boundingBox();
    expect(column?.width).toBe(860);
    expect(await page.locator(".subtitle").isVisible()).toBe(true);
    await screenshot(page, "console-1280.png");
    await page.close();
  }, 120_000);
});
