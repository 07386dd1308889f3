import { describe, expect, it } from "vitest";
import type { ConversationTurn } from "../../src/answer/answer-events.js";
import { leansOnThread, rewriteQuestion } from "../../src/answer/question/rewrite-question.js";

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

  it("asks a new subject in the frame of the question before it", () => {
    const asked: ConversationTurn[] = [
      { role: "user", text: "What are the essential characteristics of cloud computing?" },
      { role: "assistant", text: "On-demand self-service; … [1]" },
    ];
    expect(rewriteQuestion("And the deployment models?", asked)).toBe(
      "What are the deployment models of cloud computing?",
    );
    expect(
      rewriteQuestion("What about IaaS?", [{ role: "user", text: "What is cloud computing according to NIST?" }]),
    ).toBe("What is IaaS according to NIST?");
    const thread: ConversationTurn[] = [{ role: "user", text: "What is cloud computing according to NIST?" }, ...asked];
    expect(rewriteQuestion("And the deployment models?", thread)).toBe(
      "What are the deployment models of cloud computing?",
    );
  });

  it("lets a name the question gives outrank the thread's: 'its' is the new company's", () => {
    const thread: ConversationTurn[] = [
      { role: "user", text: "What was Nike's net income in 2018?" },
      { role: "assistant", text: "Nike's net income for 2018 was $1,933 million [1]." },
    ];
    expect(rewriteQuestion("Did Costco raise its dividend?", thread)).toBe("Did Costco raise its dividend?");
  });

  it("never appends the same question to itself", () => {
    expect(rewriteQuestion("How many vacation days do new employees get?", history)).toBe(
      "How many vacation days do new employees get?",
    );
  });
});

describe("leansOnThread", () => {
  it.each([
    "And once I pass 15 years?",
    "What about comp time?",
    "What if I end up needing more time than that to take care of my dad?",
    "Do they expire if I don't use them?",
    "What happens if I miss that?",
    "How is an 8-year one usually split up?",
    "Who exactly do I email?",
    "The police actually found it. Can I just keep using it?",
  ])("reads %j with the thread", (question) => {
    expect(leansOnThread(question)).toBe(true);
  });

  it.each([
    "What's an SF-182?",
    "What does IaaS stand for?",
    "What's 'time-in-grade'?",
    "Something weird is happening on my laptop. Should I shut it down?",
    "When is my end-of-year self-assessment due this cycle?",
    "Which dental plan is the one that covers orthodontic treatment for children?",
  ])("reads %j on its own", (question) => {
    expect(leansOnThread(question)).toBe(false);
  });

  it("never carries the last question's subject into a complete question", () => {
    const thread: ConversationTurn[] = [
      { role: "user", text: "How do I get approval to go to a conference?" },
      { role: "assistant", text: "Fill out the event request form [1]." },
    ];
    expect(rewriteQuestion("What's an SF-182?", thread)).toBe("What's an SF-182?");
  });
});
