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
import { Assistant, type webApi } from "@slack/bolt";
import type { DocumentRecord, SpaceId } from "../../src/domain/types.js";
import { toFolioError } from "../../src/errors.js";
import type { FolioCore } from "../../src/folio-core.js";
import type { Logger } from "../../src/logger.js";
import { isApprovedAnswersRequest } from "./slack-approved-answers.js";
import {
  type AssistantContextStore,
  type AssistantThreadKey,
  assistantSearchSpaceIds,
  isChannelMember,
  viewedChannelOf,
} from "./slack-assistant-context.js";
import type { SlackFileObject, SlackMessageEvent } from "./slack-events.js";
import type { SlackFileRequests } from "./slack-file-requests.js";
import { isQuestionnaireCancel, isQuestionnaireRequest } from "./slack-questionnaire.js";
import type { SlackConversation } from "./slack-space.js";
import { isFromBot } from "./slack-thread-context.js";

/** Longest thread title Folio sets (Slack shows about this much in the history list). */
const TITLE_LENGTH = 80;
const PROMPT_COUNT = 3;

export type AssistantQuestion = {
  conversation: SlackConversation;
  text: string;
  ts: string;
  threadTs: string;
  spaceIds: SpaceId[];
  /** Shows progress as the thread's loading status; false when Slack refused (not an assistant thread). */
  showStatus: (message: string) => Promise<boolean>;
  /** Called once the question is known to be the thread's first, so the thread gets its title. */
  isFirstQuestion: (isFirst: boolean) => Promise<void>;
};

export type SlackAssistantDependencies = {
  client: webApi.WebClient;
  core: Pick<FolioCore, "listDocuments">;
  logger: Logger;
  librarySpaceId: string | null;
  contexts: AssistantContextStore;
  /** The installation's team id, the one every space name uses. */
  teamIdFor: (eventTeamId: string | undefined) => Promise<string>;
  answer: (question: AssistantQuestion) => Promise<void>;
  ingestFile: (input: { file: SlackFileObject; conversation: SlackConversation; threadTs: string }) => Promise<unknown>;
  /** Questionnaires and approved answers asked for in the thread, as in a DM. */
  fileRequests: Pick<
    SlackFileRequests,
    | "answerQuestionnaire"
    | "answerSharedQuestionnaire"
    | "cancelQuestionnaire"
    | "addApprovedAnswers"
    | "addSharedApprovedAnswers"
  >;
  /** Runs work after Bolt's ack, so stop() can wait for it and failures are logged in one place. */
  track: (work: () => Promise<unknown>) => Promise<void>;
};

/** Slack shows the status after the app's name: "Folio is searching your documents…". */
export function assistantStatusText(message: string): string {
  const trimmed = message.trim();
  return trimmed ? `is ${trimmed.charAt(0).toLowerCase()}${trimmed.slice(1)}` : "is thinking…";
}

export function assistantThreadTitle(question: string): string {
  const flat = question.replace(/\s+/g, " ").trim();
  if (flat.length <= TITLE_LENGTH) return flat;
  const cut = flat.lastIndexOf(" ", TITLE_LENGTH - 1);
  return `${flat.slice(0, cut > TITLE_LENGTH / 2 ? cut : TITLE_LENGTH - 1)}…`;
}

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

/** The `error` of a Web API platform error, or the message of any other failure, for the log. */
function failureCode(error: unknown): string {
  const code = (error as { data?: { error?: unknown } } | null)?.data?.error;
  return typeof code === "string" ? code : toFolioError(error).message;
}

export function createSlackAssistant(dependencies: SlackAssistantDependencies): Assistant {
  const { client, logger, contexts } = dependencies;

  /** assistant.* calls decorate the thread; the answer must not depend on them. */
  /** True when Slack took the call. */
  const bestEffort = async (method: string, call: () => Promise<unknown>): Promise<boolean> => {
    try {
      await call();
      return true;
    } catch (error) {
      logger.info({ method, code: failureCode(error) }, "slack assistant call failed; continuing without it");
      return false;
    }
  };

  /** The spaces of this person's question, checking membership of the viewed channel with Slack. */
  const searchSpaces = async (teamId: string, userId: string, thread: AssistantThreadKey): Promise<SpaceId[]> => {
    const viewed = await contexts.get(thread);
    let memberChannelId: string | null = null;
    if (viewed !== null) {
      const membership = await isChannelMember(client, viewed.channelId, userId);
      if (membership.member) memberChannelId = viewed.channelId;
      else logger.info({ channel: viewed.channelId, reason: membership.reason }, "viewed channel not searched");
    }
    return assistantSearchSpaceIds({ teamId, userId, memberChannelId, librarySpaceId: dependencies.librarySpaceId });
  };

  const threadStarted = async (input: {
    userId: string;
    channelId: string;
    threadTs: string;
    context: { channel_id?: string } | undefined;
    eventTeamId: string | undefined;
  }) => {
    const thread = { channelId: input.channelId, threadTs: input.threadTs };
    await contexts.save(thread, viewedChannelOf(input.context));
    const teamId = await dependencies.teamIdFor(input.eventTeamId);
    const spaces = await searchSpaces(teamId, input.userId, thread);
    const documents = (await Promise.all(spaces.map((space) => dependencies.core.listDocuments(space)))).flat();
    const suggestions = buildSuggestedPrompts(documents);
    if (suggestions === null) {
      await client.chat.postMessage({
        channel: input.channelId,
        thread_ts: input.threadTs,
        text: EMPTY_ASSISTANT_GREETING,
      });
      return;
    }
    await bestEffort("assistant.threads.setSuggestedPrompts", () =>
      client.assistant.threads.setSuggestedPrompts({
        channel_id: input.channelId,
        thread_ts: input.threadTs,
        title: suggestions.title,
        prompts: suggestions.prompts as [{ title: string; message: string }],
      }),
    );
  };

  const userMessage = async (message: SlackMessageEvent, eventTeamId: string | undefined) => {
    if (isFromBot(message) || !message.user || !message.channel || !message.ts || !message.thread_ts) return;
    const teamId = await dependencies.teamIdFor(eventTeamId);
    const conversation: SlackConversation = {
      teamId,
      channelId: message.channel,
      userId: message.user,
      isDirectMessage: true,
    };
    const channelId = message.channel;
    const threadTs = message.thread_ts;
    const requests = dependencies.fileRequests;
    const text = message.text?.trim() ?? "";
    if (message.files && message.files.length > 0) {
      const [only] = message.files;
      if (only && message.files.length === 1 && isQuestionnaireRequest(text)) {
        await requests.answerSharedQuestionnaire({ conversation, file: only, threadTs });
        return;
      }
      if (only && message.files.length === 1 && isApprovedAnswersRequest(text)) {
        await requests.addSharedApprovedAnswers({ conversation, file: only, threadTs });
        return;
      }
      for (const file of message.files) await dependencies.ingestFile({ file, conversation, threadTs });
      return;
    }
    if (!text) return;
    if (isQuestionnaireCancel(text) && (await requests.cancelQuestionnaire({ conversation, threadTs }))) return;
    if (isApprovedAnswersRequest(text)) {
      await requests.addApprovedAnswers({ conversation, threadTs, ts: message.ts });
      return;
    }
    if (isQuestionnaireRequest(text)) {
      await requests.answerQuestionnaire({ conversation, threadTs, ts: message.ts });
      return;
    }
    const spaceIds = await searchSpaces(teamId, message.user, { channelId, threadTs });
    await dependencies.answer({
      conversation,
      text,
      ts: message.ts,
      threadTs,
      spaceIds,
      showStatus: (status) =>
        bestEffort("assistant.threads.setStatus", () =>
          client.assistant.threads.setStatus({
            channel_id: channelId,
            thread_ts: threadTs,
            status: assistantStatusText(status),
          }),
        ),
      isFirstQuestion: async (isFirst) => {
        if (!isFirst) return;
        await bestEffort("assistant.threads.setTitle", () =>
          client.assistant.threads.setTitle({
            channel_id: channelId,
            thread_ts: threadTs,
            title: assistantThreadTitle(text),
          }),
        );
      },
    });
  };

  const threadKeyOf = (payload: { assistant_thread: { channel_id: string; thread_ts: string } }) => ({
    channelId: payload.assistant_thread.channel_id,
    threadTs: payload.assistant_thread.thread_ts,
  });

  const assistantThreadOf = (payload: unknown) => {
    const thread = (payload as { assistant_thread?: AssistantThreadPayload }).assistant_thread;
    return thread && typeof thread.channel_id === "string" && typeof thread.thread_ts === "string" ? thread : null;
  };

  return new Assistant({
    // Bolt's default store keeps one context for the whole process; this one keeps one per thread.
    threadContextStore: {
      async get({ payload }) {
        const thread = assistantThreadOf(payload);
        if (!thread) return {};
        const viewed = await contexts.get(threadKeyOf({ assistant_thread: thread }));
        return viewed ? { channel_id: viewed.channelId } : {};
      },
      async save({ payload }) {
        const thread = assistantThreadOf(payload);
        if (!thread) return;
        await contexts.save(threadKeyOf({ assistant_thread: thread }), viewedChannelOf(thread.context));
      },
    },
    threadStarted: ({ event, context }) =>
      dependencies.track(() =>
        threadStarted({
          userId: event.assistant_thread.user_id,
          channelId: event.assistant_thread.channel_id,
          threadTs: event.assistant_thread.thread_ts,
          context: event.assistant_thread.context,
          eventTeamId: context.teamId,
        }),
      ),
    threadContextChanged: ({ event }) =>
      dependencies.track(() => contexts.save(threadKeyOf(event), viewedChannelOf(event.assistant_thread.context))),
    userMessage: ({ message, context }) =>
      dependencies.track(() => userMessage(message as SlackMessageEvent, context.teamId)),
  });
}
