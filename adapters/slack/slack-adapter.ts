/**
 * Folio in Slack, built on Bolt: turns mentions, thread follow-ups and direct messages into
 * `core.answerQuestion` calls, shared files into `core.ingestFile`, feedback buttons into
 * `core.recordFeedback`, and `/folio` into its commands. The listeners for mentions, messages and
 * shared files live in `slack-conversation-events.ts`, the feedback buttons' in
 * `slack-feedback-action.ts`; Slack's assistant container (AI app threads) is handled by
 * `slack-assistant.ts`. At start it checks the token with auth.test and warns about a public address
 * Slack or readers cannot use. HTTP mode hands the Folio server one route
 * (POST /slack/events for events, interactivity and slash commands, signatures verified by Bolt);
 * Socket Mode connects out with the app token instead. Retried deliveries are dropped through the
 * core's database-backed event log, so several replicas answer each question once.
 */
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { App, HTTPReceiver, webApi } from "@slack/bolt";
import { DEFAULT_PARSE_LIMITS } from "../../ingestion/limits.js";
import type { SlackConfig } from "../../src/config/config.js";
import { FolioError, toFolioError } from "../../src/errors.js";
import type { FolioCore } from "../../src/folio-core.js";
import type { HttpRoute } from "../../src/http/http-route.js";
import type { Logger } from "../../src/logger.js";
import { answerInThread, type NativeFeedback, type NativeStreaming } from "./slack-answer.js";
import type { SlackApprovedAnswersDependencies } from "./slack-approved-answers.js";
import { type AssistantQuestion, createSlackAssistant } from "./slack-assistant.js";
import { createAssistantContextStore } from "./slack-assistant-context.js";
import { createBoltLogger } from "./slack-bolt-logger.js";
import {
  createMemoryChannelModeStore,
  createSettingsChannelModeStore,
  parseFolioCommand,
  runFolioCommand,
  type SettingsStore,
} from "./slack-commands.js";
import { type ConversationQuestion, registerConversationEvents } from "./slack-conversation-events.js";
import { registerFeedbackAction } from "./slack-feedback-action.js";
import { createSlackFileRequests } from "./slack-file-requests.js";
import { ingestSharedFile, type SlackFileDependencies } from "./slack-files.js";
import { escapeDocumentText } from "./slack-message-format.js";
import type { SlackQuestionnaireDependencies } from "./slack-questionnaire.js";
import { followQuestionnaireInThread, readSlackJobAddress, SLACK_DESTINATION } from "./slack-questionnaire-follower.js";
import { checkSlackTimestamp } from "./slack-request-freshness.js";
import { isDirectMessageChannel, searchSpaceIds, spaceIdForConversation } from "./slack-space.js";
import { runSlackStartupChecks } from "./slack-startup-checks.js";
import {
  type BotIdentity,
  buildThreadHistory,
  type SlackThreadMessage,
  stripMentions,
  unescapeSlackText,
} from "./slack-thread-context.js";

export const SLACK_EVENTS_PATH = "/slack/events";

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

/** The Web API client wants the base URL ending in `/api/`; accept `https://host`, `…/api` or `…/api/`. */
export function normalizeSlackApiUrl(apiUrl: string | null): string | undefined {
  if (apiUrl === null) return undefined;
  const trimmed = apiUrl.replace(/\/+$/, "");
  return `${trimmed.endsWith("/api") ? trimmed : `${trimmed}/api`}/`;
}

export function createSlackAdapter(options: SlackAdapterOptions): SlackAdapter {
  const { core, slack, librarySpaceId } = options;
  const logger = options.logger.child({ adapter: "slack" });
  const tuning: SlackAdapterTuning = { ...DEFAULT_TUNING, ...options.tuning };
  const boltLogger = createBoltLogger(logger);
  const slackApiUrl = normalizeSlackApiUrl(slack.apiUrl);
  const clientOptions: webApi.WebClientOptions = {
    ...(slackApiUrl ? { slackApiUrl } : {}),
    retryConfig: tuning.retryConfig,
    rejectRateLimitedCalls: false,
    logger: boltLogger,
    timeout: 30_000,
  };
  const client = new webApi.WebClient(slack.botToken, clientOptions);
  const channelModes = options.settings
    ? createSettingsChannelModeStore(options.settings)
    : createMemoryChannelModeStore();
  const nativeStreaming: NativeStreaming = { state: tuning.nativeStreaming ? "unknown" : "unavailable" };
  const nativeFeedback: NativeFeedback = { state: tuning.nativeFeedback ? "unknown" : "unavailable" };
  const inFlight = new Set<Promise<unknown>>();

  let identity: Promise<BotIdentity & { teamId: string | null }> | null = null;
  /** auth.test once per process (retried after a failure): who Folio is, so it can ignore itself. */
  const resolveIdentity = () => {
    identity ??= client.auth.test().then(
      (result) => ({
        botUserId: result.user_id ?? null,
        botId: result.bot_id ?? null,
        teamId: result.team_id ?? null,
      }),
      (error: unknown) => {
        identity = null;
        throw error;
      },
    );
    return identity;
  };

  const authorize = async () => {
    const bot = await resolveIdentity();
    return {
      botToken: slack.botToken,
      botUserId: bot.botUserId ?? undefined,
      botId: bot.botId ?? undefined,
      teamId: bot.teamId ?? undefined,
    };
  };

  const socketMode = slack.appToken !== null;
  let receiver: HTTPReceiver | null = null;
  let app: App;
  if (socketMode) {
    app = new App({
      appToken: slack.appToken ?? undefined,
      socketMode: true,
      authorize,
      clientOptions,
      logger: boltLogger,
    });
  } else {
    if (slack.signingSecret === null) {
      throw new FolioError(
        "slack_not_configured",
        "Slack needs SLACK_SIGNING_SECRET (HTTP mode) or SLACK_APP_TOKEN (Socket Mode) besides SLACK_BOT_TOKEN.",
      );
    }
    receiver = new HTTPReceiver({
      signingSecret: slack.signingSecret,
      endpoints: SLACK_EVENTS_PATH,
      logger: boltLogger,
      processBeforeResponse: false,
    });
    app = new App({ receiver, authorize, clientOptions, logger: boltLogger });
  }

  /** Runs work after Bolt's ack, remembered so stop() can wait for it. */
  const track = async (work: () => Promise<unknown>) => {
    const running = work().catch((error: unknown) => {
      const failure = toFolioError(error);
      logger.error({ code: failure.code, err: error }, "slack handler failed");
    });
    inFlight.add(running);
    try {
      await running;
    } finally {
      inFlight.delete(running);
    }
  };

  const fileDependencies: SlackFileDependencies = {
    client,
    core,
    botToken: slack.botToken,
    apiOrigin: slackApiUrl ? new URL(slackApiUrl).origin : null,
    maxBytes: tuning.maxFileBytes,
    logger,
    progressIntervalMs: tuning.updateIntervalMs,
    createRequestId: () => randomUUID(),
  };

  // Aborted by stop(): questionnaire followers let go (their jobs stay in the catalog for the next start).
  const stopping = new AbortController();
  const questionnaireDependencies: SlackQuestionnaireDependencies = {
    client,
    questionnaires: core.questionnaires,
    botToken: slack.botToken,
    apiOrigin: fileDependencies.apiOrigin,
    maxBytes: tuning.maxFileBytes,
    logger,
    progressIntervalMs: tuning.questionnaireProgressIntervalMs,
    createRequestId: () => randomUUID(),
    threadJobs: new Map(),
    stop: stopping.signal,
  };

  // A job this process resumes after a restart is followed in the thread it was asked in.
  const stopFollowingResumed = core.questionnaires?.onResumed(SLACK_DESTINATION, (job) => {
    const address = readSlackJobAddress(job.destination);
    const questionnaires = core.questionnaires;
    if (!address || !questionnaires) return;
    void track(() =>
      followQuestionnaireInThread(
        { ...questionnaireDependencies, questionnaires },
        {
          jobId: job.id,
          fileName: job.fileName,
          address,
          requestId: randomUUID(),
          resumed: true,
          stop: stopping.signal,
        },
      ),
    );
  });

  const approvedAnswerDependencies: SlackApprovedAnswersDependencies = {
    client,
    approvedAnswers: core.approvedAnswers,
    botToken: slack.botToken,
    apiOrigin: fileDependencies.apiOrigin,
    maxBytes: tuning.maxFileBytes,
    logger,
    createRequestId: () => randomUUID(),
  };

  const fileRequests = createSlackFileRequests({
    client,
    core,
    questionnaires: questionnaireDependencies,
    approvedAnswers: approvedAnswerDependencies,
  });

  const fetchThread = async (channel: string, threadTs: string): Promise<SlackThreadMessage[]> => {
    const replies = await client.conversations.replies({ channel, ts: threadTs, limit: 100 });
    return (replies.messages ?? []) as SlackThreadMessage[];
  };

  const answer = async (
    input: ConversationQuestion & {
      /** The assistant container's parts: its own spaces, loading status and thread title. */
      assistant?: Pick<AssistantQuestion, "spaceIds" | "showStatus" | "isFirstQuestion">;
    },
  ) => {
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
      spaceIds: input.assistant?.spaceIds ?? searchSpaceIds(spaceId, librarySpaceId),
      history,
      requestId,
      updateIntervalMs: tuning.updateIntervalMs,
      timeoutMs: tuning.answerTimeoutMs,
      streaming: {
        recipientUserId: input.conversation.userId,
        recipientTeamId: input.conversation.teamId,
        support: nativeStreaming,
      },
      nativeFeedback,
      showStatus: input.assistant?.showStatus ?? null,
    });
  };

  // Slack redelivers an event it thinks was not acknowledged; the event log (in the database) makes
  // every replica skip an event id that one of them already took.
  // A signed slash command or button click replayed within Slack's five minutes (HTTP mode) has the same
  // trigger id; every real use gets a new one. Acknowledged (so Slack does not retry) and dropped.
  app.use(async ({ body, next, ack }) => {
    const eventId = (body as { event_id?: unknown }).event_id;
    if (typeof eventId === "string" && !(await core.markEventProcessed(`slack:${eventId}`))) {
      logger.info({ eventId }, "duplicate slack event skipped");
      return;
    }
    const triggerId = (body as { trigger_id?: unknown }).trigger_id;
    // HTTP only: Socket Mode's messages arrive over Folio's own authenticated connection, not replayable.
    if (
      !socketMode &&
      typeof triggerId === "string" &&
      !(await core.markEventProcessed(`slack:trigger:${triggerId}`))
    ) {
      logger.warn({}, "replayed slack command or action skipped");
      await (ack as (() => Promise<void>) | undefined)?.();
      return;
    }
    await next();
  });

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
        ingestSharedFile(fileDependencies, { file, conversation, threadTs }),
      fileRequests,
      async answer(question) {
        const bot = await resolveIdentity();
        const thread = await fetchThread(question.conversation.channelId, question.threadTs);
        await answer({
          conversation: question.conversation,
          text: question.text,
          ts: question.ts,
          replyThreadTs: question.threadTs,
          thread,
          bot,
          assistant: question,
        });
      },
    }),
  );

  registerConversationEvents(app, {
    client,
    channelModes,
    fileDependencies,
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

  app.command("/folio", async ({ command, ack, context }) => {
    const isDirectMessage = isDirectMessageChannel(command.channel_id);
    // The same team id as events use (the installation's, from authorize), so that in Slack Connect or
    // Enterprise Grid `/folio docs` lists the very space that mentions search.
    const teamId = context.teamId ?? command.team_id;
    const spaceId = spaceIdForConversation({
      teamId,
      channelId: command.channel_id,
      userId: command.user_id,
      isDirectMessage,
    });
    try {
      const parsed = parseFolioCommand(command.text);
      if (parsed.name === "questionnaire") {
        // Slack gives a slash command no thread: the channel's most recent shared file is the one meant.
        const found = await fileRequests.findSharedFile(command.channel_id, null);
        const fileName = found?.file.name ?? found?.file.title ?? "the file";
        await ack({
          response_type: "ephemeral",
          text: found
            ? `Answering ${escapeDocumentText(fileName)} as a questionnaire — progress and the filled copy will be in its thread.`
            : "I found no file shared here — share the questionnaire (XLSX, CSV or DOCX), then run `/folio questionnaire` again.",
        });
        if (found) {
          const conversation = { teamId, channelId: command.channel_id, userId: command.user_id, isDirectMessage };
          void track(() => fileRequests.answerFoundQuestionnaire(conversation, found));
        }
        return;
      }
      if (parsed.name === "answers-add") {
        const found = await fileRequests.findSharedFile(command.channel_id, null);
        const fileName = found?.file.name ?? found?.file.title ?? "the file";
        await ack({
          response_type: "ephemeral",
          text: found
            ? `Adding ${escapeDocumentText(fileName)} as approved answers — I will say how many in its thread.`
            : "I found no file shared here — share the completed questionnaire (XLSX, CSV or DOCX), then run `/folio answers add` again.",
        });
        if (found) {
          const conversation = { teamId, channelId: command.channel_id, userId: command.user_id, isDirectMessage };
          void track(() => fileRequests.addFoundApprovedAnswers(conversation, found));
        }
        return;
      }
      const text = await runFolioCommand(
        parsed,
        {
          spaceId,
          channelKey: `${teamId}:${command.channel_id}`,
          isDirectMessage,
          userId: command.user_id,
          adminUserIds: slack.adminUserIds,
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

  app.error(async (error) => {
    logger.error({ code: (error as { code?: string }).code, error: error.message }, "slack error");
  });

  const routes: HttpRoute[] = [];
  if (receiver !== null) {
    const listener = receiver.requestListener;
    routes.push({
      method: "POST",
      path: SLACK_EVENTS_PATH,
      handle(request, response) {
        const freshness = checkSlackTimestamp(
          request.headers["x-slack-request-timestamp"],
          Math.floor(Date.now() / 1000),
        );
        if (freshness !== "fresh") {
          logger.warn({ freshness }, "slack request refused: timestamp outside five minutes");
          response.writeHead(401, { "Content-Type": "application/json" });
          response.end(JSON.stringify({ error: { code: "slack_request_expired" } }));
          return;
        }
        try {
          listener(request, response);
        } catch (error) {
          logger.warn({ error: toFolioError(error).message }, "slack request not handled");
          response.writeHead(404).end();
        }
      },
    });
  }

  return {
    routes,
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
      await Promise.allSettled([...inFlight]);
    },
  };
}
