import { describe, expect, it } from "vitest";
import type { ConversationTurn } from "../../src/answer/answer-events.js";
import {
  rewriteQuestion,
  ruleBasedFollowUpRewriter,
  standaloneFollowUp,
} from "../../src/answer/question/rewrite-question.js";

/** A thread of user questions, each answered by the assistant. */
function threadOf(...questions: string[]): ConversationTurn[] {
  return questions.flatMap((text): ConversationTurn[] => [
    { role: "user", text },
    { role: "assistant", text: "The figure is in the report [1]." },
  ]);
}

const NIKE_2018 = "What was Nike's net income in 2018?";

describe("rewriteQuestion for financial follow-ups", () => {
  it.each([
    ["And the year before?", "What was Nike's net income in 2017?"],
    ["What about the year after?", "What was Nike's net income in 2019?"],
    ["What about 2016?", "What was Nike's net income in 2016?"],
    ["What about revenue?", "What was Nike's revenue in 2018?"],
    ["How about Corning?", "What was Corning's net income in 2018?"],
    ["How much was diluted EPS that year?", "What was Nike's diluted EPS in 2018?"],
  ])("rewrites %j", (followUp, standalone) => {
    expect(rewriteQuestion(followUp, threadOf(NIKE_2018))).toBe(standalone);
  });

  it("builds a follow-up on the follow-up before it", () => {
    expect(rewriteQuestion("And the year before?", threadOf(NIKE_2018, "And the year before?"))).toBe(
      "What was Nike's net income in 2016?",
    );
  });

  it("keeps the company of a follow-up it cannot rewrite in view for the next one", () => {
    const history = threadOf("What was Amazon's revenue in 2019?", "How much of that came from AWS?");
    expect(rewriteQuestion("And the year before?", history)).toBe(
      "How much of that came from AWS? What was Amazon's revenue in 2018?",
    );
  });

  it("leaves a full question of its own alone", () => {
    const question = "What was Corning's revenue in 2020?";
    expect(rewriteQuestion(question, threadOf(NIKE_2018))).toBe(question);
  });

  it("reads only the user's turns", () => {
    const history: ConversationTurn[] = [
      { role: "user", text: NIKE_2018 },
      { role: "assistant", text: "Corning's net income in 2020 was $512 million [1]." },
    ];
    expect(rewriteQuestion("And the year before?", history)).toBe("What was Nike's net income in 2017?");
  });
});

describe("rewriteQuestion for threads without a name or period", () => {
  it("appends the previous question to a follow-up with a pronoun", () => {
    expect(rewriteQuestion("Does it roll over?", threadOf("How many vacation days do new employees get?"))).toBe(
      "Does it roll over? How many vacation days do new employees get?",
    );
  });

  it("appends the previous question to a relative follow-up it cannot shift", () => {
    expect(rewriteQuestion("And the year before?", threadOf("How many vacation days do new employees get?"))).toBe(
      "And the year before? How many vacation days do new employees get?",
    );
  });
});

describe("standaloneFollowUp", () => {
  it("returns null when the previous question names no period and no name", () => {
    expect(standaloneFollowUp("And the year before?", "How many vacation days do new employees get?")).toBeNull();
  });

  it("returns null for a full question that changes name, measure and period", () => {
    expect(standaloneFollowUp("What was Corning's revenue in 2020?", NIKE_2018)).toBeNull();
  });

  it("shifts a quarter's year and keeps its quarter", () => {
    expect(standaloneFollowUp("And the year before?", "What was Acme's revenue in Q2 2023?")).toBe(
      "What was Acme's revenue in Q2 2022?",
    );
  });

  it("asks for a quarter's whole year when the follow-up asks for the full year", () => {
    expect(
      standaloneFollowUp(
        "And for the full year?",
        "What was MGM's diluted earnings per share in the fourth quarter of 2022?",
      ),
    ).toBe("What was MGM's diluted earnings per share in the full year 2022?");
  });

  it("writes a new measure with both names of the previous question", () => {
    expect(standaloneFollowUp("What about revenue?", "Compare Nike and Corning net income in 2018.")).toBe(
      "What was Nike and Corning's revenue in 2018?",
    );
  });
});

describe("ruleBasedFollowUpRewriter", () => {
  it("marks a rewritten follow-up as standalone", async () => {
    expect(
      await ruleBasedFollowUpRewriter.rewrite({ question: "And the year before?", history: threadOf(NIKE_2018) }),
    ).toEqual({
      query: "What was Nike's net income in 2017?",
      method: "rules",
      standalone: true,
    });
  });

  it("does not mark a query that only appends the previous question as standalone", async () => {
    expect(
      await ruleBasedFollowUpRewriter.rewrite({
        question: "Does it roll over?",
        history: threadOf("How many vacation days do new employees get?"),
      }),
    ).toEqual({
      query: "Does it roll over? How many vacation days do new employees get?",
      method: "rules",
      standalone: false,
    });
  });
});
