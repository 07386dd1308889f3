import { describe, expect, it } from "vitest";
import {
  assistantStatusText,
  assistantThreadTitle,
  buildSuggestedPrompts,
} from "../../adapters/slack/slack-assistant.js";
import {
  assistantSearchSpaceIds,
  createAssistantContextStore,
  isChannelMember,
} from "../../adapters/slack/slack-assistant-context.js";
import type { DocumentRecord } from "../../src/domain/types.js";

function document(title: string, createdAt: string, status: DocumentRecord["status"] = "ready"): DocumentRecord {
  return {
    id: title,
    spaceId: "library",
    title,
    fileName: `${title}.pdf`,
    mediaType: "application/pdf",
    sha256: title,
    byteSize: 1,
    pageCount: 1,
    uploader: null,
    status,
    awaitingMeaning: false,
    createdAt: new Date(createdAt),
  };
}

describe("assistant texts", () => {
  it("phrases progress after the app's name", () => {
    expect(assistantStatusText("Searching your documents…")).toBe("is searching your documents…");
    expect(assistantStatusText("")).toBe("is thinking…");
  });

  it("titles a thread after its question, shortened at a word", () => {
    expect(assistantThreadTitle("  How much   is the fitness allowance? ")).toBe("How much is the fitness allowance?");
    const long = `${"word ".repeat(30)}end`;
    const title = assistantThreadTitle(long);
    expect(title.length).toBeLessThanOrEqual(80);
    expect(title.endsWith("word…")).toBe(true);
  });

  it("suggests prompts about the three newest ready documents, one per title", () => {
    const prompts = buildSuggestedPrompts([
      document("Old", "2024-01-01"),
      document("Handbook", "2024-03-01"),
      document("handbook", "2024-02-01"),
      document("Leaving", "2024-05-01", "deleting"),
      document("Perks", "2024-04-01"),
      document("Travel", "2024-02-15"),
    ]);
    expect(prompts).toEqual({
      title: "Ask about your documents",
      prompts: [
        { title: "What does Perks cover?", message: "What are the main points of Perks?" },
        { title: "What does Handbook cover?", message: "What are the main points of Handbook?" },
        { title: "What does Travel cover?", message: "What are the main points of Travel?" },
      ],
    });
    expect(buildSuggestedPrompts([])).toBeNull();
  });
});

describe("assistant search spaces", () => {
  it("searches the asker's uploads, a viewed channel they belong to, then the library", () => {
    expect(
      assistantSearchSpaceIds({ teamId: "T", userId: "U", memberChannelId: "C1", librarySpaceId: "library" }),
    ).toEqual(["slack:T:user:U", "slack:T:C1", "library"]);
    expect(assistantSearchSpaceIds({ teamId: "T", userId: "U", memberChannelId: null, librarySpaceId: null })).toEqual([
      "slack:T:user:U",
    ]);
  });

  it("keeps each thread's viewed channel apart, in memory or in settings", async () => {
    const settings = new Map<string, string>();
    const stores = [
      createAssistantContextStore(null),
      createAssistantContextStore({
        getSetting: async (key) => settings.get(key) ?? null,
        setSetting: async (key, value) => {
          if (value === null) settings.delete(key);
          else settings.set(key, value);
        },
      }),
    ];
    for (const store of stores) {
      await store.save({ channelId: "D1", threadTs: "1.0" }, { channelId: "C1" });
      await store.save({ channelId: "D1", threadTs: "2.0" }, { channelId: "C2" });
      expect(await store.get({ channelId: "D1", threadTs: "1.0" })).toEqual({ channelId: "C1" });
      expect(await store.get({ channelId: "D1", threadTs: "2.0" })).toEqual({ channelId: "C2" });
      await store.save({ channelId: "D1", threadTs: "1.0" }, null);
      expect(await store.get({ channelId: "D1", threadTs: "1.0" })).toBeNull();
    }
  });

  it("asks conversations.members page by page, and treats a channel it cannot see as not shared", async () => {
    const pages: Record<string, { members: string[]; response_metadata: { next_cursor: string } }> = {
      "": { members: ["U1"], response_metadata: { next_cursor: "page2" } },
      page2: { members: ["U2"], response_metadata: { next_cursor: "" } },
    };
    const asked: Array<Record<string, unknown>> = [];
    const client = {
      conversations: {
        members: async (args: { channel: string; cursor?: string }) => {
          asked.push(args);
          if (args.channel === "CPRIVATE") throw Object.assign(new Error("x"), { data: { error: "not_in_channel" } });
          return pages[args.cursor ?? ""];
        },
      },
    } as never;
    expect(await isChannelMember(client, "C1", "U2")).toEqual({ member: true, reason: null });
    expect(asked.map((args) => args.cursor ?? null)).toEqual([null, "page2"]);
    expect(await isChannelMember(client, "C1", "U3")).toEqual({ member: false, reason: "not a member" });
    expect(await isChannelMember(client, "CPRIVATE", "U1")).toEqual({ member: false, reason: "not_in_channel" });
    expect(await isChannelMember(client, "D9", "U1")).toEqual({ member: false, reason: "direct message" });
  });
});
