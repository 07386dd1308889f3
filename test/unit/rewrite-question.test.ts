import { describe, expect, it } from "vitest";
import type { ConversationTurn } from "../../src/answer/answer-events.js";
import { rewriteQuestion } from "../../src/answer/rewrite-question.js";

const history: ConversationTurn[] = [
  { role: "user", text: "How many vacation days do new employees get?" },
  { role: "assistant", text: "New employees get 15 days [1]." },
];

describe("rewriteQuestion", () => {
  it("leaves a question without history alone", () => {
    expect(rewriteQuestion("Does it roll over?", [])).toBe("Does it roll over?");
  });

  it("adds the previous question to a follow-up that points back with a pronoun", () => {
    expect(rewriteQuestion("Does it roll over to next year?", history)).toBe(
      "Does it roll over to next year? How many vacation days do new employees get?",
    );
  });

  it("adds the previous question to a follow-up too short to stand alone", () => {
    expect(rewriteQuestion("And contractors?", history)).toBe(
      "And contractors? How many vacation days do new employees get?",
    );
  });

  it("keeps a standalone follow-up whose 'that' is a relative pronoun", () => {
    const question = "Which dental plan is the one that covers orthodontic treatment for children?";
    expect(rewriteQuestion(question, history)).toBe(question);
  });

  it("never appends the same question to itself", () => {
    expect(rewriteQuestion("How many vacation days do new employees get?", history)).toBe(
      "How many vacation days do new employees get?",
    );
  });
});
