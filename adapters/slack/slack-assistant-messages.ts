/**
 * A person's message in an assistant thread: a file shared there is indexed into the asker's own space,
 * unless it comes with "answer this questionnaire" or "add these as approved answers" (then it is that,
 * as in a DM); "cancel" stops the thread's questionnaire; anything else is a question, answered with the
 * thread's loading status and, for its first question, a title.
 */

import { isApprovedAnswersRequest } from "./slack-approved-answers.js";
import { type AssistantTools, assistantStatusText, assistantThreadTitle } from "./slack-assistant-tools.js";
import type { SlackMessageEvent } from "./slack-events.js";
import { isQuestionnaireCancel, isQuestionnaireRequest } from "./slack-questionnaire.js";
import type { SlackConversation } from "./slack-space.js";
import { isFromBot } from "./slack-thread-context.js";

export async function handleAssistantMessage(
  tools: AssistantTools,
  message: SlackMessageEvent,
  eventTeamId: string | undefined,
): Promise<void> {
  const { dependencies } = tools;
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
  const spaceIds = await tools.searchSpaces(teamId, message.user, { channelId, threadTs });
  const { client } = dependencies;
  await dependencies.answer({
    conversation,
    text,
    ts: message.ts,
    threadTs,
    spaceIds,
    showStatus: (status) =>
      tools.bestEffort("assistant.threads.setStatus", () =>
        client.assistant.threads.setStatus({
          channel_id: channelId,
          thread_ts: threadTs,
          status: assistantStatusText(status),
        }),
      ),
    isFirstQuestion: async (isFirst) => {
      if (!isFirst) return;
      await tools.bestEffort("assistant.threads.setTitle", () =>
        client.assistant.threads.setTitle({
          channel_id: channelId,
          thread_ts: threadTs,
          title: assistantThreadTitle(text),
        }),
      );
    },
  });
}
