import { describe, expect, it } from "vitest";
import {
  buildAnswerActivity,
  buildAnswerText,
  buildClaim,
  buildStreamingActivity,
  citationName,
  TEAMS_CITATION_LIMITS,
  truncateText,
} from "../../adapters/teams/teams-message-format.js";
import type { Answer, Citation } from "../../src/answer/answer-events.js";

function citation(overrides: Partial<Citation> = {}): Citation {
  return {
    n: 1,
    documentId: "doc-1",
    title: "PerksPlus Health and Wellness Reimbursement Program",
    file: "contoso-perksplus.pdf",
    pageStart: 3,
    pageEnd: 3,
    quote: "Employees can expense up to $1000 for fitness-related programs.",
    url: "https://folio.example/files/doc-1?exp=1&sig=ab#page=3",
    ...overrides,
  };
}

function answer(overrides: Partial<Answer> = {}): Answer {
  return {
    requestId: "req-1",
    answer: "Up to $1000 a year [1].",
    noContext: false,
    citations: [citation()],
    timingsMs: {},
    ...overrides,
  };
}

describe("Teams citations", () => {
  it("renders a citation as a Claim with the page in its name, the quote as abstract and the page URL", () => {
    expect(buildClaim(citation())).toEqual({
      "@type": "Claim",
      position: 1,
      appearance: {
        "@type": "DigitalDocument",
        name: "PerksPlus Health and Wellness Reimbursement… (contoso-perksplus.pdf) — p. 3",
        abstract: "Employees can expense up to $1000 for fitness-related programs.",
        url: "https://folio.example/files/doc-1?exp=1&sig=ab#page=3",
        image: { "@type": "ImageObject", name: "PDF" },
      },
    });
  });

  it("truncates long titles and quotes to Teams' limits instead of failing, keeping the pages", () => {
    const long = citation({
      title: "A very long title ".repeat(20),
      quote: "word ".repeat(200),
      pageStart: 12,
      pageEnd: 14,
    });
    const claim = buildClaim(long);
    expect(claim.appearance.name.length).toBeLessThanOrEqual(TEAMS_CITATION_LIMITS.name);
    expect(claim.appearance.name).toMatch(/^A very long title.*… \(contoso-perksplus\.pdf\) — pp\. 12–14$/);
    expect(claim.appearance.abstract.length).toBeLessThanOrEqual(TEAMS_CITATION_LIMITS.abstract);
    expect(claim.appearance.abstract.endsWith("…")).toBe(true);
  });

  it("never cuts an emoji in half", () => {
    const text = `${"a".repeat(78)}😀😀😀`;
    const cut = truncateText(text, 80);
    expect(cut.length).toBeLessThanOrEqual(80);
    expect(cut).toBe(`${"a".repeat(78)}…`);
  });

  it("falls back to the file name and shows no pages for formats without them", () => {
    expect(citationName(citation({ title: " ", file: "budget.xlsx", pageStart: null, pageEnd: null }))).toBe(
      "budget.xlsx",
    );
  });

  it("builds the final message with the AI label, citations, feedback loop and closing stream info", () => {
    const activity = buildAnswerActivity(answer(), { streamId: "m7" });
    expect(activity).toMatchObject({
      type: "message",
      text: "Up to $1000 a year [1].",
      channelData: { feedbackLoopEnabled: true },
    });
    expect(activity.entities?.[0]).toEqual({ type: "streaminfo", streamType: "final", streamId: "m7" });
    expect(activity.entities?.[1]).toMatchObject({
      type: "https://schema.org/Message",
      "@type": "Message",
      additionalType: ["AIGeneratedContent"],
      citation: [{ position: 1 }],
    });
  });

  it("lists the closest sources with their markers when the documents do not hold the answer", () => {
    const text = buildAnswerText(
      answer({ noContext: true, answer: "The documents do not say.", citations: [citation(), citation({ n: 2 })] }),
    );
    expect(text).toBe(
      [
        "The documents do not say.",
        "",
        "**Closest sources:**",
        "- PerksPlus Health and Wellness Reimbursement… (contoso-perksplus.pdf) — p. 3 [1]",
        "- PerksPlus Health and Wellness Reimbursement… (contoso-perksplus.pdf) — p. 3 [2]",
      ].join("\n"),
    );
  });

  it("lists a citation the text does not mark under further sources, so Teams can show it", () => {
    const text = buildAnswerText(
      answer({
        answer: "Up to $1000 a year [1].",
        citations: [citation(), citation({ n: 2, pageStart: 5, pageEnd: 5 })],
      }),
    );
    expect(text).toBe(
      [
        "Up to $1000 a year [1].",
        "",
        "**Further sources:**",
        "- PerksPlus Health and Wellness Reimbursement… (contoso-perksplus.pdf) — p. 5 [2]",
      ].join("\n"),
    );
  });

  it("numbers streaming updates and carries the stream id", () => {
    expect(buildStreamingActivity("streaming", "Up to", { streamId: "m1", sequence: 2 })).toEqual({
      type: "typing",
      text: "Up to",
      entities: [{ type: "streaminfo", streamType: "streaming", streamId: "m1", streamSequence: 2 }],
    });
  });
});

describe("text quoted from documents in Teams markdown", () => {
  it("shows a link lure and bare URLs as text, keeping the [n] markers", () => {
    const lure = answer({
      answer:
        "Per policy [1], [Verify your account here](https://evil.example/login). Or visit www.evil.example or <https://evil.example>.",
    });
    expect(buildAnswerText(lure)).toBe(
      "Per policy [1], [Verify your account here]\\(hxxps://evil[.]example/login). Or visit www[.]evil[.]example or \\<hxxps://evil[.]example\\>.",
    );
  });

  it("links only the citation's own URL; a URL in the quote is text", () => {
    const claim = buildClaim(citation({ quote: "Reset it at https://evil.example/reset now." }));
    expect(claim.appearance.url).toBe(citation().url);
    expect(claim.appearance.abstract).toBe("Reset it at hxxps://evil[.]example/reset now.");
  });

  it("shows a URL in a document's title as text", () => {
    expect(buildClaim(citation({ title: "Claim at www.evil.example/claim" })).appearance.name).toBe(
      "Claim at www[.]evil[.]example/claim (contoso-perksplus.pdf) — p. 3",
    );
  });

  it("makes streamed text literal too", () => {
    expect(
      buildStreamingActivity("streaming", "See [here](https://evil.example).", { streamId: "s1", sequence: 2 }).text,
    ).toBe("See [here]\\(hxxps://evil[.]example).");
  });
});
