/**
 * Markdown and plain text read as people read them (issue #41): a link is its text, never its Markdown
 * syntax; emphasis and code marks go; headings — "#", underlined, or a title line in capitals — give
 * each passage its section path, which the chunker keeps as the passage's provenance.
 */
import { describe, expect, it } from "vitest";
import { chunkDocument } from "../../ingestion/chunker.js";
import { createEstimatedTokenCounter } from "../../ingestion/estimated-token-counter.js";
import { htmlToBlocks } from "../../ingestion/html-blocks.js";
import { isReferenceDefinition, markdownInlineText, withoutLinkSyntax } from "../../ingestion/markdown-inline.js";
import { parseMarkdown, parsePlainText } from "../../ingestion/parse-text.js";

describe("markdownInlineText", () => {
  it.each([
    [
      "Federal employees get [11 local holidays](https://www.opm.gov/holidays) a year.",
      "Federal employees get 11 local holidays a year.",
    ],
    ['See [the chart](https://docs.example/x?a=(1) "Leave chart") first.', "See the chart first."],
    ["![Leave calendar](images/cal.png) below", "Leave calendar below"],
    ["Read the [policy][leave-policy] and [FAQ][].", "Read the policy and FAQ."],
    ["Mail <https://mail.google.com> or <mailto:hr@example.gov>.", "Mail https://mail.google.com or hr@example.gov."],
    ["For **general uses and vacation**, use _annual leave_.", "For general uses and vacation, use annual leave."],
    ["Run `npm run [build](x)` then ~~wait~~ go.", "Run npm run [build](x) then wait go."],
    ["Footnote<sup>1</sup> and a<br>break", "Footnote1 and a break"],
    ["snake_case_name and 5 * 3 * 2 stay", "snake_case_name and 5 * 3 * 2 stay"],
    ["An escaped \\*star\\* and a [`code` link](#x)", "An escaped *star* and a code link"],
    ["182 hours \\= 336 hours \\- 240", "182 hours = 336 hours - 240"],
    ["the `<project>-feds` team and <organization-name>", "the <project>-feds team and <organization-name>"],
    [
      "deliberation &ndash; and R&amp;D &#8212; not &bogus; or `&amp;`",
      "deliberation – and R&D — not &bogus; or &amp;",
    ],
  ])("%s", (markdown, text) => {
    expect(markdownInlineText(markdown)).toBe(text);
  });

  it("reads only the link syntax in Word and HTML text written in Markdown, leaving its asterisks alone", () => {
    const typed =
      "Report it to the [GSA IT Service Desk](mailto:itservicedesk@gsa.gov?subject=Security Incident) *now*.";
    expect(withoutLinkSyntax(typed)).toBe("Report it to the GSA IT Service Desk *now*.");
    const { blocks } = htmlToBlocks(`<h1>Incidents</h1><p>${typed}</p>`);
    expect(blocks.map((block) => (block.kind === "text" ? block.text : ""))).toEqual([
      "Incidents",
      "Report it to the GSA IT Service Desk *now*.",
    ]);
  });

  it("recognises a reference definition line", () => {
    expect(isReferenceDefinition('[leave-policy]: https://example.gov/leave "Leave"')).toBe(true);
    expect(isReferenceDefinition("[Annual leave](#annual-leave) is earned")).toBe(false);
  });
});

describe("parseMarkdown", () => {
  const markdown = [
    "Leave types",
    "===========",
    "",
    "Current employees can use this [leave comparison chart](https://docs.google.com/x).",
    "",
    "## Annual leave",
    "",
    "* [Annual Leave](#annual-leave) accrues each pay period.",
    "* Up to **240",
    "  hours** carry over.",
    "",
    "---",
    "",
    "Sick leave",
    "----------",
    "",
    "| Service | Hours per pay period |",
    "| --- | --- |",
    "| Less than [3 years](#x) | 4 |",
    "",
    "[x]: https://example.gov/x",
  ].join("\n");

  it("reads headings (# and underlined), links as their text, lists as bullets, and drops breaks and definitions", () => {
    const document = parseMarkdown(markdown, "leave-types.md");
    expect(document.title).toBe("Leave types");
    expect(document.blocks).toEqual([
      { kind: "text", text: "Leave types", headingPath: ["Leave types"], isHeading: true },
      { kind: "text", text: "Current employees can use this leave comparison chart.", headingPath: ["Leave types"] },
      { kind: "text", text: "Annual leave", headingPath: ["Leave types", "Annual leave"], isHeading: true },
      {
        kind: "text",
        // Emphasis read over the line break it runs across.
        text: "• Annual Leave accrues each pay period.\n• Up to 240\n  hours carry over.",
        headingPath: ["Leave types", "Annual leave"],
      },
      { kind: "text", text: "Sick leave", headingPath: ["Leave types", "Sick leave"], isHeading: true },
      {
        kind: "table",
        header: ["Service", "Hours per pay period"],
        rows: [["Less than 3 years", "4"]],
        headingPath: ["Leave types", "Sick leave"],
        firstRow: 1,
      },
    ]);
  });

  it("gives every passage the heading path of its section", () => {
    const chunks = chunkDocument(parseMarkdown(markdown, "leave-types.md"), {
      maxTokens: 256,
      overlapTokens: 0,
      tokenCounter: createEstimatedTokenCounter(),
    });
    expect(chunks.map((chunk) => [chunk.kind, chunk.provenance.headingPath])).toEqual([
      ["text", ["Leave types"]],
      ["text", ["Leave types", "Annual leave"]],
      // A section whose only text is its heading, before its table (as the chunker has always kept it).
      ["text", ["Leave types", "Sick leave"]],
      ["table", ["Leave types", "Sick leave"]],
    ]);
    expect(chunks.map((chunk) => chunk.text).join("\n")).not.toMatch(/\]\(|https?:/);
  });
});

describe("parsePlainText", () => {
  it("reads underlined and capital title lines as headings, and is named by its opening heading", () => {
    const text = [
      "EMPLOYEE HANDBOOK",
      "",
      "Welcome to the team.",
      "",
      "Annual leave",
      "------------",
      "",
      "You earn four hours each pay period.",
      "",
      "PLEASE READ THIS CAREFULLY, IT MATTERS.",
    ].join("\n");
    const document = parsePlainText(text, "handbook.txt");
    expect(document.title).toBe("EMPLOYEE HANDBOOK");
    expect(document.blocks).toEqual([
      { kind: "text", text: "EMPLOYEE HANDBOOK", headingPath: ["EMPLOYEE HANDBOOK"], isHeading: true },
      { kind: "text", text: "Welcome to the team.", headingPath: ["EMPLOYEE HANDBOOK"] },
      { kind: "text", text: "Annual leave", headingPath: ["EMPLOYEE HANDBOOK", "Annual leave"], isHeading: true },
      {
        kind: "text",
        text: "You earn four hours each pay period.",
        headingPath: ["EMPLOYEE HANDBOOK", "Annual leave"],
      },
      // A shouted sentence is no heading.
      {
        kind: "text",
        text: "PLEASE READ THIS CAREFULLY, IT MATTERS.",
        headingPath: ["EMPLOYEE HANDBOOK", "Annual leave"],
      },
    ]);
  });

  it("keeps the file name as the title of text that opens with a paragraph", () => {
    expect(parsePlainText("Just some notes.\n\nMore notes.", "notes.txt").title).toBe("notes");
  });
});
