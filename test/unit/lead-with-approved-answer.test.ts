/**
 * Chat answers lead with a matching approved answer, labelled with its origin, and the documents'
 * answer and citations follow unchanged; follow-ups and a failing library leave the answer as it was.
 */
import { describe, expect, it } from "vitest";
import type { Answer, AnswerContext, AnswerEvent } from "../../src/answer/answer-events.js";
import type { AnswerService } from "../../src/answer/answer-question.js";
import type { ApprovedAnswerSource } from "../../src/answer/approved-answer-source.js";
import {
  describeApprovedAnswerOrigin,
  leadWithApprovedAnswers,
} from "../../src/answer-library/lead-with-approved-answer.js";
import { silentLogger } from "../../src/logger.js";

const citation = {
  n: 1,
  documentId: "d1",
  title: "Security policy",
  file: "policy.pdf",
  pageStart: 4,
  pageEnd: 4,
  quote: "All volumes are encrypted with AES-256.",
  url: "http://folio.local/files/d1#page=4",
};

const documentAnswer: Answer = {
  requestId: "r1",
  answer: "All volumes are encrypted with AES-256 [1].",
  noContext: false,
  citations: [citation],
  timingsMs: { total: 5 },
};

const documents: AnswerService = {
  async *answerQuestion() {
    yield { type: "status", status: "searching", message: "Searching your documents…" };
    yield { type: "delta", text: documentAnswer.answer };
    yield { type: "citations", citations: [citation] };
    yield { type: "done", answer: documentAnswer };
  },
};

function sourceOf(bySpace: Record<string, number>, asked: string[]): ApprovedAnswerSource {
  return {
    async match(spaceId, question) {
      asked.push(`${spaceId}: ${question}`);
      const similarity = bySpace[spaceId];
      if (similarity === undefined) return undefined;
      return {
        answer: `Yes (${spaceId}).`,
        origin: { file: "review.xlsx", sheet: "Security", row: 5, addedBy: "U42", addedAt: "2026-11-02T10:00:00.000Z" },
        similarity,
      };
    },
  };
}

async function collect(events: AsyncIterable<AnswerEvent>): Promise<AnswerEvent[]> {
  const collected: AnswerEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

const context = (history: AnswerContext["history"] = []): AnswerContext => ({
  spaceIds: ["slack:T1:C1", "library"],
  history,
  requestId: "r1",
});

describe("leading with an approved answer", () => {
  it("shows the best matching approved answer first, labelled with its origin, then the documents' answer", async () => {
    const asked: string[] = [];
    const service = leadWithApprovedAnswers(
      documents,
      sourceOf({ "slack:T1:C1": 0.95, library: 0.97 }, asked),
      silentLogger,
    );
    const events = await collect(service.answerQuestion("Do you encrypt data at rest?", context()));
    const lead =
      "Approved answer: Yes (library).\n(from review.xlsx, sheet Security, row 5; added by U42 on 2026-11-02)\n\nFrom the documents: ";
    expect(events.map((event) => event.type)).toEqual(["delta", "status", "delta", "citations", "done"]);
    expect(events[0]).toEqual({ type: "delta", text: lead });
    const done = events.at(-1);
    expect(done).toEqual({
      type: "done",
      answer: {
        ...documentAnswer,
        answer: `${lead}All volumes are encrypted with AES-256 [1].`,
        approvedAnswer: {
          answer: "Yes (library).",
          origin: {
            file: "review.xlsx",
            sheet: "Security",
            row: 5,
            addedBy: "U42",
            addedAt: "2026-11-02T10:00:00.000Z",
          },
          similarity: 0.97,
          spaceId: "library",
        },
      },
    });
    expect(asked).toEqual(["slack:T1:C1: Do you encrypt data at rest?", "library: Do you encrypt data at rest?"]);
  });

  it("answers from the documents alone when nothing matches, and when the library fails", async () => {
    const asked: string[] = [];
    const unmatched = await collect(
      leadWithApprovedAnswers(documents, sourceOf({}, asked), silentLogger).answerQuestion("Q?", context()),
    );
    expect(unmatched.at(-1)).toEqual({ type: "done", answer: documentAnswer });

    const inThread = await collect(
      leadWithApprovedAnswers(documents, sourceOf({ library: 0.99 }, asked), silentLogger).answerQuestion(
        "Do you encrypt data in transit?",
        context([{ role: "user", text: "Do you encrypt data at rest?" }]),
      ),
    );
    expect(inThread.at(-1)).toMatchObject({ type: "done", answer: { approvedAnswer: { spaceId: "library" } } });
    expect(asked).toEqual([
      "slack:T1:C1: Q?",
      "library: Q?",
      "slack:T1:C1: Do you encrypt data in transit?",
      "library: Do you encrypt data in transit?",
    ]);

    const failing: ApprovedAnswerSource = {
      match: () => Promise.reject(new Error("database gone")),
    };
    const events = await collect(
      leadWithApprovedAnswers(documents, failing, silentLogger).answerQuestion("Q?", context()),
    );
    expect(events.at(-1)).toEqual({ type: "done", answer: documentAnswer });
  });

  it("describes an origin with only the parts it has", () => {
    expect(describeApprovedAnswerOrigin({ file: "answers.csv", row: 12, addedAt: "2026-01-05T00:00:00.000Z" })).toBe(
      "from answers.csv, row 12; added on 2026-01-05",
    );
  });
});
