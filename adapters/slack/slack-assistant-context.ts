/**
 * What an assistant thread (Slack's AI app container) may search: the asker's own uploads, the
 * library, and — when the thread's context says the person is looking at a channel and they are a
 * member of it — that channel's documents. The context arrives with `assistant_thread_started` and
 * `assistant_thread_context_changed`, not with the messages, so it is kept per thread: in the
 * catalog's settings when there is one (restarts and replicas see it), in memory otherwise.
 */
import type { webApi } from "@slack/bolt";
import type { SpaceId } from "../../src/domain/types.js";
import type { SettingsStore } from "./slack-commands.js";

export type AssistantThreadKey = { channelId: string; threadTs: string };

/** The channel the person has open beside the assistant, as Slack reports it. */
export type ViewedChannel = { channelId: string };

export interface AssistantContextStore {
  get(thread: AssistantThreadKey): Promise<ViewedChannel | null>;
  save(thread: AssistantThreadKey, viewed: ViewedChannel | null): Promise<void>;
}

/** Threads remembered by the in-memory store before the oldest are forgotten. */
const MEMORY_THREAD_LIMIT = 10_000;

export function assistantContextSettingKey(thread: AssistantThreadKey): string {
  return `slack.assistant-context:${thread.channelId}:${thread.threadTs}`;
}

/** The viewed channel of an event's `assistant_thread.context`, or null when it names none. */
export function viewedChannelOf(context: { channel_id?: string } | undefined): ViewedChannel | null {
  const channelId = context?.channel_id;
  return typeof channelId === "string" && channelId !== "" ? { channelId } : null;
}

export function createAssistantContextStore(settings: SettingsStore | null): AssistantContextStore {
  if (settings) {
    return {
      async get(thread) {
        const stored = await settings.getSetting(assistantContextSettingKey(thread));
        if (stored === null) return null;
        try {
          return viewedChannelOf(JSON.parse(stored) as { channel_id?: string });
        } catch {
          return null;
        }
      },
      save: (thread, viewed) =>
        settings.setSetting(
          assistantContextSettingKey(thread),
          viewed ? JSON.stringify({ channel_id: viewed.channelId }) : null,
        ),
    };
  }
  const threads = new Map<string, ViewedChannel | null>();
  return {
    get: async (thread) => threads.get(assistantContextSettingKey(thread)) ?? null,
    async save(thread, viewed) {
      const key = assistantContextSettingKey(thread);
      threads.delete(key);
      threads.set(key, viewed);
      if (threads.size > MEMORY_THREAD_LIMIT) {
        const oldest = threads.keys().next().value;
        if (oldest !== undefined) threads.delete(oldest);
      }
    },
  };
}

/**
 * The spaces an assistant question searches, in order: the asker's uploads, the viewed channel (only
 * when membership was confirmed), the library.
 */
export function assistantSearchSpaceIds(input: {
  teamId: string;
  userId: string;
  memberChannelId: string | null;
  librarySpaceId: string | null;
}): SpaceId[] {
  const spaces: SpaceId[] = [`slack:${input.teamId}:user:${input.userId}`];
  if (input.memberChannelId !== null) spaces.push(`slack:${input.teamId}:${input.memberChannelId}`);
  if (input.librarySpaceId && !spaces.includes(input.librarySpaceId)) spaces.push(input.librarySpaceId);
  return spaces;
}

/** Largest page conversations.members returns. */
const MEMBERS_PAGE_SIZE = 1_000;

/**
 * Whether the person belongs to the channel, asked of Slack (conversations.members, every page until
 * found). A channel Folio cannot see (not a member of a private channel, deleted, missing scope) is
 * treated as not shared with the person: its documents stay out of the answer.
 */
export async function isChannelMember(
  client: webApi.WebClient,
  channelId: string,
  userId: string,
): Promise<{ member: boolean; reason: string | null }> {
  // A direct message beside the assistant is a conversation between people, not a space of documents.
  if (channelId.startsWith("D")) return { member: false, reason: "direct message" };
  let cursor: string | undefined;
  try {
    do {
      const page = await client.conversations.members({
        channel: channelId,
        limit: MEMBERS_PAGE_SIZE,
        ...(cursor ? { cursor } : {}),
      });
      if ((page.members ?? []).includes(userId)) return { member: true, reason: null };
      cursor = page.response_metadata?.next_cursor || undefined;
    } while (cursor);
    return { member: false, reason: "not a member" };
  } catch (error) {
    const code = (error as { data?: { error?: unknown } }).data?.error;
    return { member: false, reason: typeof code === "string" ? code : "conversations.members failed" };
  }
}
