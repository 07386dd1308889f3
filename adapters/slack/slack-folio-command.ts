/**
 * The `/folio` slash command. `questionnaire` and `answers add` act on the channel's most recent shared
 * file (Slack gives a slash command no thread) and answer at once, the work following in the file's
 * thread; every other subcommand (slack-commands.ts) answers ephemerally with its text.
 */
import { randomUUID } from "node:crypto";
import type { App } from "@slack/bolt";
import { toFolioError } from "../../src/errors.js";
import type { FolioCore } from "../../src/folio-core.js";
import type { Logger } from "../../src/logger.js";
import { type ChannelModeStore, parseFolioCommand, runFolioCommand } from "./slack-commands.js";
import type { SharedFile, SlackFileRequests } from "./slack-file-requests.js";
import { escapeDocumentText } from "./slack-message-format.js";
import { isDirectMessageChannel, type SlackConversation, spaceIdForConversation } from "./slack-space.js";

export type FolioCommandDependencies = {
  core: FolioCore;
  channelModes: ChannelModeStore;
  fileRequests: SlackFileRequests;
  /** FOLIO_SLACK_ADMINS: who may `/folio forget` any document. */
  adminUserIds: string[];
  logger: Logger;
  track: (work: () => Promise<unknown>) => Promise<void>;
};

type FileCommand = {
  /** What the work is, for the acknowledgement: "Answering X as a questionnaire — …". */
  accepted: (fileName: string) => string;
  /** What to do when the channel has no shared file. */
  noFile: string;
  start: (conversation: SlackConversation, found: SharedFile) => Promise<void>;
};

export function registerFolioCommand(app: App, dependencies: FolioCommandDependencies): void {
  const { core, channelModes, fileRequests, logger, track } = dependencies;
  const fileCommands: Partial<Record<string, FileCommand>> = {
    questionnaire: {
      accepted: (fileName) =>
        `Answering ${escapeDocumentText(fileName)} as a questionnaire — progress and the filled copy will be in its thread.`,
      noFile:
        "I found no file shared here — share the questionnaire (XLSX, CSV or DOCX), then run `/folio questionnaire` again.",
      start: (conversation, found) => fileRequests.answerFoundQuestionnaire(conversation, found),
    },
    "answers-add": {
      accepted: (fileName) =>
        `Adding ${escapeDocumentText(fileName)} as approved answers — I will say how many in its thread.`,
      noFile:
        "I found no file shared here — share the completed questionnaire (XLSX, CSV or DOCX), then run `/folio answers add` again.",
      start: (conversation, found) => fileRequests.addFoundApprovedAnswers(conversation, found),
    },
  };

  app.command("/folio", async ({ command, ack, context }) => {
    const isDirectMessage = isDirectMessageChannel(command.channel_id);
    // The same team id as events use (the installation's, from authorize), so that in Slack Connect or
    // Enterprise Grid `/folio docs` lists the very space that mentions search.
    const teamId = context.teamId ?? command.team_id;
    const conversation = { teamId, channelId: command.channel_id, userId: command.user_id, isDirectMessage };
    const spaceId = spaceIdForConversation(conversation);
    try {
      const parsed = parseFolioCommand(command.text);
      const fileCommand = fileCommands[parsed.name];
      if (fileCommand) {
        // Slack gives a slash command no thread: the channel's most recent shared file is the one meant.
        const found = await fileRequests.findSharedFile(command.channel_id, null);
        const fileName = found?.file.name ?? found?.file.title ?? "the file";
        await ack({ response_type: "ephemeral", text: found ? fileCommand.accepted(fileName) : fileCommand.noFile });
        if (found) void track(() => fileCommand.start(conversation, found));
        return;
      }
      const text = await runFolioCommand(
        parsed,
        {
          spaceId,
          channelKey: `${teamId}:${command.channel_id}`,
          isDirectMessage,
          userId: command.user_id,
          adminUserIds: dependencies.adminUserIds,
        },
        { core, channelModes },
      );
      await ack({ response_type: "ephemeral", text });
    } catch (error) {
      const requestId = randomUUID();
      logger.error({ requestId, error: toFolioError(error).message, space: spaceId }, "slack command failed");
      await ack({ response_type: "ephemeral", text: `Sorry — that did not work. Reference: \`${requestId}\`` });
    }
  });
}
