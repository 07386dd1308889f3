/**
 * Where a citation points, as people read it and as a link finds it (issue #41): pages for a PDF, the
 * heading path for a Markdown, HTML, Word or text source; the section's anchor in the signed link is the
 * id the viewer's sanitised rendering gives that section, and the rendering keeps nothing live.
 */
import { describe, expect, it } from "vitest";
import { formatSource } from "../../adapters/slack/slack-message-format.js";
import { citationName } from "../../adapters/teams/teams-message-format.js";
import { parseHtml } from "../../ingestion/parse-text.js";
import type { Citation } from "../../src/answer/answer-events.js";
import { describeSection, describeSourcePlace, sectionAnchor } from "../../src/domain/source-place.js";
import { renderSections } from "../../src/http/section-rendering.js";
import { createLinkSigner } from "../../src/links/signed-links.js";
import { describeSource } from "../../src/questionnaire/answer/row-answer.js";

const LEAVE = ["Leave types", "Types of leave", "Annual leave"];

describe("describeSourcePlace", () => {
  it("names pages when there are pages, else the section", () => {
    expect(describeSourcePlace({ pageStart: 3, pageEnd: 3 })).toBe("p. 3");
    expect(describeSourcePlace({ pageStart: 3, pageEnd: 4, section: LEAVE })).toBe("pp. 3–4");
    expect(describeSourcePlace({ pageStart: null, pageEnd: null, section: LEAVE })).toBe(
      "Leave types › Types of leave › Annual leave",
    );
    expect(describeSourcePlace({ pageStart: null, pageEnd: null })).toBe("");
    expect(describeSection(["  Leave\n types ", "", "Annual leave"])).toBe("Leave types › Annual leave");
  });
});

describe("sectionAnchor", () => {
  it("writes a heading path as a fragment of lower-case words, in any script", () => {
    expect(sectionAnchor(LEAVE)).toBe("section=leave-types/types-of-leave/annual-leave");
    expect(sectionAnchor(["Résumé & CV", "What is an incident?"])).toBe("section=resume-cv/what-is-an-incident");
    expect(sectionAnchor(["休暇", "年次休暇"])).toBe("section=休暇/年次休暇");
    expect(sectionAnchor([])).toBe("");
  });

  it("ends a signed link to a section, percent-encoded where it must be", () => {
    const signer = createLinkSigner({
      secret: "s".repeat(32),
      publicUrl: "https://folio.example",
      ttlSeconds: 60,
      now: () => 0,
    });
    expect(signer.signDocumentUrl({ documentId: "d1", section: LEAVE })).toMatch(
      /^https:\/\/folio\.example\/files\/d1\?exp=60&sig=[0-9a-f]{64}#section=leave-types\/types-of-leave\/annual-leave$/,
    );
    expect(signer.signDocumentUrl({ documentId: "d1", section: ["休暇"] })).toMatch(/#section=%E4%BC%91%E6%9A%87$/);
    // A page wins: a PDF passage under a heading still opens at its page.
    expect(signer.signDocumentUrl({ documentId: "d1", page: 7, section: LEAVE })).toMatch(/#page=7$/);
    expect(signer.signDocumentUrl({ documentId: "d1", section: [] })).toMatch(/sig=[0-9a-f]{64}$/);
  });
});

describe("renderSections", () => {
  it("renders sections with the ids links find, and nothing of the original markup", () => {
    const { blocks } = parseHtml(
      [
        "<html><head><title>Leave</title><script>alert(1)</script></head><body>",
        '<h1 onclick="x()">Leave types</h1><p>See the <a href="https://evil.example/x">leave chart</a>.</p>',
        "<h2>Annual leave</h2><p>Carry over <b>240</b> hours.<img src=x onerror=alert(2)></p>",
        "<table><tr><th>Years</th><th>Hours</th></tr><tr><td>&lt;3</td><td>4</td></tr></table>",
        "<h2>Annual leave</h2><p>A second section of the same name.</p>",
        "</body></html>",
      ].join(""),
      "leave.html",
    );
    expect(renderSections(blocks)).toBe(
      [
        '<section id="section=leave-types">',
        "<h1>Leave types</h1>",
        "<p>See the leave chart.</p>",
        "</section>",
        '<section id="section=leave-types/annual-leave">',
        "<h2>Annual leave</h2>",
        "<p>Carry over 240 hours.</p>",
        '<div class="table"><table><thead><tr><th>Years</th><th>Hours</th></tr></thead><tbody><tr><td>&#60;3</td><td>4</td></tr></tbody></table></div>',
        "</section>",
        "<section>",
        "<h2>Annual leave</h2>",
        "<p>A second section of the same name.</p>",
        "</section>",
      ].join("\n"),
    );
  });
});

describe("chat citations name the section of a source without pages", () => {
  const citation: Citation = {
    n: 1,
    documentId: "d1",
    title: "Leave types",
    file: "leave-types.md",
    pageStart: null,
    pageEnd: null,
    section: LEAVE,
    quote: "You can carry over a maximum of 240 annual leave hours.",
    url: "https://folio.example/files/d1?exp=1&sig=ab#section=leave-types/types-of-leave/annual-leave",
  };

  it("in Slack: the section after the document's name, inside the link", () => {
    expect(formatSource(citation)).toBe(
      "[1] <https://folio.example/files/d1?exp=1&amp;sig=ab#section=leave-types/types-of-leave/annual-leave|Leave types (leave-types.md) — Leave types › Types of leave › Annual leave>\n> You can carry over a maximum of 240 annual leave hours.",
    );
  });

  it("in Teams: the section, or its last heading when the path is long, within the title line", () => {
    expect(citationName({ ...citation, section: ["Leave types", "Annual leave"] })).toBe(
      "Leave types (leave-types[.]md) — Leave types › Annual leave",
    );
    expect(citationName(citation)).toBe("Leave types (leave-types[.]md) — Annual leave");
  });
});

describe("a questionnaire's Sources column", () => {
  it("names the page, or the section of a source without pages", () => {
    const source = { n: 1, documentId: "d1", title: "Leave types", file: "leave-types.md", url: "u" };
    expect(describeSource({ ...source, pageStart: null, pageEnd: null, section: LEAVE })).toBe(
      "Leave types (leave-types.md), Leave types › Types of leave › Annual leave",
    );
    expect(describeSource({ ...source, file: "leave.pdf", pageStart: 7, pageEnd: 8 })).toBe(
      "Leave types (leave.pdf), pp. 7–8",
    );
    // A row answered before sections were kept has none: the document's name alone.
    expect(describeSource({ ...source, pageStart: null, pageEnd: null })).toBe("Leave types (leave-types.md)");
  });
});
