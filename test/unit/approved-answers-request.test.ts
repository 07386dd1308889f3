import { describe, expect, it } from "vitest";
import { parseFolioCommand } from "../../adapters/slack/slack-commands.js";
import { isApprovedAnswersRequest } from "../../src/answer-library/approved-answers-request.js";

describe("isApprovedAnswersRequest", () => {
  it("recognises asks to add a file as approved answers, not questions about them", () => {
    for (const text of [
      "add these as approved answers",
      "<@U0FOLIO> please add this to the approved answers",
      "Add them to our answer library",
      "add as approved answers",
      "add this questionnaire to approved answers",
    ]) {
      expect(isApprovedAnswersRequest(text), text).toBe(true);
    }
    for (const text of [
      "What are approved answers?",
      "answer this questionnaire",
      "which approved answers did we add last week?",
      "add a note",
    ]) {
      expect(isApprovedAnswersRequest(text), text).toBe(false);
    }
  });
});

describe("/folio answers", () => {
  it("parses add, list (the default) and remove <id>; anything else is unknown", () => {
    expect(parseFolioCommand("answers add")).toEqual({ name: "answers-add" });
    expect(parseFolioCommand("answers")).toEqual({ name: "answers-list" });
    expect(parseFolioCommand("Answers LIST")).toEqual({ name: "answers-list" });
    expect(parseFolioCommand("answers remove 3f2a")).toEqual({ name: "answers-remove", id: "3f2a" });
    expect(parseFolioCommand("answers remove")).toEqual({ name: "unknown", input: "answers remove" });
    expect(parseFolioCommand("answers add now")).toEqual({ name: "unknown", input: "answers add now" });
  });
});
