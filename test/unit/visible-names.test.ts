/**
 * File names, titles and questions from uploads are shown as they are (issue #30): direction controls
 * (U+202E and kin) escaped visibly, zero-width characters dropped, link shapes defanged — in chat
 * messages, citations, the source viewer's title, its download name and Content-Disposition.
 */
import { describe, expect, it } from "vitest";
import { formatApprovedAnswerList } from "../../adapters/slack/slack-approved-answers.js";
import {
  buildIngestProgressText,
  buildIngestResultText as buildSlackIngestResultText,
  escapeDocumentText,
  formatSource,
} from "../../adapters/slack/slack-message-format.js";
import {
  buildClaim,
  buildIngestResultText as buildTeamsIngestResultText,
  literalDocumentText,
} from "../../adapters/teams/teams-message-format.js";
import type { Citation } from "../../src/answer/answer-events.js";
import { labelDocument } from "../../src/domain/document-label.js";
import { showInvisibleCharacters } from "../../src/domain/visible-text.js";
import { contentDisposition } from "../../src/http/source-viewer.js";
import type { IngestResult } from "../../src/ingest/ingest-result.js";

const SPOOFED = "invoice\u202Efdp.exe";

describe("showInvisibleCharacters", () => {
  it("escapes direction controls visibly and drops zero-width characters", () => {
    expect(showInvisibleCharacters(SPOOFED)).toBe("invoice[U+202E]fdp.exe");
    expect(showInvisibleCharacters("a\u2066b\u2069c\u200Fd")).toBe("a[U+2066]b[U+2069]c[U+200F]d");
    expect(showInvisibleCharacters("re\u200Bport\uFEFF.pdf\u00AD")).toBe("report.pdf");
    expect(showInvisibleCharacters("Résumé 2024 — 日本語.pdf")).toBe("Résumé 2024 — 日本語.pdf");
  });

  it("is used for labels, the download name and Content-Disposition", () => {
    expect(labelDocument("Q3\u200B report", SPOOFED)).toBe("Q3 report (invoice[U+202E]fdp.exe)");
    expect(contentDisposition(SPOOFED)).toBe(
      `inline; filename="invoice[U+202E]fdp.exe"; filename*=UTF-8''invoice%5BU%2B202E%5Dfdp.exe`,
    );
  });
});

const result = (file: string): IngestResult =>
  ({ file, documentId: "d1", status: "ingested", pages: 2, chunks: 3 }) as IngestResult;

describe("Slack", () => {
  it("posts file names with links defanged and direction controls shown", () => {
    expect(escapeDocumentText(`evil.ca login ${SPOOFED}`)).toBe("evil[.]ca login invoice[U+202E]fdp[.]exe");
    expect(buildSlackIngestResultText(result("https:evil.ca <b>.pdf"))).toBe(
      "Indexed hxxps:evil[.]ca &lt;b&gt;.pdf: 2 pages, 3 chunks",
    );
    expect(buildIngestProgressText("evil.zip", "parsing")).toBe("Reading evil[.]zip…");
  });

  it("lists approved questions with their links defanged", () => {
    const list = formatApprovedAnswerList([
      {
        id: "a1",
        question: "Reset at http:1.2.3.4/login?",
        file: "answers.xlsx",
        sheet: null,
        row: 4,
        addedBy: null,
        addedAt: new Date("2025-01-02T00:00:00Z"),
      } as never,
    ]);
    expect(list).toContain("• Reset at hxxp:1[.]2[.]3[.]4/login? — _answers.xlsx, row 4; unknown, 2025-01-02_ `a1`");
  });

  it("defangs a source quote's scheme-without-slashes link", () => {
    const citation = {
      n: 1,
      documentId: "d1",
      title: "Travel rules",
      file: "policy.pdf",
      pageStart: 2,
      pageEnd: 2,
      quote: "Sign in at https:evil.ca/login today.",
      url: "https://folio.example/files/d1?sig=x",
    } as Citation;
    expect(formatSource(citation)).toBe(
      "[1] <https://folio.example/files/d1?sig=x|Travel rules (policy.pdf) — p. 2>\n> Sign in at hxxps:evil[.]ca/login today.",
    );
  });
});

describe("Teams", () => {
  it("posts file names as literal Markdown and defangs citation abstracts and names", () => {
    expect(literalDocumentText(`[x](https://evil.ca) ${SPOOFED}`)).toBe(
      "[x]\\(hxxps://evil[.]ca) invoice[U+202E]fdp[.]exe",
    );
    expect(buildTeamsIngestResultText(result("evil.ca.pdf"))).toBe("Indexed evil[.]ca.pdf: 2 pages, 3 chunks");
    const claim = buildClaim({
      n: 2,
      documentId: "d2",
      title: "Visit evil.zip",
      file: SPOOFED,
      pageStart: 1,
      pageEnd: 1,
      quote: "Log in at https:evil.ca/login.",
      url: "https://folio.example/files/d2",
    } as Citation);
    expect(claim.appearance.abstract).toBe("Log in at hxxps:evil[.]ca/login.");
    expect(claim.appearance.name).toBe("Visit evil[.]zip (invoice[U+202E]fdp[.]exe) — p. 1");
  });
});
