import { describe, expect, it } from "vitest";
import type { Answer, AnswerContext, AnswerEvent, Citation } from "../../src/answer/answer-events.js";
import { type AnswerService, askConversations } from "../../src/evaluation/ask-conversations.js";
import { type ConversationCase, parseConversationDataset } from "../../src/evaluation/conversation-dataset.js";
import { checkTurn } from "../../src/evaluation/turn-check.js";

function citation(file: string, pageStart: number | null, pageEnd: number | null = pageStart): Citation {
  return { n: 1, documentId: "d1", title: file, file, pageStart, pageEnd, quote: "", url: "" };
}

type Reply = Pick<Answer, "answer" | "noContext" | "citations">;

/** Answers from a script keyed by question, and records the history each question arrived with. */
function fakeService(replies: Record<string, Reply>) {
  const seen: { question: string; context: AnswerContext }[] = [];
  const service: AnswerService = {
    async *answerQuestion(question, context): AsyncIterable<AnswerEvent> {
      seen.push({ question, context });
      const reply = replies[question];
      if (!reply) {
        yield { type: "error", code: "boom", message: "no script", requestId: context.requestId };
        return;
      }
      yield { type: "delta", text: reply.answer };
      yield { type: "done", answer: { requestId: context.requestId, timingsMs: {}, ...reply } };
    },
  };
  return { service, seen };
}

describe("checkTurn", () => {
  const answer: Reply = {
    answer: "Net income for 2017 was $558,929 thousand (about $558.9 million) [1].",
    noContext: false,
    citations: [citation("NETFLIX_2017_10K.pdf", 40, 41)],
  };

  it("accepts text, scaled numbers and a cited page inside a citation's range", () => {
    expect(
      checkTurn(answer, {
        contains: ["net   INCOME"],
        anyOf: [["profit", "net income"]],
        numbers: [{ value: 558.929, scale: "million" }],
        pages: ["NETFLIX_2017_10K.pdf#41"],
      }),
    ).toEqual({ correct: true, reasons: [] });
  });

  it("names every failed check", () => {
    expect(
      checkTurn(answer, {
        contains: ["revenue"],
        anyOf: [["loss", "deficit"]],
        numbers: [{ value: 186.7, scale: "million" }],
        pages: ["NETFLIX_2017_10K.pdf#39", "OTHER.pdf#41"],
        refusal: true,
      }),
    ).toEqual({
      correct: false,
      reasons: [
        "expected a refusal, got an answer",
        'missing "revenue"',
        'missing any of "loss" | "deficit"',
        "missing number 186.7 million",
        "no citation of NETFLIX_2017_10K.pdf#39 or OTHER.pdf#41",
      ],
    });
  });

  it("counts a refusal as wrong when the question is answerable (the default)", () => {
    expect(checkTurn({ answer: "Not in the documents.", noContext: true, citations: [] }, { contains: [] })).toEqual({
      correct: false,
      reasons: ["refused an answerable question"],
    });
  });
});

describe("askConversations", () => {
  const conversations: ConversationCase[] = [
    {
      id: "c1",
      documents: ["a.pdf"],
      turns: [
        {
          question: "Net income 2017?",
          kind: "figure",
          expect: { numbers: [{ value: 558.929, scale: "million" }], pages: ["a.pdf#3"] },
        },
        {
          question: "And the year before?",
          kind: "followup",
          expect: { numbers: [{ value: 186.678, scale: "million" }] },
        },
      ],
    },
    {
      id: "c2",
      documents: ["a.pdf"],
      turns: [
        { question: "Tesla revenue 2022?", kind: "absent", expect: { refusal: true } },
        { question: "Unscripted?", kind: "other", expect: { contains: ["x"] } },
      ],
    },
  ];

  it("asks in order with the thread's history, and tallies by kind with exact failures", async () => {
    const { service, seen } = fakeService({
      "Net income 2017?": { answer: "$558.9 million [1]", noContext: false, citations: [citation("a.pdf", 3)] },
      "And the year before?": { answer: "2016 was 186,678", noContext: false, citations: [] },
      "Tesla revenue 2022?": { answer: "Not in the documents.", noContext: true, citations: [] },
    });
    let clock = 0;
    const report = await askConversations(service, {
      spaceId: "eval:test",
      conversations,
      now: () => {
        clock += 5;
        return clock;
      },
    });
    expect(seen.map((call) => [call.question, call.context.spaceIds, call.context.history])).toEqual([
      ["Net income 2017?", ["eval:test"], []],
      [
        "And the year before?",
        ["eval:test"],
        [
          { role: "user", text: "Net income 2017?" },
          { role: "assistant", text: "$558.9 million [1]" },
        ],
      ],
      ["Tesla revenue 2022?", ["eval:test"], []],
      [
        "Unscripted?",
        ["eval:test"],
        [
          { role: "user", text: "Tesla revenue 2022?" },
          { role: "assistant", text: "Not in the documents." },
        ],
      ],
    ]);
    expect(report).toEqual({
      conversations: 2,
      questions: 4,
      correct: 2,
      correctRate: 0.5,
      byKind: {
        figure: { questions: 1, correct: 1 },
        followup: { questions: 1, correct: 0 },
        absent: { questions: 1, correct: 1 },
        other: { questions: 1, correct: 0 },
      },
      latencyMs: { p50: 5, p95: 5 },
      failures: [
        {
          conversation: "c1",
          turn: 2,
          kind: "followup",
          question: "And the year before?",
          expect: { numbers: [{ value: 186.678, scale: "million" }] },
          answer: "2016 was 186,678",
          reasons: ["missing number 186.678 million"],
        },
        {
          conversation: "c2",
          turn: 2,
          kind: "other",
          question: "Unscripted?",
          expect: { contains: ["x"] },
          answer: "[error boom: no script]",
          reasons: ['missing "x"'],
        },
      ],
    });
  });

  it("cuts a long failing answer to 300 characters in the report", async () => {
    const { service } = fakeService({ "Q?": { answer: "y".repeat(500), noContext: false, citations: [] } });
    const report = await askConversations(service, {
      spaceId: "eval:test",
      conversations: [
        { id: "c", documents: [], turns: [{ question: "Q?", kind: "other", expect: { contains: ["z"] } }] },
      ],
    });
    expect(report.failures[0]?.answer).toBe("y".repeat(300));
  });
});

describe("parseConversationDataset", () => {
  it("reads conversations and leaves absent expectation fields undefined", () => {
    const line = JSON.stringify({
      id: "c01",
      documents: ["financebench-dev/pdfs/NIKE_2018_10K.pdf"],
      turns: [{ question: "Revenue?", kind: "figure", expect: { numbers: [{ value: 36.4, scale: "billion" }] } }],
    });
    expect(parseConversationDataset(`${line}\n\n`, "d.jsonl")).toEqual([
      {
        id: "c01",
        documents: ["financebench-dev/pdfs/NIKE_2018_10K.pdf"],
        turns: [
          {
            question: "Revenue?",
            kind: "figure",
            expect: {
              contains: undefined,
              anyOf: undefined,
              numbers: [{ value: 36.4, scale: "billion", tolerance: undefined }],
              pages: undefined,
              refusal: undefined,
            },
          },
        ],
      },
    ]);
  });

  it("reports every problem with its line number", () => {
    const good = JSON.stringify({
      id: "a",
      documents: [],
      turns: [{ question: "Q", kind: "other", expect: { refusal: true } }],
    });
    const bad = JSON.stringify({
      id: "a",
      documents: [],
      turns: [{ question: "Q", kind: "guess", expect: { pages: ["x.pdf"], numbers: [{ value: 1, scale: "lakh" }] } }],
    });
    expect(() => parseConversationDataset(`${good}\n${bad}\n{`, "d.jsonl")).toThrow(
      'd.jsonl has problems: line 2: turn 1: "kind" must be one of figure, definition, list, yesno, comparison, followup, absent, typo, other; line 2: turn 1: "pages" must be a list of "file#N"; line 2: turn 1: "scale" must be one of one, thousand, million, billion, trillion; line 2: id "a" is used twice; line 3: not JSON',
    );
  });
});
