/**
 * A question found in a conversation or an assistant thread, answered in its thread: the thread so far
 * becomes the question's history, an empty mention gets a hint instead, and the answer is rendered by
 * slack-answer.ts with the adapter's streaming and feedback support.
 */
import { randomUUID } from "node:crypto";
import type { webApi } from "@slack/bolt";
import type { FolioCore } from "../../src/folio-core.js";
import type { Logger } from "../../src/logger.js";
import { answerInThread, type NativeFeedback, type NativeStreaming } from "./slack-answer.js";
import type { AssistantQuestion } from "./slack-assistant-tools.js";
import type { ConversationQuestion } from "./slack-conversation-events.js";
import { searchSpaceIds, spaceIdForConversation } from "./slack-space.js";
import { buildThreadHistory, stripMentions, unescapeSlackText } from "./slack-thread-context.js";

export type SlackQuestion = ConversationQuestion & {
  /** The assistant container's parts: its own spaces, loading status and thread title. */
  assistant?: Pick<AssistantQuestion, "spaceIds" | "showStatus" | "isFirstQuestion">;
};

export type SlackQuestionDependencies = {
  client: webApi.WebClient;
  core: FolioCore;
  logger: Logger;
  librarySpaceId: string | null;
  updateIntervalMs: number;
  answerTimeoutMs: number;
  /** Shared by every answer of the adapter: learned once whether the workspace has them. */
  nativeStreaming: NativeStreaming;
  nativeFeedback: NativeFeedback;
};

export function createSlackQuestionAnswerer(dependencies: SlackQuestionDependencies) {
  const { client, core, logger } = dependencies;
  return async (input: SlackQuestion): Promise<void> => {
    const requestId = randomUUID();
    const spaceId = spaceIdForConversation(input.conversation);
    const history = buildThreadHistory(input.thread, { ...input.bot, currentTs: input.ts });
    await input.assistant?.isFirstQuestion(!history.some((turn) => turn.role === "user"));
    const question = unescapeSlackText(stripMentions(input.text));
    if (!question) {
      await client.chat.postMessage({
        channel: input.conversation.channelId,
        ...(input.replyThreadTs ? { thread_ts: input.replyThreadTs } : {}),
        text: "Ask me a question about the documents shared here — or try `/folio help`.",
      });
      return;
    }
    await answerInThread({
      client,
      core,
      logger,
      channel: input.conversation.channelId,
      threadTs: input.replyThreadTs,
      question,
      spaceId,
      spaceIds: input.assistant?.spaceIds ?? searchSpaceIds(spaceId, dependencies.librarySpaceId),
      history,
      requestId,
      updateIntervalMs: dependencies.updateIntervalMs,
      timeoutMs: dependencies.answerTimeoutMs,
      streaming: {
        recipientUserId: input.conversation.userId,
        recipientTeamId: input.conversation.teamId,
        support: dependencies.nativeStreaming,
      },
      nativeFeedback: dependencies.nativeFeedback,
      showStatus: input.assistant?.showStatus ?? null,
    });
  };
}
