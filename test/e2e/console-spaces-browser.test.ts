/**
 * The console's spaces in a real headless Chromium against a real Folio (keyword-only), issue #41: the
 * console lists its own `console:` spaces with their document counts — never a Slack channel's or a
 * Teams conversation's, which it cannot reach either — creates one under a name people choose, puts it
 * in the URL (a link opens it), renames it without changing its id, and uploads, questions, approved
 * answers and questionnaires act on the space that is open. Citations of a Markdown and a Word source
 * name their section and open the document there (`#section=…`, the viewer's sanitised rendering). At
 * 1280 and 390 px; with FOLIO_SCREENSHOT_DIR set, screenshots of both widths and of an opened section
 * are written there. Skipped, with the reason, without Chromium or the shared data.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFolio, type Folio } from "../../src/composition-root.js";
import { loadConfig } from "../../src/config/config.js";
import { EMPTY_SPACE_ANSWER } from "../../src/http/console-api.js";
import { locateConsoleAssets } from "../../src/http/console-assets.js";
import { createHttpServer, type HttpServer } from "../../src/http/http-server.js";
import { silentLogger } from "../../src/logger.js";
import { freePort } from "../support/free-port.js";
import { hasSharedData, sharedData } from "../support/shared-paths.js";

const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
const chromiumPath = CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));
if (!chromiumPath) console.warn("console spaces (browser) skipped: no Chromium binary (apt-get install -y chromium)");
if (!hasSharedData) console.warn("console spaces (browser) skipped: no ../shared/data");

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const SLACK_SPACE = "slack:T0001:C0001";
const TEAMS_SPACE = "teams:tenant-1:19:meeting_abc@thread.v2";
const HEADERS = { "X-Folio-Console": "1" };

describe.skipIf(!chromiumPath || !hasSharedData)("console spaces (headless Chromium)", () => {
  let dataDir: string;
  let folio: Folio;
  let server: HttpServer;
  let url: string;
  let browser: Browser;
  let markdownFile: string;
  let docxFile: string;
  let answersFile: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "folio-spaces-"));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const config = loadConfig(
      { FOLIO_DATA_DIR: dataDir, FOLIO_EMBED_MODEL: "none", FOLIO_PUBLIC_URL: url, FOLIO_LOG_LEVEL: "silent" },
      process.cwd(),
    );
    folio = await createFolio(config, silentLogger);
    markdownFile = sharedData("handbook-dev", "docs", "leave-types.md");
    docxFile = sharedData("handbook-dev", "docs", "security-incidents.docx");
    // A channel's and a conversation's documents: in the same store, never the console's to list or reach.
    for (const spaceId of [SLACK_SPACE, TEAMS_SPACE]) {
      await folio.ingestion.ingestFile({
        bytes: new Uint8Array(await readFile(sharedData("handbook-dev", "docs", "benefits.md"))),
        fileName: "benefits.md",
        spaceId,
        uploader: "U1",
      });
    }
    answersFile = path.join(dataDir, "approved.csv");
    await writeFile(answersFile, "Question,Answer\nHow many days a week can I telework?,Up to two days a week.\n");
    server = createHttpServer({ folio, logger: silentLogger, consoleAssetsDir: locateConsoleAssets() });
    await server.listen(port, "127.0.0.1");
    browser = await chromium.launch({ executablePath: chromiumPath });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await folio?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function openConsole(viewport: { width: number; height: number }, query = ""): Promise<Page> {
    const page = await browser.newPage({ viewport });
    await page.goto(`${url}/${query}`);
    await waitUntilLoaded(page);
    return page;
  }

  async function waitUntilLoaded(page: Page): Promise<void> {
    await page.waitForSelector('body[data-spaces="loaded"]');
    await page.waitForSelector('body[data-history="loaded"]');
    await page.waitForSelector('body[data-live-documents="connected"]');
  }

  /** The whole page, or (a document opened at a section) only what the screen shows. */
  async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
    const directory = process.env.FOLIO_SCREENSHOT_DIR;
    if (directory) await page.screenshot({ path: path.join(directory, name), fullPage });
  }

  async function spaceNames(page: Page): Promise<string[]> {
    return page.locator('[data-role="space-link"]').allTextContents();
  }

  /** Asks in the open page and waits for the answer; its text and its citations' labels, links and quotes. */
  async function ask(page: Page, question: string) {
    const before = await page.locator('.message.answer[data-status="done"]').count();
    await page.fill("#question", question);
    await page.click("#ask");
    const answer = page.locator('.message.answer[data-status="done"]').nth(before);
    await answer.waitFor();
    const citations = answer.locator(".citations li");
    const items = [];
    for (let index = 0; index < (await citations.count()); index += 1) {
      const item = citations.nth(index);
      items.push({
        label: (await item.locator('[data-role="citation"]').textContent()) ?? "",
        href: (await item.locator('[data-role="citation"]').getAttribute("href")) ?? "",
        quote: (await item.locator("blockquote").allTextContents()).join(""),
      });
    }
    return { text: (await answer.locator(".body").textContent()) ?? "", citations: items };
  }

  /** Opens a citation's link and reads the section the browser landed on (the `:target`), and whether it is in view. */
  async function openCitation(href: string, name: string) {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(href);
    const target = page.locator("section:target");
    await target.waitFor();
    const heading = (await target.locator("h1, h2, h3, h4, h5, h6").first().textContent()) ?? "";
    const box = await target.boundingBox();
    const scripts = await page.locator("script").count();
    const links = await page.locator("article a").count();
    await screenshot(page, name, false);
    await page.close();
    return { heading, inView: box !== null && box.y >= 0 && box.y < DESKTOP.height, scripts, links };
  }

  it("lists only the console's spaces, creates one by name into the URL, and works in it", async () => {
    const page = await openConsole(DESKTOP);
    expect(await page.locator("#space-name").textContent()).toBe("Default");
    await page.click("#spaces-panel summary");
    expect(await spaceNames(page)).toEqual(["Default"]);
    // Neither listed nor reachable: the console cannot read or write a channel's space.
    const listed = (await (await fetch(`${url}/api/spaces`)).json()) as { spaces: Array<{ id: string }> };
    expect(listed.spaces.map((space) => space.id)).toEqual(["console:default"]);
    for (const space of [SLACK_SPACE, TEAMS_SPACE, "library"]) {
      const refused = await fetch(`${url}/api/documents?space=${encodeURIComponent(space)}`);
      expect(refused.status).toBe(404);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("space_not_found");
    }

    await page.fill("#new-space-name", "Company Handbook");
    await Promise.all([page.waitForURL(`${url}/?space=company-handbook`), page.click("#new-space-form button")]);
    await waitUntilLoaded(page);
    expect(await page.locator("#space-name").textContent()).toBe("Company Handbook");
    expect(await page.title()).toBe("Company Handbook — Folio console");

    await page.setInputFiles("#file-input", [markdownFile, docxFile]);
    const results = page.locator('[data-role="upload-result"]');
    await results.nth(1).waitFor();
    expect(await results.evaluateAll((lines) => lines.map((line) => line.getAttribute("data-status")))).toEqual([
      "ingested",
      "ingested",
    ]);
    expect(await results.first().textContent()).toMatch(/^Added — \d+ passages/);
    await page.locator("#space-count", { hasText: "2 documents" }).waitFor();

    // The Markdown source: named by its section, quoted without link syntax, opened at that section.
    const leave = await ask(page, "What's the most annual leave I can carry over into next year?");
    expect(leave.text).toContain("240");
    const fromMarkdown = leave.citations.find((citation) => citation.label.includes("(leave-types.md)"));
    // Cited at the section that holds the quoted sentence: "Annual leave", or a section under it.
    expect(fromMarkdown?.label).toMatch(
      /^\[1\] Leave types \(leave-types\.md\) — Leave types › Types of leave › Annual leave(?: › [^›]+)?$/,
    );
    expect(fromMarkdown?.href).toMatch(/#section=leave-types\/types-of-leave\/annual-leave(?:\/[a-z0-9-]+)?$/);
    for (const citation of leave.citations) expect(citation.quote).not.toMatch(/\]\(|\[[^\]]*\]\(/);
    expect(await openCitation(fromMarkdown?.href ?? "", "section-markdown.png")).toEqual({
      heading: (fromMarkdown?.label ?? "").split(" › ").at(-1),
      inView: true,
      scripts: 0,
      links: 0,
    });

    // The Word source, the same way.
    const incident = await ask(page, "How fast do I have to report a security incident?");
    const fromDocx = incident.citations.find((citation) => citation.label.includes("(security-incidents.docx)"));
    expect(fromDocx?.label).toMatch(/^\[\d\] Security incidents \(security-incidents\.docx\) — Security incidents › /);
    const section = (fromDocx?.label ?? "").split(" › ").at(-1) ?? "";
    expect(fromDocx?.href).toMatch(/#section=security-incidents\/[a-z0-9-]+$/);
    expect(await openCitation(fromDocx?.href ?? "", "section-docx.png")).toEqual({
      heading: section,
      inView: true,
      scripts: 0,
      links: 0,
    });

    // Approved answers are kept in this space.
    await page.click("#answers-panel summary");
    await page.setInputFiles("#answers-input", answersFile);
    await page.locator('[data-role="approved-answer"]').first().waitFor();
    await screenshot(page, "console-spaces-1280.png");
    await page.close();
  }, 180_000);

  it("renames the space under the same id and URL, and a link to it opens it", async () => {
    const page = await openConsole(DESKTOP, "?space=company-handbook");
    await page.click("#spaces-panel summary");
    expect(await page.inputValue("#rename-space-name")).toBe("Company Handbook");
    await page.fill("#rename-space-name", "HR handbook");
    await page.click("#rename-space-form button");
    await page.locator("#space-name", { hasText: "HR handbook" }).waitFor();
    expect(page.url()).toBe(`${url}/?space=company-handbook`);
    await page.close();

    const reopened = await openConsole(DESKTOP, "?space=company-handbook");
    expect(await reopened.locator("#space-name").textContent()).toBe("HR handbook");
    expect(await reopened.locator("#space-count").textContent()).toBe("· 2 documents");
    // The thread of this space came back with it: its two uploads and two questions.
    expect(await reopened.locator(".message.question").count()).toBe(2);
    await reopened.click("#spaces-panel summary");
    expect(await spaceNames(reopened)).toEqual(["Default", "HR handbook"]);
    expect(await reopened.locator('[data-role="space-documents"]').allTextContents()).toEqual([
      "0 documents",
      "2 documents",
    ]);
    await reopened.close();
  }, 120_000);

  it("switches to another space by its link: its own documents, answers, questions and questionnaires", async () => {
    const page = await openConsole(DESKTOP, "?space=company-handbook");
    await page.click("#spaces-panel summary");
    await Promise.all([
      page.waitForURL(`${url}/`),
      page.click('[data-role="space-link"][data-space-id="console:default"]'),
    ]);
    await waitUntilLoaded(page);
    expect(await page.locator("#space-name").textContent()).toBe("Default");
    await page.waitForSelector('body[data-documents="loaded"]');
    expect(await page.locator('[data-role="document"]').count()).toBe(0);
    expect(await page.locator('[data-role="approved-answer"]').count()).toBe(0);
    expect(await page.locator(".message").count()).toBe(0);
    // Nothing of the handbook space is searched from here.
    expect((await ask(page, "What's the most annual leave I can carry over into next year?")).text).toBe(
      EMPTY_SPACE_ANSWER,
    );
    await page.close();

    // A questionnaire sent from the handbook space is that space's job, and answered from its documents.
    const csv = "Question\nHow fast do I have to report a security incident?\n";
    const submitted = await fetch(`${url}/api/questionnaires?file=q.csv&space=company-handbook`, {
      method: "POST",
      headers: { ...HEADERS, "Content-Type": "application/octet-stream" },
      body: csv,
    });
    expect(submitted.status).toBe(202);
    const { progress } = (await submitted.json()) as { progress: { jobId: string } };
    expect((await folio.questionnaires.getJob(progress.jobId))?.spaceId).toBe("console:company-handbook");
    const jobsIn = async (query: string) =>
      ((await (await fetch(`${url}/api/questionnaires${query}`)).json()) as { questionnaires: unknown[] })
        .questionnaires.length;
    expect(await jobsIn("?space=company-handbook")).toBe(1);
    expect(await jobsIn("")).toBe(0);
    await folio.questionnaires.whenSettled(progress.jobId);
  }, 120_000);

  it("fits the spaces panel into a phone's width", async () => {
    const page = await openConsole(PHONE, "?space=company-handbook");
    await page.click("#spaces-panel summary");
    for (const selector of ["#spaces-panel", "#rename-space-name", "#new-space-name", "#new-space-form button"]) {
      const box = await page.locator(selector).boundingBox();
      expect(box, selector).not.toBeNull();
      expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? PHONE.width + 1)).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await page.locator("#space-name").isVisible()).toBe(true);
    expect((await page.locator("body").boundingBox())?.width).toBe(PHONE.width);
    await screenshot(page, "console-spaces-390.png");
    await page.close();
  }, 120_000);
});
