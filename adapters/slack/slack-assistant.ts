/**
 * Folio as a Slack AI app (the assistant container, Bolt's `Assistant`): when a person opens a thread it
 * remembers which channel they are viewing and offers suggested prompts about documents they can
 * search; a question there sets the loading status, titles the thread after its first question, and is
 * answered in the thread from the asker's uploads, the library and — if they are a member — the viewed
 * channel; a file shared there is indexed into the asker's own space, unless it comes with "answer this
 * questionnaire" or "add these as approved answers" (then it is that, as in a DM; "cancel" stops the
 * thread's questionnaire). Every assistant.* call is best-effort: a workspace or thread without the
 * container still gets its answer.
 */
import { Assistant } from "@slack/bolt";
import type { DocumentRecord } from "../../src/domain/types.js";
import { type AssistantContextStore, viewedChannelOf } from "./slack-assistant-context.js";
import { handleAssistantMessage } from "./slack-assistant-messages.js";
import {
  type AssistantTools,
  assistantThreadTitle,
  assistantTools,
  type SlackAssistantDependencies,
} from "./slack-assistant-tools.js";
import type { SlackMessageEvent } from "./slack-events.js";

const PROMPT_COUNT = 3;

export {
  type AssistantQuestion,
  assistantStatusText,
  assistantThreadTitle,
  type SlackAssistantDependencies,
} from "./slack-assistant-tools.js";

type AssistantThreadPayload = { channel_id: string; thread_ts: string; context?: { channel_id?: string } };

export type SuggestedPrompts = { title: string; prompts: Array<{ title: string; message: string }> };

/** Prompts about the newest documents the person can search; null when there are none to suggest. */
export function buildSuggestedPrompts(documents: DocumentRecord[]): SuggestedPrompts | null {
  const seen = new Set<string>();
  const newest = [...documents]
    .filter((document) => document.status === "ready")
    .sort((left, right) => right.createdAt.getTime() - left.createdAt.getTime())
    .filter((document) => {
      const key = document.title.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, PROMPT_COUNT);
  if (newest.length === 0) return null;
  return {
    title: "Ask about your documents",
    prompts: newest.map((document) => ({
      title: assistantThreadTitle(`What does ${document.title} cover?`),
      message: `What are the main points of ${document.title}?`,
    })),
  };
}

export const EMPTY_ASSISTANT_GREETING =
  "Share a PDF, Word, Excel, CSV or text file here and I will index it for you; then ask me about it. In a channel, mention me and I answer from that channel's files.";

/** A new assistant thread: remember the channel being viewed, then suggest prompts (or say what to do). */
async function startThread(
  tools: AssistantTools,
  input: {
    userId: string;
    channelId: string;
    threadTs: string;
    context: { channel_id?: string } | undefined;
    eventTeamId: string | undefined;
  },
): Promise<void> {
  const { client, contexts } = tools.dependencies;
  const thread = { channelId: input.channelId, threadTs: input.threadTs };
  await contexts.save(thread, viewedChannelOf(input.context));
  const teamId = await tools.dependencies.teamIdFor(input.eventTeamId);
  const spaces = await tools.searchSpaces(teamId, input.userId, thread);
  const documents = (await Promise.all(spaces.map((space) => tools.dependencies.core.listDocuments(space)))).flat();
  const suggestions = buildSuggestedPrompts(documents);
  if (suggestions === null) {
    await client.chat.postMessage({
      channel: input.channelId,
      thread_ts: input.threadTs,
      text: EMPTY_ASSISTANT_GREETING,
    });
    return;
  }
  await tools.bestEffort("assistant.threads.setSuggestedPrompts", () =>
    client.assistant.threads.setSuggestedPrompts({
      channel_id: input.channelId,
      thread_ts: input.threadTs,
      title: suggestions.title,
      prompts: suggestions.prompts as [{ title: string; message: string }],
    }),
  );
}

const threadKeyOf = (payload: { assistant_thread: { channel_id: string; thread_ts: string } }) => ({
  channelId: payload.assistant_thread.channel_id,
  threadTs: payload.assistant_thread.thread_ts,
});

const assistantThreadOf = (payload: unknown) => {
  const thread = (payload as { assistant_thread?: AssistantThreadPayload }).assistant_thread;
  return thread && typeof thread.channel_id === "string" && typeof thread.thread_ts === "string" ? thread : null;
};

/** Bolt's default store keeps one context for the whole process; this one keeps one per thread. */
function threadContextStore(contexts: AssistantContextStore) {
  return {
    async get({ payload }: { payload: unknown }) {
      const thread = assistantThreadOf(payload);
      if (!thread) return {};
      const viewed = await contexts.get(threadKeyOf({ assistant_thread: thread }));
      return viewed ? { channel_id: viewed.channelId } : {};
    },
    async save({ payload }: { payload: unknown }) {
      const thread = assistantThreadOf(payload);
      if (!thread) return;
      await contexts.save(threadKeyOf({ assistant_thread: thread }), viewedChannelOf(thread.context));
    },
  };
}

export function createSlackAssistant(dependencies: SlackAssistantDependencies): Assistant {
  const tools = assistantTools(dependencies);
  const { contexts, track } = dependencies;
  return new Assistant({
    threadContextStore: threadContextStore(contexts),
    threadStarted: ({ event, context }) =>
      track(() =>
        startThread(tools, {
          userId: event.assistant_thread.user_id,
          channelId: event.assistant_thread.channel_id,
          threadTs: event.assistant_thread.thread_ts,
          context: event.assistant_thread.context,
          eventTeamId: context.teamId,
        }),
      ),
    threadContextChanged: ({ event }) =>
      track(() => contexts.save(threadKeyOf(event), viewedChannelOf(event.assistant_thread.context))),
    userMessage: ({ message, context }) =>
      track(() => handleAssistantMessage(tools, message as SlackMessageEvent, context.teamId)),
  });
}
