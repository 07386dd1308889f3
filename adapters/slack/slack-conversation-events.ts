/**
 * The Bolt listeners for conversations outside the assistant container: a mention or a message Folio
 * should answer becomes a question (handed to the adapter's `answer`), and a shared file becomes an
 * upload (`ingestSharedFile`). Which messages count is decided by `classifyMessageEvent`; this module
 * only gathers what each decision needs (who Folio is, the channel's mode, the thread so far).
 */
import type { App, webApi } from "@slack/bolt";
import { isApprovedAnswersRequest } from "./slack-approved-answers.js";
import type { ChannelModeStore } from "./slack-commands.js";
import {
  classifyMessageEvent,
  findFileShareThread,
  looksLikeQuestion,
  type SlackFileObject,
  type SlackMessageEvent,
} from "./slack-events.js";
import { ingestSharedFile, type SlackFileDependencies } from "./slack-files.js";
import { isQuestionnaireCancel, isQuestionnaireRequest } from "./slack-questionnaire.js";
import { isDirectMessageChannel, type SlackConversation } from "./slack-space.js";
import { type BotIdentity, type SlackThreadMessage, threadHasFolioReply } from "./slack-thread-context.js";

/** A question found in a conversation, with the thread it arrived in. */
export type ConversationQuestion = {
  conversation: SlackConversation;
  text: string;
  ts: string;
  /** Thread to answer in; null answers at the top level (a direct message outside a thread). */
  replyThreadTs: string | null;
  thread: SlackThreadMessage[];
  bot: BotIdentity;
};

export type ConversationEventDependencies = {
  client: webApi.WebClient;
  channelModes: ChannelModeStore;
  fileDependencies: SlackFileDependencies;
  /** Who Folio is (auth.test, once per process), so it can ignore itself. */
  resolveIdentity: () => Promise<BotIdentity & { teamId: string | null }>;
  fetchThread: (channel: string, threadTs: string) => Promise<SlackThreadMessage[]>;
  answer: (question: ConversationQuestion) => Promise<void>;
  /** "answer this questionnaire": answers the file shared in the thread (or, outside one, the latest here). */
  answerQuestionnaire: (request: {
    conversation: SlackConversation;
    threadTs: string | null;
    ts: string;
  }) => Promise<void>;
  /** "cancel" in a thread where a questionnaire is being answered; false when none is (then it is a question). */
  cancelQuestionnaire: (request: { conversation: SlackConversation; threadTs: string }) => Promise<boolean>;
  /** A file shared with "answer this questionnaire" in the same message: answered, never indexed. */
  answerSharedQuestionnaire: (request: {
    conversation: SlackConversation;
    file: SlackFileObject;
    threadTs: string;
  }) => Promise<void>;
  /** "add these as approved answers": adds the file shared in the thread (or, outside one, the latest here). */
  addApprovedAnswers: (request: {
    conversation: SlackConversation;
    threadTs: string | null;
    ts: string;
  }) => Promise<void>;
  /** A file shared with "add these as approved answers" in the same message: added, never indexed. */
  addSharedApprovedAnswers: (request: {
    conversation: SlackConversation;
    file: SlackFileObject;
    threadTs: string;
  }) => Promise<void>;
  /** Runs work after Bolt's ack, remembered so the adapter's stop() can wait for it. */
  track: (work: () => Promise<unknown>) => Promise<void>;
};

export function registerConversationEvents(app: App, dependencies: ConversationEventDependencies): void {
  const { client, channelModes, fileDependencies, resolveIdentity, fetchThread, answer, track } = dependencies;
  const { answerQuestionnaire, answerSharedQuestionnaire, cancelQuestionnaire } = dependencies;
  const { addApprovedAnswers, addSharedApprovedAnswers } = dependencies;

  app.event("app_mention", async ({ event, context }) =>
    track(async () => {
      if (event.bot_id !== undefined || !event.user) return;
      // A mention with files is an upload; its `message` event ingests the files.
      if ("files" in event && Array.isArray(event.files) && event.files.length > 0) return;
      const bot = await resolveIdentity();
      const teamId = context.teamId ?? bot.teamId ?? "unknown";
      const conversation = { teamId, channelId: event.channel, userId: event.user, isDirectMessage: false };
      if (event.thread_ts && isQuestionnaireCancel(event.text)) {
        if (await cancelQuestionnaire({ conversation, threadTs: event.thread_ts })) return;
      }
      if (isApprovedAnswersRequest(event.text)) {
        await addApprovedAnswers({ conversation, threadTs: event.thread_ts ?? null, ts: event.ts });
        return;
      }
      if (isQuestionnaireRequest(event.text)) {
        await answerQuestionnaire({
          conversation: { teamId, channelId: event.channel, userId: event.user, isDirectMessage: false },
          threadTs: event.thread_ts ?? null,
          ts: event.ts,
        });
        return;
      }
      const threadTs = event.thread_ts ?? event.ts;
      const thread = event.thread_ts ? await fetchThread(event.channel, event.thread_ts) : [];
      await answer({
        conversation: { teamId, channelId: event.channel, userId: event.user, isDirectMessage: false },
        text: event.text,
        ts: event.ts,
        replyThreadTs: threadTs,
        thread,
        bot,
      });
    }),
  );

  app.event("message", async ({ event, context }) =>
    track(async () => {
      const message = event as SlackMessageEvent;
      const bot = await resolveIdentity();
      const teamId = context.teamId ?? bot.teamId ?? "unknown";
      const channel = message.channel ?? "";
      // The mode is read only for a top-level channel question, the one message it can change.
      const mayAnswerAll =
        message.channel_type !== "im" &&
        (message.thread_ts === undefined || message.thread_ts === message.ts) &&
        looksLikeQuestion(message.text ?? "");
      const decision = classifyMessageEvent(message, {
        botUserId: bot.botUserId,
        answersEveryQuestion: mayAnswerAll && (await channelModes.answersEveryQuestion(`${teamId}:${channel}`)),
      });
      if (decision.kind === "ignore") return;
      const isDirectMessage = isDirectMessageChannel(channel, message.channel_type);
      const conversation: SlackConversation = {
        teamId,
        channelId: channel,
        userId: message.user ?? "",
        isDirectMessage,
      };
      const ts = message.ts ?? "";
      const inThread = message.thread_ts !== undefined && message.thread_ts !== ts;
      if (decision.kind === "files") {
        const [only] = decision.files;
        if (only && decision.files.length === 1 && isQuestionnaireRequest(message.text ?? "")) {
          await answerSharedQuestionnaire({ conversation, file: only, threadTs: message.thread_ts ?? ts });
          return;
        }
        if (only && decision.files.length === 1 && isApprovedAnswersRequest(message.text ?? "")) {
          await addSharedApprovedAnswers({ conversation, file: only, threadTs: message.thread_ts ?? ts });
          return;
        }
        for (const file of decision.files) {
          await ingestSharedFile(fileDependencies, { file, conversation, threadTs: message.thread_ts ?? ts });
        }
        return;
      }
      const thread = inThread && message.thread_ts ? await fetchThread(channel, message.thread_ts) : [];
      if (decision.kind === "follow-up-candidate" && !threadHasFolioReply(thread, bot)) return;
      if (inThread && message.thread_ts && isQuestionnaireCancel(message.text ?? "")) {
        if (await cancelQuestionnaire({ conversation, threadTs: message.thread_ts })) return;
      }
      if (isApprovedAnswersRequest(message.text ?? "")) {
        await addApprovedAnswers({ conversation, threadTs: inThread ? (message.thread_ts ?? null) : null, ts });
        return;
      }
      if (isQuestionnaireRequest(message.text ?? "")) {
        await answerQuestionnaire({ conversation, threadTs: inThread ? (message.thread_ts ?? null) : null, ts });
        return;
      }
      const replyThreadTs = isDirectMessage && !inThread ? null : (message.thread_ts ?? ts);
      await answer({ conversation, text: message.text ?? "", ts, replyThreadTs, thread, bot });
    }),
  );

  app.event("file_shared", async ({ event, context }) =>
    track(async () => {
      const bot = await resolveIdentity();
      if (event.user_id === bot.botUserId) return;
      const info = await client.files.info({ file: event.file_id });
      const file = info.file as SlackFileObject | undefined;
      if (!file) return;
      const teamId = context.teamId ?? bot.teamId ?? "unknown";
      const isDirectMessage = isDirectMessageChannel(event.channel_id);
      const threadTs = findFileShareThread(file, event.channel_id);
      await ingestSharedFile(fileDependencies, {
        file,
        conversation: { teamId, channelId: event.channel_id, userId: event.user_id, isDirectMessage },
        threadTs: threadTs ?? undefined,
      });
    }),
  );
}
