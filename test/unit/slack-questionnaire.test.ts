import { describe, expect, it } from "vitest";
import { findLatestSharedFile, isQuestionnaireRequest } from "../../adapters/slack/slack-questionnaire.js";

describe("isQuestionnaireRequest", () => {
  it("recognises asks to answer or fill a questionnaire, not questions that mention one", () => {
    for (const text of [
      "<@U0FOLIO> answer this questionnaire",
      "please fill in the questionnaire",
      "can you complete this RFP?",
      "Fill out the security review",
    ]) {
      expect(isQuestionnaireRequest(text), text).toBe(true);
    }
    for (const text of ["What does the questionnaire ask about backups?", "answer this question", "questionnaire"]) {
      expect(isQuestionnaireRequest(text), text).toBe(false);
    }
  });
});

describe("findLatestSharedFile", () => {
  it("takes the newest file a person shared, never Folio's own uploads", () => {
    const found = findLatestSharedFile([
      { ts: "100.000001", files: [{ id: "F_OLD" }] },
      { ts: "300.000001", bot_id: "B0FOLIO", files: [{ id: "F_FILLED" }] },
      { ts: "200.000001", thread_ts: "100.000001", files: [{ id: "F_NEW" }] },
      { ts: "250.000001" },
    ]);
    expect(found?.file.id).toBe("F_NEW");
    expect(found?.message.thread_ts).toBe("100.000001");
    expect(findLatestSharedFile([{ ts: "1.0" }])).toBeNull();
  });
});
