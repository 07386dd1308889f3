import { describe, expect, it } from "vitest";
import {
  buildAnswerMessages,
  buildApologyText,
  buildIngestResultText,
  buildStreamingText,
  decodeFeedbackValue,
  encodeFeedbackValue,
  escapeMrkdwn,
  feedbackRating,
  formatPages,
  formatSource,
  markdownToMrkdwn,
  SLACK_LIMITS,
  splitMrkdwn,
} from "../../adapters/slack/slack-message-format.js";
import type { Answer, Citation } from "../../src/answer/answer-events.js";

const citation = (n: number, overrides: Partial<Citation> = {}): Citation => ({
  n,
  documentId: `doc-${n}`,
  title: `Handbook ${n}`,
  file: `handbook-${n}.pdf`,
  pageStart: 3,
  pageEnd: 3,
  quote: "Employees may expense up to $1000 for fitness-related programs.",
  url: `https://folio.example/files/doc-${n}?exp=1&sig=ab#page=3`,
  ...overrides,
});

const answerWith = (text: string, citations: Citation[] = [], noContext = false): Answer => ({
  requestId: "req-1",
  answer: text,
  noContext,
  citations,
  timingsMs: {},
});

describe("escaping and mrkdwn", () => {
  it("escapes Slack's control characters", () => {
    expect(escapeMrkdwn("a & b <script> c > d")).toBe("a &amp; b &lt;script&gt; c &gt; d");
  });

  it("converts bold and headings, escaping everything else and linking nothing", () => {
    expect(markdownToMrkdwn("## Cost\n**Up to** $1000 & more [1] see [the policy](https://x.test/a?b=1&c=2)")).toBe(
      "*Cost*\n*Up to* $1000 &amp; more [1] see [the policy](hxxps://x[.]test/a?b=1&amp;c=2)",
    );
  });

  it("shows a quoted link lure and bare URLs as text, never as Slack links", () => {
    expect(
      markdownToMrkdwn(
        "Per policy [1], [Verify your account here](https://evil.example/login). Or visit www.evil.example, evil.com/reset or <https://evil.example|click>.",
      ),
    ).toBe(
      "Per policy [1], [Verify your account here](hxxps://evil[.]example/login). Or visit www[.]evil[.]example, evil[.]com/reset or &lt;hxxps://evil[.]example|click&gt;.",
    );
  });

  it("links only the source's own signed URL in a source line; a URL in its quote is text", () => {
    expect(formatSource(citation(1, { quote: "Reset it at https://evil.example/reset now." }))).toBe(
      "[1] <https://folio.example/files/doc-1?exp=1&amp;sig=ab#page=3|Handbook 1 (handbook-1.pdf) — p. 3>\n> Reset it at hxxps://evil[.]example/reset now.",
    );
  });

  it("formats pages and a source line with a short quote", () => {
    expect(formatPages(3, 3)).toBe("p. 3");
    expect(formatPages(3, 5)).toBe("pp. 3–5");
    expect(formatPages(null, null)).toBe("");
    expect(formatSource(citation(1, { title: "A | B <c>" }))).toBe(
      "[1] <https://folio.example/files/doc-1?exp=1&amp;sig=ab#page=3|A ¦ B &lt;c&gt; (handbook-1.pdf) — p. 3>\n> Employees may expense up to $1000 for fitness-related programs.",
    );
    const long = formatSource(citation(2, { pageStart: null, pageEnd: null, quote: "word ".repeat(100) }));
    expect(
      long.startsWith(
        "[2] <https://folio.example/files/doc-2?exp=1&amp;sig=ab#page=3|Handbook 2 (handbook-2.pdf)>\n> word word",
      ),
    ).toBe(true);
    expect(long.endsWith("word…")).toBe(true);
    expect(long.split("\n")[1]?.length).toBeLessThanOrEqual(2 + 160);
  });
});

describe("splitMrkdwn", () => {
  it("keeps short text whole and prefers paragraph breaks", () => {
    expect(splitMrkdwn("short", 100)).toEqual(["short"]);
    const text = `${"a".repeat(60)}\n\n${"b".repeat(60)}`;
    expect(splitMrkdwn(text, 100)).toEqual(["a".repeat(60), "b".repeat(60)]);
  });

  it("never cuts through an entity, a link or an emoji", () => {
    const entity = `${"x".repeat(97)}&amp;yyy`;
    expect(splitMrkdwn(entity, 100)).toEqual(["x".repeat(97), "&amp;yyy"]);
    const link = `${"x".repeat(90)}<https://a.test/${"p".repeat(30)}|label>`;
    expect(splitMrkdwn(link, 100)).toEqual(["x".repeat(90), `<https://a.test/${"p".repeat(30)}|label>`]);
    const emoji = `${"x".repeat(99)}😀tail`;
    expect(splitMrkdwn(emoji, 100)).toEqual(["x".repeat(99), "😀tail"]);
  });

  it("splits a long answer into pieces under the section limit that keep every word", () => {
    const words = Array.from({ length: 2_000 }, (_, index) => `word${index}`);
    const pieces = splitMrkdwn(words.join(" "));
    // 16,889 characters in pieces of at most 3,000.
    expect(pieces.length).toBe(6);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    expect(pieces.join(" ").split(" ")).toEqual(words);
  });
});

describe("buildAnswerMessages", () => {
  it("renders answer, sources and feedback buttons in one message", () => {
    const [message, ...rest] = buildAnswerMessages(answerWith("Up to $1000 [1].", [citation(1)]), "slack:T:C");
    expect(rest).toEqual([]);
    expect(message?.text).toBe("Up to $1000 [1].");
    expect(message?.blocks.map((block) => block.type)).toEqual(["section", "divider", "section", "actions"]);
    expect(message?.blocks[2]).toEqual({
      type: "section",
      text: {
        type: "mrkdwn",
        text: "*Sources*\n[1] <https://folio.example/files/doc-1?exp=1&amp;sig=ab#page=3|Handbook 1 (handbook-1.pdf) — p. 3>\n> Employees may expense up to $1000 for fitness-related programs.",
      },
    });
    const actions = message?.blocks[3];
    expect(
      actions?.type === "actions" && actions.elements.map((element) => [element.action_id, element.value]),
    ).toEqual([
      ["folio_feedback_up", '{"a":"req-1","s":"slack:T:C"}'],
      ["folio_feedback_down", '{"a":"req-1","s":"slack:T:C"}'],
    ]);
  });

  it("labels the sources of a no-context answer as the closest ones", () => {
    const [message] = buildAnswerMessages(answerWith("Not in the documents.", [citation(1)], true), "s");
    const sources = message?.blocks[2];
    expect(sources?.type === "section" && sources.text.text.startsWith("*Closest sources*\n")).toBe(true);
  });

  it("splits a huge answer over several messages within Slack's limits", () => {
    const huge = Array.from({ length: 30_000 }, (_, index) => `w${index}`).join(" ");
    const citations = Array.from({ length: 60 }, (_, index) => citation(index + 1));
    const messages = buildAnswerMessages(answerWith(huge, citations), "s");
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) {
      expect(message.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocksPerMessage);
      expect(message.text.length).toBeLessThanOrEqual(SLACK_LIMITS.messageText);
      expect(message.text.length).toBeGreaterThan(0);
      for (const block of message.blocks) {
        if (block.type === "section") expect(block.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
      }
    }
    const answerText = messages
      .flatMap((message) => message.blocks)
      .filter((block) => block.type === "section")
      .map((block) => (block.type === "section" ? block.text.text : ""))
      .filter((text) => !text.startsWith("*Sources*") && !text.startsWith("["));
    expect(answerText.join(" ")).toBe(huge);
    const sourceLines = messages
      .flatMap((message) => message.blocks)
      .flatMap((block) => (block.type === "section" ? block.text.text.split("\n") : []))
      .filter((line) => /^\[\d+\] </.test(line));
    expect(sourceLines).toHaveLength(60);
    expect(messages.at(-1)?.blocks.at(-1)?.type).toBe("actions");
  });
});

describe("short texts", () => {
  it("reports ingestion outcomes", () => {
    expect(buildIngestResultText({ file: "a.pdf", documentId: "d", status: "ingested", pages: 4, chunks: 2 })).toBe(
      "Indexed a.pdf: 4 pages, 2 chunks",
    );
    expect(buildIngestResultText({ file: "a.csv", documentId: "d", status: "ingested", pages: null, chunks: 1 })).toBe(
      "Indexed a.csv: 1 chunk",
    );
    expect(
      buildIngestResultText({
        file: "a.pdf",
        documentId: "d2",
        status: "ingested",
        pages: 4,
        chunks: 2,
        searchableBy: "keywords",
        meaningPending: true,
        replaced: [{ documentId: "d1", title: "A", createdAt: "2026-11-20T09:00:00.000Z" }],
      }),
    ).toBe(
      "Indexed a.pdf: 4 pages, 2 chunks. Replaced the earlier version (uploaded 2026-11-20): links in earlier answers now say so and open this one. Searchable by keywords now, by meaning in a few minutes.",
    );
    expect(
      buildIngestResultText({
        file: "a.pdf",
        documentId: "d",
        status: "ingested",
        pages: 4,
        chunks: 2,
        searchableBy: "keywords",
      }),
    ).toBe("Indexed a.pdf: 4 pages, 2 chunks");
    // Edited as its passages are embedded after the reply, then when they are.
    const pending = {
      file: "a.pdf",
      documentId: "d",
      status: "ingested",
      pages: 83,
      chunks: 310,
      searchableBy: "keywords",
      meaningPending: true,
    } as const;
    expect(buildIngestResultText(pending, { state: "embedding", done: 120, total: 310 })).toBe(
      "Indexed a.pdf: 83 pages, 310 chunks. Searchable by keywords now; embedding 120/310 passages for search by meaning…",
    );
    expect(buildIngestResultText(pending, { state: "ready" })).toBe(
      "Indexed a.pdf: 83 pages, 310 chunks. Searchable by keywords and by meaning.",
    );
    expect(buildIngestResultText(pending, { state: "failed" })).toBe(
      "Indexed a.pdf: 83 pages, 310 chunks. Searchable by keywords; reading it for meaning failed, and Folio tries again when it restarts.",
    );
    expect(buildIngestResultText({ file: "a.pdf", documentId: "d", status: "unchanged", pages: 1, chunks: 1 })).toBe(
      "a.pdf is already indexed (1 page, 1 chunk) — nothing changed.",
    );
    expect(
      buildIngestResultText({
        file: "<b>.pdf",
        documentId: null,
        status: "rejected",
        pages: null,
        chunks: 0,
        error: { code: "pdf_encrypted", message: "This PDF is password-protected." },
      }),
    ).toBe("Could not index &lt;b&gt;.pdf: This PDF is password-protected.");
  });

  it("streams escaped text and apologises with the reference id", () => {
    expect(buildStreamingText("a < b")).toBe("a &lt; b …");
    expect(buildStreamingText("x".repeat(50_000)).length).toBeLessThanOrEqual(SLACK_LIMITS.messageText);
    expect(buildApologyText("req-9")).toBe("Sorry — something went wrong while answering. Reference: `req-9`");
  });

  it("round-trips feedback values and rejects junk", () => {
    expect(decodeFeedbackValue(encodeFeedbackValue({ answerId: "r", spaceId: "s" }))).toEqual({
      answerId: "r",
      spaceId: "s",
    });
    expect(decodeFeedbackValue("not json")).toBeNull();
    expect(decodeFeedbackValue('{"a":1}')).toBeNull();
  });
});

describe("native feedback", () => {
  it("renders Slack's feedback_buttons in a context_actions block whose values carry the rating", () => {
    const [message] = buildAnswerMessages(answerWith("Up to $1000 [1].", [citation(1)]), "slack:T:C", "native");
    expect(message?.blocks.map((block) => block.type)).toEqual(["section", "divider", "section", "context_actions"]);
    expect(message?.blocks[3]).toEqual({
      type: "context_actions",
      block_id: "folio_feedback",
      elements: [
        {
          type: "feedback_buttons",
          action_id: "folio_feedback",
          positive_button: {
            text: { type: "plain_text", text: "👍", emoji: true },
            accessibility_label: "Mark this answer as helpful",
            value: '{"a":"req-1","s":"slack:T:C","r":"up"}',
          },
          negative_button: {
            text: { type: "plain_text", text: "👎", emoji: true },
            accessibility_label: "Mark this answer as not helpful",
            value: '{"a":"req-1","s":"slack:T:C","r":"down"}',
          },
        },
      ],
    });
  });

  it("reads the rating from the native element's value and from the ordinary buttons' action ids", () => {
    const value = decodeFeedbackValue('{"a":"req-1","s":"slack:T:C","r":"down"}');
    expect(value).toEqual({ answerId: "req-1", spaceId: "slack:T:C", rating: "down" });
    expect(value && feedbackRating("folio_feedback", value)).toBe("down");
    const plain = { answerId: "req-1", spaceId: "s" };
    expect(feedbackRating("folio_feedback_up", plain)).toBe("up");
    expect(feedbackRating("folio_feedback_down", plain)).toBe("down");
    expect(feedbackRating("folio_feedback", plain)).toBeNull();
    expect(feedbackRating("something_else", plain)).toBeNull();
  });
});
