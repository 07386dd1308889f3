/**
 * What the parts of the Teams adapter share (teams-adapter.ts builds it once): the core, the bot's
 * configuration, the conversation state kept in the catalog, limits and pace, the work that runs after
 * the HTTP answer, and how Folio speaks in a turn (its sender, the chat a questionnaire reports to).
 */
import type { Activity, TurnContext } from "botbuilder";
import type { TeamsConfig } from "../../src/config/config.js";
import type { FolioCore } from "../../src/folio-core.js";
import type { Logger } from "../../src/logger.js";
import type { OutboundPolicy } from "../../src/outbound/public-fetch.js";
import type { ActivitySender } from "./teams-answer.js";
import type { TeamsConversationState } from "./teams-conversation-state.js";
import type { OutgoingActivity } from "./teams-message-format.js";
import type { TeamsChat, TeamsQuestionnaireDependencies } from "./teams-questionnaire.js";

export type TeamsAdapterTuning = {
  /** Smallest gap between two streaming updates in a personal chat (Teams allows about one per second). */
  updateIntervalMs: number;
  answerTimeoutMs: number;
  maxFileBytes: number;
  /** Smallest gap between two edits of a questionnaire's progress message. */
  questionnaireProgressIntervalMs: number;
};

export type TeamsAdapterParts = {
  core: FolioCore;
  teams: TeamsConfig;
  librarySpaceId: string | null;
  state: TeamsConversationState;
  logger: Logger;
  tuning: TeamsAdapterTuning;
  /** Where attachments may be downloaded from; Microsoft's file hosts unless given. */
  fileDownloads: OutboundPolicy | undefined;
  /** Aborted by the adapter's stop(): followers let go (questionnaire jobs stay for the next start). */
  stop: AbortSignal;
  questionnaires: TeamsQuestionnaireDependencies;
  /** Runs work after the HTTP answer, remembered so stop() can wait for it. */
  track(work: () => Promise<unknown>): void;
};

// Bot Connector calls that fail with 429 (Retry-After honoured), 5xx or a network error are retried
// with exponential backoff by the SDK's HTTP pipeline (@azure/core-rest-pipeline's default policy).
export function senderFor(context: TurnContext): ActivitySender {
  return async (activity: OutgoingActivity) => {
    const response = await context.sendActivity(activity as Partial<Activity>);
    return response?.id ?? null;
  };
}

export function sendText(context: TurnContext, text: string): Promise<string | null> {
  return senderFor(context)({ type: "message", text, textFormat: "markdown" });
}

/** The chat a questionnaire reports to: messages sent and edited in this turn's conversation. */
export function chatFor(context: TurnContext): TeamsChat {
  return {
    async send(activity) {
      return (await context.sendActivity(activity as Partial<Activity>))?.id ?? null;
    },
    async update(activityId, text) {
      await context.updateActivity({ id: activityId, type: "message", text, textFormat: "markdown" });
    },
  };
}
