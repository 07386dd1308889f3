import { describe, expect, it } from "vitest";
import {
  classifyActivity,
  FILE_DOWNLOAD_INFO,
  questionText,
  readConversation,
  spaceIdForConversation,
  type TeamsActivity,
} from "../../adapters/teams/teams-activity.js";
import { parseTeamsCommand } from "../../adapters/teams/teams-commands.js";
import { readUploadCode } from "../../adapters/teams/teams-conversation-state.js";

const BOT = { id: "28:bot", name: "Folio" };

function channelActivity(overrides: Partial<TeamsActivity> = {}): TeamsActivity {
  return {
    type: "message",
    id: "1001",
    text: "<at>Folio</at> What is covered?",
    from: { id: "29:ada", aadObjectId: "aad-ada" },
    recipient: BOT,
    conversation: { id: "19:chan@thread.tacv2;messageid=1000", conversationType: "channel", tenantId: "t1" },
    channelData: { tenant: { id: "t1" }, channel: { id: "19:chan@thread.tacv2" } },
    entities: [{ type: "mention", text: "<at>Folio</at>", mentioned: BOT }],
    ...overrides,
  };
}

describe("Teams activities", () => {
  it("scopes a channel thread to its channel and a personal chat to itself", () => {
    const channel = readConversation(channelActivity());
    expect(channel).toMatchObject({ kind: "channel", userId: "aad-ada" });
    expect(channel && spaceIdForConversation(channel)).toBe("teams:t1:19:chan@thread.tacv2");
    const personal = readConversation(
      channelActivity({ conversation: { id: "a:1xyz", conversationType: "personal", tenantId: "t1" } }),
    );
    expect(personal && spaceIdForConversation(personal)).toBe("teams:t1:a:1xyz");
  });

  it("strips Folio's mention and Teams' HTML, keeping other people's names", () => {
    expect(
      questionText(
        channelActivity({
          text: "<p><at>Folio</at> does <at>Otto</at>&#39;s plan cover &lt;gym&gt; &amp; pool?</p>",
          entities: [
            { type: "mention", text: "<at>Folio</at>", mentioned: BOT },
            { type: "mention", text: "<at>Otto</at>", mentioned: { id: "29:otto" } },
          ],
        }),
      ),
    ).toBe("does Otto's plan cover <gym> & pool?");
  });

  it("answers channel messages only when they mention Folio; every personal message is a question", () => {
    expect(classifyActivity(channelActivity())).toEqual({ kind: "question", text: "What is covered?" });
    expect(classifyActivity(channelActivity({ entities: [], text: "lunch?" }))).toMatchObject({ kind: "ignore" });
    expect(
      classifyActivity(
        channelActivity({
          text: "hello",
          entities: [],
          conversation: { id: "a:1", conversationType: "personal" },
        }),
      ),
    ).toEqual({ kind: "question", text: "hello" });
    expect(classifyActivity(channelActivity({ from: BOT }))).toMatchObject({ kind: "ignore" });
  });

  it("takes personal download-info attachments as uploads and channel files as links it cannot read", () => {
    const file = {
      contentType: FILE_DOWNLOAD_INFO,
      name: "a.pdf",
      content: { downloadUrl: "https://x.example/d", fileType: "pdf" },
    };
    expect(
      classifyActivity(
        channelActivity({
          text: "channel ABC234",
          conversation: { id: "a:1", conversationType: "personal" },
          attachments: [file],
        }),
      ),
    ).toEqual({
      kind: "files",
      files: [{ name: "a.pdf", downloadUrl: "https://x.example/d", fileType: "pdf" }],
      text: "channel ABC234",
    });
    expect(classifyActivity(channelActivity({ attachments: [{ contentType: "reference", name: "b.pdf" }] }))).toEqual({
      kind: "channel-files",
      names: ["b.pdf"],
    });
  });

  it("reads the feedback loop's invoke", () => {
    expect(
      classifyActivity({
        type: "invoke",
        name: "message/submitAction",
        replyToId: "m9",
        value: { actionName: "feedback", actionValue: { reaction: "like", feedback: '{"feedbackText":"great"}' } },
      }),
    ).toEqual({ kind: "feedback", messageId: "m9", rating: "up", comment: "great" });
  });

  it("tells commands from questions and reads upload codes", () => {
    expect(parseTeamsCommand("help")).toEqual({ name: "help" });
    expect(parseTeamsCommand("docs")).toEqual({ name: "docs" });
    expect(parseTeamsCommand("forget handbook.pdf")).toEqual({ name: "forget", target: "handbook.pdf" });
    expect(parseTeamsCommand("help me with the travel policy")).toBeNull();
    expect(readUploadCode("for channel abc234 please")).toBe("ABC234");
    expect(readUploadCode("no code here")).toBeNull();
  });
});

describe("questionnaire activities", () => {
  const personalActivity = (extra: Record<string, unknown>) => ({
    id: "1",
    from: { id: "29:ada", aadObjectId: "aad-ada" },
    recipient: { id: "28:bot" },
    conversation: { id: "a:1", conversationType: "personal", tenantId: "t" },
    ...extra,
  });
  const file = {
    contentType: "application/vnd.microsoft.teams.file.download.info",
    name: "review.xlsx",
    content: { downloadUrl: "https://contoso.sharepoint.com/d/review.xlsx", fileType: "xlsx" },
  };

  it("reads a 1:1 file sent with the ask as a questionnaire, and the same file alone as an upload", () => {
    expect(
      classifyActivity(personalActivity({ type: "message", text: "answer this questionnaire", attachments: [file] })),
    ).toEqual({
      kind: "questionnaire",
      file: { name: "review.xlsx", downloadUrl: "https://contoso.sharepoint.com/d/review.xlsx", fileType: "xlsx" },
    });
    expect(classifyActivity(personalActivity({ type: "message", text: "", attachments: [file] })).kind).toBe("files");
  });

  it("reads a file consent answer; an accept without an upload address is ignored", () => {
    const uploadInfo = {
      name: "review (filled).xlsx",
      uploadUrl: "https://contoso-my.sharepoint.com/upload",
      contentUrl: "https://contoso-my.sharepoint.com/review.xlsx",
      uniqueId: "u",
      fileType: "xlsx",
    };
    const consent = (value: Record<string, unknown>) =>
      classifyActivity(personalActivity({ type: "invoke", name: "fileConsent/invoke", value }));
    expect(consent({ action: "accept", context: { jobId: "j1" }, uploadInfo })).toEqual({
      kind: "file-consent",
      action: "accept",
      jobId: "j1",
      uploadInfo,
    });
    expect(consent({ action: "decline", context: { jobId: "j1" } })).toMatchObject({
      kind: "file-consent",
      action: "decline",
    });
    expect(consent({ action: "accept", context: { jobId: "j1" } }).kind).toBe("ignore");
    expect(consent({ action: "accept", context: {} }).kind).toBe("ignore");
  });
});
