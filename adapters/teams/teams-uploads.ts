/**
 * Files sent to Folio in a 1:1 chat: indexed into the chat's space, or — with a channel's upload code in
 * the message — into that channel's. Each file gets a reply, edited as its passages are embedded after
 * it; this (proactive) turn lasts until they are, or until the adapter's stop() lets go.
 */
import { randomUUID } from "node:crypto";
import type { TurnContext } from "botbuilder";
import { toFolioError } from "../../src/errors.js";
import { spaceIdForConversation, type TeamsConversation, type TeamsFile } from "./teams-activity.js";
import { sendText, type TeamsAdapterParts } from "./teams-adapter-parts.js";
import { readUploadCode } from "./teams-conversation-state.js";
import { ingestTeamsFile } from "./teams-files.js";
import { createMeaningFollower } from "./teams-meaning-follower.js";
import { buildIngestResultText } from "./teams-message-format.js";

export async function ingestTeamsFiles(
  parts: TeamsAdapterParts,
  context: TurnContext,
  conversation: TeamsConversation,
  files: TeamsFile[],
  text: string,
): Promise<void> {
  const { core, logger, tuning } = parts;
  const code = readUploadCode(text);
  let spaceId = spaceIdForConversation(conversation);
  let targetLabel: string | null = null;
  if (code) {
    const target = await parts.state.channelForCode(code);
    if (!target) {
      await sendText(
        context,
        `No channel has the upload code \`${code}\` — mention me with \`help\` in the channel to see its code.`,
      );
      return;
    }
    spaceId = target.spaceId;
    targetLabel = target.label;
  }
  const following: Array<Promise<void>> = [];
  for (const file of files) {
    await context.sendActivity({ type: "typing" });
    const meaning = createMeaningFollower();
    const { text: reply, result } = await ingestTeamsFile(
      {
        core,
        logger,
        maxBytes: tuning.maxFileBytes,
        ...(parts.fileDownloads ? { downloads: parts.fileDownloads } : {}),
      },
      {
        file,
        spaceId,
        uploader: conversation.userId,
        targetLabel,
        requestId: randomUUID(),
        onMeaning: meaning.onMeaning,
      },
    );
    const replyId = await sendText(context, reply);
    if (!result?.meaningPending || !replyId) continue;
    following.push(
      meaning
        .follow({
          edit: async (update) => {
            await context.updateActivity({
              id: replyId,
              type: "message",
              text: buildIngestResultText(result, targetLabel, update),
              textFormat: "markdown",
            });
          },
          intervalMs: tuning.questionnaireProgressIntervalMs,
          stop: parts.stop,
        })
        .catch((error: unknown) =>
          logger.warn({ error: toFolioError(error).message }, "could not edit an upload's reply with its embedding"),
        ),
    );
  }
  await Promise.all(following);
}
