import { describe, expect, it } from "vitest";
import { readSlackJobAddress, slackDestination } from "../../adapters/slack/slack-questionnaire-follower.js";
import { classifyActivity, FILE_DOWNLOAD_INFO, type TeamsActivity } from "../../adapters/teams/teams-activity.js";
import { readTeamsJobAddress, teamsDestination } from "../../adapters/teams/teams-questionnaire.js";
import { readDestination } from "../../src/questionnaire/jobs/questionnaire-destination.js";

describe("questionnaire destinations", () => {
  it("reads back only well-formed destinations", () => {
    expect(readDestination({ adapter: "slack", address: { channelId: "C1" } })).toEqual({
      adapter: "slack",
      address: { channelId: "C1" },
    });
    for (const value of [null, "slack", { adapter: "slack" }, { adapter: 3, address: {} }, { address: {} }]) {
      expect(readDestination(value), JSON.stringify(value)).toBeNull();
    }
  });

  it("round-trips a Slack thread and leaves other adapters' destinations alone", () => {
    const address = { teamId: "T1", channelId: "C1", threadTs: "1.000001", progressTs: "1.000002" };
    expect(readSlackJobAddress(slackDestination(address))).toEqual(address);
    expect(readSlackJobAddress(slackDestination({ ...address, progressTs: null }))?.progressTs).toBeNull();
    expect(readSlackJobAddress({ adapter: "teams", address })).toBeNull();
    expect(readSlackJobAddress({ adapter: "slack", address: { channelId: "C1" } })).toBeNull();
    expect(readSlackJobAddress(null)).toBeNull();
  });

  it("round-trips a Teams conversation reference", () => {
    const reference = { conversation: { id: "a:1chat" }, serviceUrl: "https://smba.example/" };
    expect(readTeamsJobAddress(teamsDestination({ reference, progressActivityId: "42" }))).toEqual({
      reference,
      progressActivityId: "42",
    });
    expect(readTeamsJobAddress({ adapter: "slack", address: { reference } })).toBeNull();
    expect(readTeamsJobAddress({ adapter: "teams", address: { progressActivityId: "42" } })).toBeNull();
  });
});

describe("Teams 1:1 requests about files", () => {
  const personal = (overrides: Partial<TeamsActivity>): TeamsActivity => ({
    type: "message",
    id: "9",
    from: { id: "29:ada", aadObjectId: "aad-ada" },
    recipient: { id: "28:bot", name: "Folio" },
    conversation: { id: "a:1chat", conversationType: "personal", tenantId: "t1" },
    channelData: { tenant: { id: "t1" } },
    ...overrides,
  });
  const file = {
    contentType: FILE_DOWNLOAD_INFO,
    name: "answers.csv",
    content: { downloadUrl: "https://contoso.sharepoint.com/f", uniqueId: "u", fileType: "csv" },
  };

  it("reads “cancel” as a cancel and a file with “add these as approved answers” as approved answers", () => {
    expect(classifyActivity(personal({ text: "cancel" }))).toEqual({ kind: "cancel-questionnaire" });
    expect(classifyActivity(personal({ text: "stop the questionnaire" }))).toEqual({ kind: "cancel-questionnaire" });
    expect(classifyActivity(personal({ text: "add these as approved answers", attachments: [file] }))).toMatchObject({
      kind: "approved-answers",
      file: { name: "answers.csv" },
    });
    expect(classifyActivity(personal({ text: "how do I cancel my plan?" }))).toMatchObject({ kind: "question" });
    expect(classifyActivity(personal({ text: "", attachments: [file] }))).toMatchObject({ kind: "files" });
  });
});
