import { describe, expect, it } from "vitest";
import { askedAnswer } from "../../src/answer/question/asked-answer.js";

describe("askedAnswer", () => {
  it.each([
    ["How fast do I have to report a security incident?", "duration", null],
    ["How long does my passcode have to be?", "quantity", null],
    ["How long does the review take?", "duration", null],
    ["How far ahead should I put in a leave request?", "duration", null],
    ["How often do I have to change my ENT password?", "frequency", null],
    ["Up to what dollar amount can I request services?", "money", null],
    ["I'm in the Reserves. How many days of military leave do I get each year?", "quantity", "day"],
    ["How much vacation time do I earn per pay period?", "quantity", "pay period"],
    ["We're having a baby. How much paid leave do I get?", "quantity", "time"],
    ["When is my self-assessment due?", "date", null],
    ["Who approves my trip?", "person", null],
    ["Which Tock line do I put vacation days on?", "identifier", null],
    ["What happens if I don't send my laptop back?", "consequence", null],
    ["How do I order business cards?", "steps", null],
    ["What kinds of things count as sensitive info?", "list", null],
    ["What's an SF-182?", "definition", null],
    ["What is cloud computing according to NIST?", "definition", null],
    ["What's the end-of-year award for a Level 5 rating?", "any", null],
    ["Does my FSA carry over to next year?", "verdict", null],
    ["Why did revenue fall?", "reason", null],
  ])("%j asks for %s", (question, kind, unit) => {
    expect(askedAnswer(question)).toEqual({ kind, unit });
  });
});
