import { describe, expect, it } from "vitest";
import { normalizeSlackApiUrl } from "../../adapters/slack/slack-adapter.js";
import {
  createMemoryChannelModeStore,
  createSettingsChannelModeStore,
  parseFolioCommand,
  runFolioCommand,
} from "../../adapters/slack/slack-commands.js";
import { classifyMessageEvent, findFileShareThread } from "../../adapters/slack/slack-events.js";
import { isAllowedDownloadUrl } from "../../adapters/slack/slack-files.js";
import { searchSpaceIds, spaceIdForConversation } from "../../adapters/slack/slack-space.js";
import { buildThreadHistory, stripMentions, threadHasFolioReply } from "../../adapters/slack/slack-thread-context.js";
import type { DocumentRecord } from "../../src/domain/types.js";

const BOT = { botUserId: "UBOT", botId: "BBOT" };
const base = { type: "message", channel: "C1", channel_type: "channel", user: "U1", ts: "10.0" };

describe("classifyMessageEvent", () => {
  const classify = (event: Record<string, unknown>, answersEveryQuestion = false) =>
    classifyMessageEvent(event, { botUserId: "UBOT", answersEveryQuestion }).kind;

  it("ignores bots, edits and mentions (app_mention answers those)", () => {
    expect(classify({ ...base, text: "hi?", bot_id: "BOTHER" })).toBe("ignore");
    expect(classify({ ...base, text: "hi?", subtype: "bot_message" })).toBe("ignore");
    expect(classify({ ...base, text: "hi?", subtype: "message_changed" })).toBe("ignore");
    expect(classify({ ...base, text: "<@UBOT> what is it?" })).toBe("ignore");
  });

  it("answers direct messages, checks thread replies, and top-level questions only in answer-all mode", () => {
    expect(classify({ ...base, channel: "D1", channel_type: "im", text: "what is it" })).toBe("answer");
    expect(
      classifyMessageEvent(
        { ...base, text: "and then?", thread_ts: "9.0" },
        { botUserId: "UBOT", answersEveryQuestion: false },
      ),
    ).toEqual({
      kind: "follow-up-candidate",
      threadTs: "9.0",
    });
    expect(classify({ ...base, text: "what is it?" })).toBe("ignore");
    expect(classify({ ...base, text: "what is it?" }, true)).toBe("answer");
    expect(classify({ ...base, text: "good morning" }, true)).toBe("ignore");
  });

  it("routes shared files to ingestion", () => {
    const file = { id: "F1", name: "a.pdf" };
    expect(
      classifyMessageEvent(
        { ...base, subtype: "file_share", files: [file] },
        { botUserId: "UBOT", answersEveryQuestion: false },
      ),
    ).toEqual({
      kind: "files",
      files: [file],
    });
  });

  it("finds the thread a file was shared in", () => {
    expect(findFileShareThread({ id: "F", shares: { public: { C1: [{ ts: "5.0", thread_ts: "4.0" }] } } }, "C1")).toBe(
      "4.0",
    );
    expect(findFileShareThread({ id: "F", shares: { private: { G1: [{ ts: "6.0" }] } } }, "G1")).toBe("6.0");
    expect(findFileShareThread({ id: "F" }, "C1")).toBeNull();
  });
});

describe("spaces", () => {
  it("maps channels and direct messages to their spaces, adding the library", () => {
    expect(spaceIdForConversation({ teamId: "T", channelId: "C1", userId: "U1", isDirectMessage: false })).toBe(
      "slack:T:C1",
    );
    expect(spaceIdForConversation({ teamId: "T", channelId: "D1", userId: "U1", isDirectMessage: true })).toBe(
      "slack:T:user:U1",
    );
    expect(searchSpaceIds("slack:T:C1", null)).toEqual(["slack:T:C1"]);
    expect(searchSpaceIds("slack:T:C1", "library")).toEqual(["slack:T:C1", "library"]);
  });
});

describe("thread context", () => {
  const thread = [
    { ts: "1.0", user: "U1", text: "<@UBOT> What is &lt;PerksPlus&gt;?" },
    { ts: "2.0", user: "UBOT", bot_id: "BBOT", text: "A wellness program [1]." },
    { ts: "3.0", bot_id: "BOTHER", text: "deploy done" },
    { ts: "4.0", user: "U2", text: "How much?" },
    { ts: "5.0", user: "U1", text: "now" },
  ];

  it("builds earlier turns, oldest first, without other bots or later messages", () => {
    expect(buildThreadHistory(thread, { ...BOT, currentTs: "5.0" })).toEqual([
      { role: "user", text: "What is <PerksPlus>?" },
      { role: "assistant", text: "A wellness program [1]." },
      { role: "user", text: "How much?" },
    ]);
    expect(buildThreadHistory(thread, { ...BOT, currentTs: "5.0", maxTurns: 1 })).toEqual([
      { role: "user", text: "How much?" },
    ]);
  });

  it("knows whether Folio answered in the thread", () => {
    expect(threadHasFolioReply(thread, BOT)).toBe(true);
    expect(
      threadHasFolioReply(
        thread.filter((message) => message.bot_id !== "BBOT"),
        BOT,
      ),
    ).toBe(false);
    expect(stripMentions("<@UBOT>  hello <@U2|ann> there")).toBe("hello there");
  });
});

describe("Slack URLs", () => {
  it("normalises the API base URL", () => {
    expect(normalizeSlackApiUrl(null)).toBeUndefined();
    expect(normalizeSlackApiUrl("http://127.0.0.1:9")).toBe("http://127.0.0.1:9/api/");
    expect(normalizeSlackApiUrl("https://slack-gov.com/api")).toBe("https://slack-gov.com/api/");
    expect(normalizeSlackApiUrl("https://slack.com/api/")).toBe("https://slack.com/api/");
  });

  it("sends the bot token only to Slack or the configured API origin", () => {
    expect(isAllowedDownloadUrl("https://files.slack.com/files-pri/T-F/a.pdf", null)).toBe(true);
    expect(isAllowedDownloadUrl("http://files.slack.com/a.pdf", null)).toBe(false);
    expect(isAllowedDownloadUrl("https://evil.example/slack.com", null)).toBe(false);
    expect(isAllowedDownloadUrl("https://notslack.com/a", null)).toBe(false);
    expect(isAllowedDownloadUrl("http://127.0.0.1:9/files-pri/F/a.pdf", "http://127.0.0.1:9")).toBe(true);
  });
});

describe("/folio", () => {
  const document = (overrides: Partial<DocumentRecord>): DocumentRecord => ({
    id: "doc-1",
    spaceId: "slack:T:C1",
    title: "Handbook",
    fileName: "handbook.pdf",
    mediaType: "application/pdf",
    sha256: "x",
    byteSize: 1,
    pageCount: 12,
    uploader: "U1",
    status: "ready",
    awaitingMeaning: false,
    createdAt: new Date(0),
    ...overrides,
  });

  const setup = (documents: DocumentRecord[]) => {
    const deleted: string[] = [];
    const core = {
      listDocuments: async (spaceId: string) => documents.filter((entry) => entry.spaceId === spaceId),
      deleteDocument: async (id: string) => {
        deleted.push(id);
        return true;
      },
    };
    const channelModes = createMemoryChannelModeStore();
    const run = (text: string, userId: string, adminUserIds: string[] = []) =>
      runFolioCommand(
        parseFolioCommand(text),
        { spaceId: "slack:T:C1", channelKey: "T:C1", isDirectMessage: false, userId, adminUserIds },
        { core, channelModes },
      );
    return { deleted, run, channelModes };
  };

  it("parses commands", () => {
    expect(parseFolioCommand("")).toEqual({ name: "help" });
    expect(parseFolioCommand("  forget  my file.pdf ")).toEqual({ name: "forget", target: "my file.pdf" });
    expect(parseFolioCommand("forget")).toEqual({ name: "unknown", input: "forget" });
    expect(parseFolioCommand("answer-all ON")).toEqual({ name: "answer-all", enabled: true });
  });

  it("lists documents and lets only the uploader or an admin forget one", async () => {
    const { deleted, run } = setup([
      document({}),
      document({ id: "doc-2", fileName: "other.pdf", title: "Other", spaceId: "slack:T:C2" }),
    ]);
    expect(await run("docs", "U9")).toBe("*1 document here:*\n• *Handbook* (handbook.pdf, 12 pages) — `doc-1`");
    expect(await run("forget handbook.pdf", "U9")).toBe(
      "Only the person who uploaded handbook.pdf or a Folio admin can remove it.",
    );
    expect(await run("forget other.pdf", "U1")).toBe("No document called “other.pdf” here. `/folio docs` lists them.");
    expect(deleted).toEqual([]);
    expect(await run("forget HANDBOOK.pdf", "UADMIN", ["UADMIN"])).toBe(
      "Removed handbook.pdf; I will no longer cite it.",
    );
    expect(await run("forget doc-1", "U1")).toBe("Removed handbook.pdf; I will no longer cite it.");
    expect(deleted).toEqual(["doc-1", "doc-1"]);
  });

  it("turns the answer-every-question mode on and off per channel", async () => {
    const { run, channelModes } = setup([]);
    expect(await channelModes.answersEveryQuestion("T:C1")).toBe(false);
    await run("answer-all on", "U1");
    expect(await channelModes.answersEveryQuestion("T:C1")).toBe(true);
    expect(await channelModes.answersEveryQuestion("T:C2")).toBe(false);
    await run("answer-all off", "U1");
    expect(await channelModes.answersEveryQuestion("T:C1")).toBe(false);
  });

  it("lets only admins switch the mode where admins are configured", async () => {
    const { run, channelModes } = setup([]);
    expect(await run("answer-all on", "U1", ["UADMIN"])).toBe(
      "Only a Folio admin can change whether I answer every question here.",
    );
    expect(await channelModes.answersEveryQuestion("T:C1")).toBe(false);
    await run("answer-all on", "UADMIN", ["UADMIN"]);
    expect(await channelModes.answersEveryQuestion("T:C1")).toBe(true);
  });

  it("keeps the mode in the settings store: a row while on, none while off", async () => {
    const rows = new Map<string, string>();
    const settings = {
      getSetting: async (key: string) => rows.get(key) ?? null,
      setSetting: async (key: string, value: string | null) => {
        if (value === null) rows.delete(key);
        else rows.set(key, value);
      },
    };
    const channelModes = createSettingsChannelModeStore(settings);
    expect(await channelModes.answersEveryQuestion("T:C1")).toBe(false);
    await channelModes.setAnswersEveryQuestion("T:C1", true);
    expect([...rows]).toEqual([["slack.answer-all:T:C1", "on"]]);
    // A second store over the same settings (another replica, or after a restart) sees it.
    expect(await createSettingsChannelModeStore(settings).answersEveryQuestion("T:C1")).toBe(true);
    expect(await channelModes.answersEveryQuestion("T:C2")).toBe(false);
    await channelModes.setAnswersEveryQuestion("T:C1", false);
    expect(rows.size).toBe(0);
  });
});
