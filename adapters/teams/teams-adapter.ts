/**
 * Folio in Microsoft Teams, built on the Bot Framework SDK's CloudAdapter: hands the Folio server one
 * route (POST /api/messages), where the SDK authenticates every request before anything else runs;
 * turns mentions in channels and group chats and every 1:1 message into `core.answerQuestion` calls,
 * 1:1 file uploads into `core.ingestFile`, the feedback loop into `core.recordFeedback`, and `help` /
 * `docs` / `forget` into commands. Work runs after the HTTP answer, in a continued conversation, so the
 * channel never waits on an answer; retried deliveries are dropped through the catalog's event log.
 * Every SDK type stays in this folder.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type Activity,
  CloudAdapter,
  type ConversationReference,
  type InvokeResponse,
  type Request as SdkRequest,
  type Response as SdkResponse,
  TurnContext,
} from "botbuilder";
import { type AuthenticateRequestResult, AuthenticationError } from "botframework-connector";
import { DEFAULT_PARSE_LIMITS } from "../../ingestion/limits.js";
import type { TeamsConfig } from "../../src/config/config.js";
import { toFolioError } from "../../src/errors.js";
import type { FolioCore } from "../../src/folio-core.js";
import type { HttpRoute } from "../../src/http/http-route.js";
import { readJsonObject } from "../../src/http/read-body.js";
import type { Logger } from "../../src/logger.js";
import type { OutboundPolicy } from "../../src/outbound/public-fetch.js";
import {
  type ActivityDecision,
  classifyActivity,
  readConversation,
  searchSpaceIds,
  spaceIdForConversation,
  type TeamsActivity,
  type TeamsConversation,
  type TeamsFile,
} from "./teams-activity.js";
import { type ActivitySender, answerInConversation } from "./teams-answer.js";
import { addApprovedAnswersInPersonalChat } from "./teams-approved-answers.js";
import { createTeamsAuthentication, PUBLIC_CLOUD_ENDPOINTS, type TeamsEndpoints } from "./teams-authentication.js";
import { parseTeamsCommand, runTeamsCommand } from "./teams-commands.js";
import { createTeamsConversationState, readUploadCode, type SettingsStore } from "./teams-conversation-state.js";
import { keepCustomEntityFields } from "./teams-entity-serialization.js";
import { ingestTeamsFile } from "./teams-files.js";
import { createMeaningFollower } from "./teams-meaning-follower.js";
import {
  buildApologyText,
  buildChannelFileText,
  buildIngestResultText,
  type OutgoingActivity,
} from "./teams-message-format.js";
import {
  answerQuestionnaireInPersonalChat,
  cancelQuestionnaireInPersonalChat,
  deliverFilledCopy,
  followQuestionnaireInPersonalChat,
  readTeamsJobAddress,
  TEAMS_DESTINATION,
  type TeamsChat,
  type TeamsQuestionnaireDependencies,
} from "./teams-questionnaire.js";

export const TEAMS_MESSAGES_PATH = "/api/messages";

/** Activities are small; attachments arrive as links, never inline. */
const MAX_ACTIVITY_BYTES = 1024 * 1024;

export type TeamsAdapterTuning = {
  /** Smallest gap between two streaming updates in a personal chat (Teams allows about one per second). */
  updateIntervalMs: number;
  answerTimeoutMs: number;
  maxFileBytes: number;
  /** Smallest gap between two edits of a questionnaire's progress message. */
  questionnaireProgressIntervalMs: number;
};

export type TeamsAdapterOptions = {
  core: FolioCore;
  teams: TeamsConfig;
  librarySpaceId: string | null;
  /** The catalog's settings: thread turns, answered messages and channel upload codes live there. */
  settings: SettingsStore;
  logger: Logger;
  /** Where tokens are checked and fetched; the public Azure cloud unless given (tests use stand-ins). */
  endpoints?: TeamsEndpoints;
  /** Where attachments may be downloaded from; Microsoft's file hosts unless given (tests use stand-ins). */
  fileDownloads?: OutboundPolicy;
  tuning?: Partial<TeamsAdapterTuning>;
};

export type TeamsAdapter = {
  routes: HttpRoute[];
  /** Waits for answers and uploads in progress; questionnaire jobs are let go ("paused"), for the next start. */
  stop(): Promise<void>;
};

const DEFAULT_TUNING: TeamsAdapterTuning = {
  updateIntervalMs: 1_000,
  answerTimeoutMs: 120_000,
  maxFileBytes: DEFAULT_PARSE_LIMITS.maxBytes,
  questionnaireProgressIntervalMs: 5_000,
};

/**
 * The SDK's CloudAdapter prints every refused token's stack to stderr and answers with the error's
 * text; refusals here are answered 401 with no body and reported once through Folio's logger.
 */
class QuietCloudAdapter extends CloudAdapter {
  constructor(
    authentication: ConstructorParameters<typeof CloudAdapter>[0],
    private readonly onRefused: (error: AuthenticationError) => void,
  ) {
    super(authentication);
  }

  protected override async processActivity(
    authorization: string | AuthenticateRequestResult,
    activity: Activity,
    logic: (context: TurnContext) => Promise<void>,
  ): Promise<InvokeResponse | undefined> {
    try {
      return await super.processActivity(authorization as string, activity, logic);
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
      this.onRefused(error);
      return { status: 401 };
    }
  }
}

/** The CloudAdapter reads an already parsed body and writes through an Express-like response. */
function toSdkResponse(response: ServerResponse): SdkResponse {
  let body: unknown;
  return {
    socket: response.socket,
    status(code: number) {
      response.statusCode = code;
    },
    header(name: string, value: unknown) {
      response.setHeader(name, String(value));
    },
    send(payload: unknown) {
      body = payload;
    },
    end() {
      if (response.writableEnded) return;
      if (body === undefined || body === null) {
        response.end();
      } else if (typeof body === "string" || Buffer.isBuffer(body)) {
        response.end(body);
      } else {
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify(body));
      }
    },
  };
}

export function createTeamsAdapter(options: TeamsAdapterOptions): TeamsAdapter {
  const { core, teams, librarySpaceId } = options;
  const logger = options.logger.child({ adapter: "teams" });
  const tuning: TeamsAdapterTuning = { ...DEFAULT_TUNING, ...options.tuning };
  const state = createTeamsConversationState(options.settings);
  keepCustomEntityFields();
  const authentication = createTeamsAuthentication(
    { appId: teams.appId, appPassword: teams.appPassword, tenantId: teams.tenantId, appType: teams.appType },
    options.endpoints ?? PUBLIC_CLOUD_ENDPOINTS,
  );
  const cloudAdapter = new QuietCloudAdapter(authentication, (error) =>
    logger.warn(
      { code: "teams_unauthorized", reason: (error as { reason?: string }).reason ?? "invalid" },
      "teams request refused: token not verified",
    ),
  );
  cloudAdapter.onTurnError = async (_context, error) => {
    logger.error({ code: toFolioError(error).code, error: toFolioError(error).message }, "teams turn failed");
  };
  const inFlight = new Set<Promise<unknown>>();

  /** Runs work after the HTTP answer, remembered so stop() can wait for it. */
  const track = (work: () => Promise<unknown>) => {
    const running = work()
      .catch((error: unknown) => {
        const failure = toFolioError(error);
        logger.error({ code: failure.code, error: failure.message }, "teams handler failed");
      })
      .finally(() => inFlight.delete(running));
    inFlight.add(running);
  };

  // Bot Connector calls that fail with 429 (Retry-After honoured), 5xx or a network error are retried
  // with exponential backoff by the SDK's HTTP pipeline (@azure/core-rest-pipeline's default policy).
  const senderFor =
    (context: TurnContext): ActivitySender =>
    async (activity: OutgoingActivity) => {
      const response = await context.sendActivity(activity as Partial<Activity>);
      return response?.id ?? null;
    };

  const sendText = (context: TurnContext, text: string) =>
    senderFor(context)({ type: "message", text, textFormat: "markdown" });

  /** Channels and group chats get documents through a 1:1 upload carrying their code. */
  const uploadCodeOf = async (conversation: TeamsConversation, activity: TeamsActivity) =>
    conversation.kind === "personal"
      ? null
      : state.uploadCodeFor({
          spaceId: spaceIdForConversation(conversation),
          label:
            conversation.kind === "channel" ? (activity.channelData?.channel?.name ?? "the channel") : "the group chat",
        });

  const answerQuestion = async (
    context: TurnContext,
    conversation: TeamsConversation,
    activity: TeamsActivity,
    question: string,
  ) => {
    const spaceId = spaceIdForConversation(conversation);
    const command = parseTeamsCommand(question);
    if (command) {
      const text = await runTeamsCommand(
        command,
        {
          spaceId,
          kind: conversation.kind,
          userId: conversation.userId,
          adminUserIds: teams.adminUserIds,
          uploadCode: await uploadCodeOf(conversation, activity),
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
      logger,
      send: senderFor(context),
      question,
      spaceId,
      spaceIds: searchSpaceIds(spaceId, librarySpaceId),
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
  };

  const ingestFiles = async (
    context: TurnContext,
    conversation: TeamsConversation,
    files: TeamsFile[],
    text: string,
  ) => {
    const code = readUploadCode(text);
    let spaceId = spaceIdForConversation(conversation);
    let targetLabel: string | null = null;
    if (code) {
      const target = await state.channelForCode(code);
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
    // Each reply is edited as its passages are embedded after it; this (proactive) turn lasts until they
    // are, or until stop() lets go.
    const following: Array<Promise<void>> = [];
    for (const file of files) {
      await context.sendActivity({ type: "typing" });
      const meaning = createMeaningFollower();
      const { text: reply, result } = await ingestTeamsFile(
        {
          core,
          logger,
          maxBytes: tuning.maxFileBytes,
          ...(options.fileDownloads ? { downloads: options.fileDownloads } : {}),
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
            stop: stopping.signal,
          })
          .catch((error: unknown) =>
            logger.warn({ error: toFolioError(error).message }, "could not edit an upload's reply with its embedding"),
          ),
      );
    }
    await Promise.all(following);
  };

  // Aborted by stop(): questionnaire followers let go (their jobs stay in the catalog for the next start).
  const stopping = new AbortController();
  const questionnaireDependencies: TeamsQuestionnaireDependencies = {
    questionnaires: core.questionnaires,
    stop: stopping.signal,
    followedJobs: new Set(),
    logger,
    maxBytes: tuning.maxFileBytes,
    ...(options.fileDownloads ? { fileHosts: options.fileDownloads } : {}),
    progressIntervalMs: tuning.questionnaireProgressIntervalMs,
  };

  const chatFor = (context: TurnContext): TeamsChat => ({
    async send(activity) {
      return (await context.sendActivity(activity as Partial<Activity>))?.id ?? null;
    },
    async update(activityId, text) {
      await context.updateActivity({ id: activityId, type: "message", text, textFormat: "markdown" });
    },
  });

  // A job this process resumes after a restart is followed again in its chat, by a proactive turn.
  const stopFollowingResumed = core.questionnaires?.onResumed(TEAMS_DESTINATION, (job) => {
    const address = readTeamsJobAddress(job.destination);
    const questionnaires = core.questionnaires;
    if (!address || !questionnaires) return;
    track(() =>
      cloudAdapter.continueConversationAsync(
        teams.appId,
        address.reference as Partial<ConversationReference>,
        (context) =>
          followQuestionnaireInPersonalChat({ ...questionnaireDependencies, questionnaires }, chatFor(context), {
            jobId: job.id,
            fileName: job.fileName,
            progressId: address.progressActivityId,
            requestId: randomUUID(),
            resumed: true,
          }),
      ),
    );
  });

  const handle = async (
    context: TurnContext,
    activity: TeamsActivity,
    decision: ActivityDecision,
    reference: Partial<ConversationReference>,
  ) => {
    const conversation = readConversation(activity);
    if (!conversation) return;
    try {
      if (decision.kind === "questionnaire") {
        await answerQuestionnaireInPersonalChat(questionnaireDependencies, chatFor(context), {
          file: decision.file,
          spaceId: spaceIdForConversation(conversation),
          userId: conversation.userId,
          requestId: randomUUID(),
          reference: JSON.parse(JSON.stringify(reference)) as Record<string, unknown>,
        });
      } else if (decision.kind === "approved-answers") {
        const reply = await addApprovedAnswersInPersonalChat(
          {
            approvedAnswers: core.approvedAnswers,
            logger,
            maxBytes: tuning.maxFileBytes,
            ...(options.fileDownloads ? { fileHosts: options.fileDownloads } : {}),
          },
          {
            file: decision.file,
            spaceId: spaceIdForConversation(conversation),
            userId: conversation.userId,
            requestId: randomUUID(),
          },
        );
        await sendText(context, reply);
      } else if (decision.kind === "cancel-questionnaire") {
        const reply = await cancelQuestionnaireInPersonalChat(questionnaireDependencies, {
          spaceId: spaceIdForConversation(conversation),
          userId: conversation.userId,
        });
        if (reply) await sendText(context, reply);
      } else if (decision.kind === "file-consent") {
        await deliverFilledCopy(questionnaireDependencies, chatFor(context), {
          action: decision.action,
          jobId: decision.jobId,
          uploadInfo: decision.uploadInfo,
          spaceId: spaceIdForConversation(conversation),
          userId: conversation.userId,
        });
      } else if (decision.kind === "question") await answerQuestion(context, conversation, activity, decision.text);
      else if (decision.kind === "files") await ingestFiles(context, conversation, decision.files, decision.text);
      else if (decision.kind === "channel-files") {
        const code = (await uploadCodeOf(conversation, activity)) ?? "";
        await sendText(context, buildChannelFileText(decision.names, code, conversation.kind));
      }
    } catch (error) {
      const requestId = randomUUID();
      const failure = toFolioError(error);
      logger.error({ requestId, code: failure.code, error: failure.message }, "teams activity failed");
      await sendText(context, buildApologyText(requestId)).catch((apologyError: unknown) => {
        logger.error({ error: toFolioError(apologyError).message }, "could not send the apology");
      });
    }
  };

  const recordFeedback = async (activity: TeamsActivity, decision: Extract<ActivityDecision, { kind: "feedback" }>) => {
    const conversationId = activity.conversation?.id ?? "";
    const answer = await state.answerForMessage(conversationId, decision.messageId);
    const user = activity.from?.aadObjectId ?? activity.from?.id ?? "unknown";
    if (!answer) {
      logger.warn({ messageId: decision.messageId }, "teams feedback for a message Folio does not know");
      return;
    }
    await core.recordFeedback({ answerId: answer.answerId, spaceId: answer.spaceId, user, rating: decision.rating });
    logger.info(
      { requestId: answer.answerId, space: answer.spaceId, rating: decision.rating },
      "teams feedback recorded",
    );
  };

  const onTurn = async (context: TurnContext) => {
    const activity = context.activity as TeamsActivity;
    const decision = classifyActivity(activity);
    if (decision.kind === "feedback") {
      await recordFeedback(activity, decision);
      await context.sendActivity({ type: "invokeResponse", value: { status: 200, body: {} } });
      return;
    }
    // Teams waits for the invoke's answer; the upload itself runs after it, like every other piece of work.
    if (decision.kind === "file-consent") {
      await context.sendActivity({ type: "invokeResponse", value: { status: 200, body: {} } });
    }
    if (decision.kind === "ignore") {
      logger.debug({ reason: decision.reason, type: activity.type }, "teams activity ignored");
      return;
    }
    // Teams redelivers an activity it thinks was not received; every replica skips one already taken.
    const eventId = `teams:${activity.conversation?.id ?? ""}:${activity.id ?? ""}`;
    if (!activity.id || !(await core.markEventProcessed(eventId))) {
      logger.info({ activityId: activity.id }, "duplicate teams activity skipped");
      return;
    }
    const reference = TurnContext.getConversationReference(context.activity) as ConversationReference;
    track(() =>
      cloudAdapter.continueConversationAsync(teams.appId, reference, (proactive) => {
        // The continued turn has an activity id of its own; replies must point at the person's message.
        if (activity.id) proactive.activity.id = activity.id;
        return handle(proactive, activity, decision, reference);
      }),
    );
  };

  const route: HttpRoute = {
    method: "POST",
    path: TEAMS_MESSAGES_PATH,
    async handle(request: IncomingMessage, response: ServerResponse) {
      let body: Record<string, unknown>;
      try {
        body = await readJsonObject(request, MAX_ACTIVITY_BYTES);
      } catch (error) {
        const status = (toFolioError(error).details as { status?: number } | undefined)?.status ?? 400;
        response.writeHead(status, { "content-type": "text/plain" }).end(toFolioError(error).message);
        return;
      }
      const sdkRequest: SdkRequest = { body, headers: request.headers, method: request.method ?? "POST" };
      try {
        await cloudAdapter.process(sdkRequest, toSdkResponse(response), onTurn);
      } catch (error) {
        logger.error({ error: toFolioError(error).message }, "teams request not handled");
        if (!response.headersSent) response.writeHead(500).end();
      }
    },
  };

  return {
    routes: [route],
    async stop() {
      stopFollowingResumed?.();
      stopping.abort();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
