/**
 * What the assistant container's handlers share (slack-assistant.ts, slack-assistant-messages.ts): its
 * dependencies, assistant.* calls made best-effort (a workspace or thread without the container still
 * gets its answer), the spaces a question searches, and the words of its status and titles.
 */
import type { webApi } from "@slack/bolt";
import type { SpaceId } from "../../src/domain/types.js";
import { toFolioError } from "../../src/errors.js";
import type { FolioCore } from "../../src/folio-core.js";
import type { Logger } from "../../src/logger.js";
import {
  type AssistantContextStore,
  type AssistantThreadKey,
  assistantSearchSpaceIds,
  isChannelMember,
} from "./slack-assistant-context.js";
import type { SlackFileObject } from "./slack-events.js";
import type { SlackFileRequests } from "./slack-file-requests.js";
import type { SlackConversation } from "./slack-space.js";

/** Longest thread title Folio sets (Slack shows about this much in the history list). */
const TITLE_LENGTH = 80;

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

/** The `error` of a Web API platform error, or the message of any other failure, for the log. */
function failureCode(error: unknown): string {
  const code = (error as { data?: { error?: unknown } } | null)?.data?.error;
  return typeof code === "string" ? code : toFolioError(error).message;
}

/** What the assistant's handlers share: its dependencies, best-effort calls and the search spaces. */
export type AssistantTools = {
  dependencies: SlackAssistantDependencies;
  /** assistant.* calls decorate the thread; the answer must not depend on them. True when Slack took the call. */
  bestEffort(method: string, call: () => Promise<unknown>): Promise<boolean>;
  /** The spaces of this person's question, checking membership of the viewed channel with Slack. */
  searchSpaces(teamId: string, userId: string, thread: AssistantThreadKey): Promise<SpaceId[]>;
};

export function assistantTools(dependencies: SlackAssistantDependencies): AssistantTools {
  const { client, logger, contexts } = dependencies;
  return {
    dependencies,
    async bestEffort(method, call) {
      try {
        await call();
        return true;
      } catch (error) {
        logger.info({ method, code: failureCode(error) }, "slack assistant call failed; continuing without it");
        return false;
      }
    },
    async searchSpaces(teamId, userId, thread) {
      const viewed = await contexts.get(thread);
      let memberChannelId: string | null = null;
      if (viewed !== null) {
        const membership = await isChannelMember(client, viewed.channelId, userId);
        if (membership.member) memberChannelId = viewed.channelId;
        else logger.info({ channel: viewed.channelId, reason: membership.reason }, "viewed channel not searched");
      }
      return assistantSearchSpaceIds({ teamId, userId, memberChannelId, librarySpaceId: dependencies.librarySpaceId });
    },
  };
}
