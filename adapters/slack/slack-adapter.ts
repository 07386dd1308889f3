/**
 * Folio in Slack, built on Bolt: turns mentions, thread follow-ups and direct messages into
 * `core.answerQuestion` calls, shared files into `core.ingestFile`, feedback buttons into
 * `core.recordFeedback`, and `/folio` into its commands. This module wires the parts: the client, identity
 * and Bolt app (`slack-connection.ts`), dropping retried deliveries through the core's database-backed
 * event log so several replicas answer each question once (`slack-duplicate-events.ts`), the listeners for
 * mentions, messages and shared files (`slack-conversation-events.ts`), questions answered in threads
 * (`slack-question.ts`), Slack's assistant container (`slack-assistant.ts`), the feedback buttons
 * (`slack-feedback-action.ts`), `/folio` (`slack-folio-command.ts`) and the file features
 * (`slack-file-dependencies.ts`). At start it checks the token with auth.test and warns about a public
 * address Slack or readers cannot use. HTTP mode hands the Folio server one route (`slack-events-route.ts`);
 * Socket Mode connects out with the app token instead.
 */
import { fileURLToPath } from "node:url";
import type { webApi } from "@slack/bolt";
import { DEFAULT_PARSE_LIMITS } from "../../ingestion/limits.js";
import type { SlackConfig } from "../../src/config/config.js";
import { toFolioError } from "../../src/errors.js";
import type { FolioCore } from "../../src/folio-core.js";
import type { HttpRoute } from "../../src/http/http-route.js";
import type { Logger } from "../../src/logger.js";
import { createBackgroundWork } from "../background-work.js";
import type { NativeFeedback, NativeStreaming } from "./slack-answer.js";
import { createSlackAssistant } from "./slack-assistant.js";
import { createAssistantContextStore } from "./slack-assistant-context.js";
import { createMemoryChannelModeStore, createSettingsChannelModeStore, type SettingsStore } from "./slack-commands.js";
import { connectToSlack, SLACK_EVENTS_PATH } from "./slack-connection.js";
import { registerConversationEvents } from "./slack-conversation-events.js";
import { registerDuplicateEventCheck } from "./slack-duplicate-events.js";
import { slackEventsRoutes } from "./slack-events-route.js";
import { registerFeedbackAction } from "./slack-feedback-action.js";
import { followResumedQuestionnaires, gatherSlackFileFeatures } from "./slack-file-dependencies.js";
import { createSlackFileRequests } from "./slack-file-requests.js";
import { ingestSharedFile } from "./slack-files.js";
import { registerFolioCommand } from "./slack-folio-command.js";
import { createSlackQuestionAnswerer } from "./slack-question.js";
import { runSlackStartupChecks } from "./slack-startup-checks.js";
import type { SlackThreadMessage } from "./slack-thread-context.js";

export { normalizeSlackApiUrl, SLACK_EVENTS_PATH } from "./slack-connection.js";

export type SlackAdapterTuning = {
  /** Smallest gap between two edits of a streaming answer (Slack allows about one per second). */
  updateIntervalMs: number;
  answerTimeoutMs: number;
  maxFileBytes: number;
  /** How the Web API client retries failed calls; rate-limited calls always wait for Retry-After. */
  retryConfig: webApi.RetryOptions;
  /** Try Slack's chat streaming API (chat.startStream…) before editing the message as text arrives. */
  nativeStreaming: boolean;
  /** Try Slack's native `feedback_buttons` before ordinary 👍/👎 buttons. */
  nativeFeedback: boolean;
  /** Smallest gap between two edits of a questionnaire's progress message. */
  questionnaireProgressIntervalMs: number;
};

export type SlackAdapterOptions = {
  core: FolioCore;
  slack: SlackConfig;
  librarySpaceId: string | null;
  logger: Logger;
  /**
   * Where per-channel modes (`/folio answer-all`) are kept: the catalog in `folio serve`, so they
   * survive restarts and hold across replicas. Without it they live in this process only.
   */
  settings?: SettingsStore | null;
  /** FOLIO_PUBLIC_URL, checked at start (a localhost address, or one Slack's request URL cannot match). */
  publicUrl?: string;
  /** The app manifest whose request URLs are compared with FOLIO_PUBLIC_URL; null skips the comparison. */
  manifestPath?: string | null;
  tuning?: Partial<SlackAdapterTuning>;
};

export type SlackAdapter = {
  /** POST /slack/events in HTTP mode; empty in Socket Mode. */
  routes: HttpRoute[];
  /**
   * Checks SLACK_BOT_TOKEN with auth.test (a refused token throws a ConfigError naming it), logs
   * warnings about FOLIO_PUBLIC_URL, and connects Socket Mode.
   */
  start(): Promise<void>;
  /**
   * Disconnects and waits for answers and uploads in progress; questionnaire jobs are not waited for
   * (their threads say "paused"; the next start resumes them and reports in the same thread).
   */
  stop(): Promise<void>;
};

const DEFAULT_TUNING: SlackAdapterTuning = {
  updateIntervalMs: 1_000,
  answerTimeoutMs: 120_000,
  maxFileBytes: DEFAULT_PARSE_LIMITS.maxBytes,
  retryConfig: { retries: 4, factor: 2, minTimeout: 1_000, maxTimeout: 30_000, randomize: true },
  nativeStreaming: true,
  nativeFeedback: true,
  questionnaireProgressIntervalMs: 5_000,
};

/** The manifest shipped beside this module; an admin who edits it in place gets it compared too. */
export const DEFAULT_MANIFEST_PATH = fileURLToPath(new URL("./manifest.yml", import.meta.url));

export function createSlackAdapter(options: SlackAdapterOptions): SlackAdapter {
  const { core, slack, librarySpaceId } = options;
  const logger = options.logger.child({ adapter: "slack" });
  const tuning: SlackAdapterTuning = { ...DEFAULT_TUNING, ...options.tuning };
  const { client, app, receiver, socketMode, apiOrigin, resolveIdentity } = connectToSlack(
    slack,
    tuning.retryConfig,
    logger,
  );
  const channelModes = options.settings
    ? createSettingsChannelModeStore(options.settings)
    : createMemoryChannelModeStore();
  const work = createBackgroundWork((error) => {
    logger.error({ code: toFolioError(error).code, err: error }, "slack handler failed");
  });
  /** Runs work after Bolt's ack, remembered so stop() can wait for it. */
  const track = (job: () => Promise<unknown>) => work.run(job);
  // Aborted by stop(): questionnaire followers let go (their jobs stay in the catalog for the next start).
  const stopping = new AbortController();
  const features = gatherSlackFileFeatures({
    client,
    core,
    slack,
    apiOrigin,
    maxBytes: tuning.maxFileBytes,
    logger,
    progressIntervalMs: tuning.updateIntervalMs,
    questionnaireProgressIntervalMs: tuning.questionnaireProgressIntervalMs,
    stop: stopping.signal,
  });
  const stopFollowingResumed = followResumedQuestionnaires(core, features.questionnaires, track);
  const fileRequests = createSlackFileRequests({
    client,
    core,
    questionnaires: features.questionnaires,
    approvedAnswers: features.approvedAnswers,
  });
  const fetchThread = async (channel: string, threadTs: string): Promise<SlackThreadMessage[]> => {
    const replies = await client.conversations.replies({ channel, ts: threadTs, limit: 100 });
    return (replies.messages ?? []) as SlackThreadMessage[];
  };
  const answer = createSlackQuestionAnswerer({
    client,
    core,
    logger,
    librarySpaceId,
    updateIntervalMs: tuning.updateIntervalMs,
    answerTimeoutMs: tuning.answerTimeoutMs,
    nativeStreaming: { state: tuning.nativeStreaming ? "unknown" : "unavailable" } satisfies NativeStreaming,
    nativeFeedback: { state: tuning.nativeFeedback ? "unknown" : "unavailable" } satisfies NativeFeedback,
  });

  registerDuplicateEventCheck(app, { core, logger, socketMode });
  // After the duplicate check: assistant-thread events and messages go to the assistant, the rest on.
  app.assistant(
    createSlackAssistant({
      client,
      core,
      logger,
      librarySpaceId,
      contexts: createAssistantContextStore(options.settings ?? null),
      teamIdFor: async (eventTeamId) => eventTeamId ?? (await resolveIdentity()).teamId ?? "unknown",
      track,
      ingestFile: ({ file, conversation, threadTs }) =>
        ingestSharedFile(features.files, { file, conversation, threadTs }),
      fileRequests,
      async answer(question) {
        const bot = await resolveIdentity();
        const thread = await fetchThread(question.conversation.channelId, question.threadTs);
        const { conversation, text, ts, threadTs } = question;
        await answer({ conversation, text, ts, replyThreadTs: threadTs, thread, bot, assistant: question });
      },
    }),
  );
  registerConversationEvents(app, {
    client,
    channelModes,
    fileDependencies: features.files,
    resolveIdentity,
    fetchThread,
    answer,
    answerQuestionnaire: fileRequests.answerQuestionnaire,
    cancelQuestionnaire: fileRequests.cancelQuestionnaire,
    answerSharedQuestionnaire: fileRequests.answerSharedQuestionnaire,
    addApprovedAnswers: fileRequests.addApprovedAnswers,
    addSharedApprovedAnswers: fileRequests.addSharedApprovedAnswers,
    track,
  });
  registerFeedbackAction(app, { client, core, logger, track });
  registerFolioCommand(app, { core, channelModes, fileRequests, adminUserIds: slack.adminUserIds, logger, track });
  app.error(async (error) => {
    logger.error({ code: (error as { code?: string }).code, error: error.message }, "slack error");
  });

  return {
    routes: slackEventsRoutes(receiver, logger),
    async start() {
      await runSlackStartupChecks({
        verifyToken: resolveIdentity,
        logger,
        socketMode,
        eventsPath: SLACK_EVENTS_PATH,
        publicUrl: options.publicUrl ?? null,
        manifestPath: options.manifestPath === undefined ? DEFAULT_MANIFEST_PATH : options.manifestPath,
      });
      if (socketMode) {
        await app.start();
        logger.info({}, "slack socket mode connected");
      }
    },
    async stop() {
      stopFollowingResumed?.();
      stopping.abort();
      if (socketMode) await app.stop();
      await work.settle();
    },
  };
}
