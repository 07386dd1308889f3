/**
 * A message Folio should answer in Teams: `help`, `docs` and `forget` run as commands; anything else is
 * a question answered in the conversation (streamed in a personal chat), remembered so feedback on the
 * reply can be recorded and, in a channel thread, so the next question has its history.
 */
import { randomUUID } from "node:crypto";
import type { TurnContext } from "botbuilder";
import {
  searchSpaceIds,
  spaceIdForConversation,
  type TeamsActivity,
  type TeamsConversation,
} from "./teams-activity.js";
import { senderFor, sendText, type TeamsAdapterParts } from "./teams-adapter-parts.js";
import { answerInConversation } from "./teams-answer.js";
import { parseTeamsCommand, runTeamsCommand } from "./teams-commands.js";

/** Channels and group chats get documents through a 1:1 upload carrying their code. */
export function uploadCodeOf(
  parts: Pick<TeamsAdapterParts, "state">,
  conversation: TeamsConversation,
  activity: TeamsActivity,
): Promise<string | null> {
  if (conversation.kind === "personal") return Promise.resolve(null);
  return parts.state.uploadCodeFor({
    spaceId: spaceIdForConversation(conversation),
    label: conversation.kind === "channel" ? (activity.channelData?.channel?.name ?? "the channel") : "the group chat",
  });
}

export async function answerTeamsQuestion(
  parts: TeamsAdapterParts,
  context: TurnContext,
  conversation: TeamsConversation,
  activity: TeamsActivity,
  question: string,
): Promise<void> {
  const { core, state, tuning } = parts;
  const spaceId = spaceIdForConversation(conversation);
  const command = parseTeamsCommand(question);
  if (command) {
    const text = await runTeamsCommand(
      command,
      {
        spaceId,
        kind: conversation.kind,
        userId: conversation.userId,
        adminUserIds: parts.teams.adminUserIds,
        uploadCode: await uploadCodeOf(parts, conversation, activity),
      },
      core,
    );
    await sendText(context, text);
    return;
  }
  const inThread = conversation.kind === "channel";
  const history = inThread ? await state.threadTurns(conversation.conversationId) : [];
  const requestId = randomUUID();
  const outcome = await answerInConversation({
    core,
    logger: parts.logger,
    send: senderFor(context),
    question,
    spaceId,
    spaceIds: searchSpaceIds(spaceId, parts.librarySpaceId),
    history,
    requestId,
    stream: conversation.kind === "personal",
    updateIntervalMs: tuning.updateIntervalMs,
    timeoutMs: tuning.answerTimeoutMs,
  });
  if (outcome.status !== "answered") return;
  for (const messageId of outcome.messageIds) {
    await state.rememberAnswerMessage(conversation.conversationId, messageId, { answerId: requestId, spaceId });
  }
  if (inThread) {
    await state.appendThreadTurns(conversation.conversationId, [
      { role: "user", text: question },
      { role: "assistant", text: outcome.text },
    ]);
  }
}
