/**
 * Folio in Microsoft Teams, built on the Bot Framework SDK's CloudAdapter: hands the Folio server one
 * route (POST /api/messages), where the SDK authenticates every request before anything else runs;
 * turns mentions in channels and group chats and every 1:1 message into `core.answerQuestion` calls,
 * 1:1 file uploads into `core.ingestFile`, the feedback loop into `core.recordFeedback`, and `help` /
 * `docs` / `forget` into commands. This module wires the parts: the CloudAdapter and the route
 * (`teams-cloud-adapter.ts`), the turn handler (`teams-turn.ts`: retried deliveries dropped through the
 * catalog's event log, work run after the HTTP answer in a continued conversation), questions
 * (`teams-question.ts`), uploads (`teams-uploads.ts`) and questionnaires (`teams-questionnaire.ts`).
 * Every SDK type stays in this folder.
 */
import { randomUUID } from "node:crypto";
import type { ConversationReference } from "botbuilder";
import { DEFAULT_PARSE_LIMITS } from "../../ingestion/limits.js";
import type { TeamsConfig } from "../../src/config/config.js";
import { toFolioError } from "../../src/errors.js";
import type { FolioCore } from "../../src/folio-core.js";
import type { HttpRoute } from "../../src/http/http-route.js";
import type { Logger } from "../../src/logger.js";
import type { OutboundPolicy } from "../../src/outbound/public-fetch.js";
import { createBackgroundWork } from "../background-work.js";
import { chatFor, type TeamsAdapterParts, type TeamsAdapterTuning } from "./teams-adapter-parts.js";
import type { TeamsEndpoints } from "./teams-authentication.js";
import { createTeamsCloudAdapter, teamsMessagesRoute } from "./teams-cloud-adapter.js";
import { createTeamsConversationState, type SettingsStore } from "./teams-conversation-state.js";
import { keepCustomEntityFields } from "./teams-entity-serialization.js";
import { followQuestionnaireInPersonalChat, readTeamsJobAddress, TEAMS_DESTINATION } from "./teams-questionnaire.js";
import { createTeamsTurnHandler } from "./teams-turn.js";

export type { TeamsAdapterTuning } from "./teams-adapter-parts.js";
export { TEAMS_MESSAGES_PATH } from "./teams-cloud-adapter.js";

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

export function createTeamsAdapter(options: TeamsAdapterOptions): TeamsAdapter {
  const { core, teams } = options;
  const logger = options.logger.child({ adapter: "teams" });
  const tuning: TeamsAdapterTuning = { ...DEFAULT_TUNING, ...options.tuning };
  keepCustomEntityFields();
  const cloudAdapter = createTeamsCloudAdapter(teams, options.endpoints, logger);
  const work = createBackgroundWork((error) => {
    const failure = toFolioError(error);
    logger.error({ code: failure.code, error: failure.message }, "teams handler failed");
  });
  // Aborted by stop(): questionnaire followers let go (their jobs stay in the catalog for the next start).
  const stopping = new AbortController();
  const parts: TeamsAdapterParts = {
    core,
    teams,
    librarySpaceId: options.librarySpaceId,
    state: createTeamsConversationState(options.settings),
    logger,
    tuning,
    fileDownloads: options.fileDownloads,
    stop: stopping.signal,
    questionnaires: {
      questionnaires: core.questionnaires,
      stop: stopping.signal,
      followedJobs: new Set(),
      logger,
      maxBytes: tuning.maxFileBytes,
      ...(options.fileDownloads ? { fileHosts: options.fileDownloads } : {}),
      progressIntervalMs: tuning.questionnaireProgressIntervalMs,
    },
    track: (job) => void work.run(job),
  };

  // A job this process resumes after a restart is followed again in its chat, by a proactive turn.
  const stopFollowingResumed = core.questionnaires?.onResumed(TEAMS_DESTINATION, (job) => {
    const address = readTeamsJobAddress(job.destination);
    const questionnaires = core.questionnaires;
    if (!address || !questionnaires) return;
    parts.track(() =>
      cloudAdapter.continueConversationAsync(
        teams.appId,
        address.reference as Partial<ConversationReference>,
        (context) =>
          followQuestionnaireInPersonalChat({ ...parts.questionnaires, questionnaires }, chatFor(context), {
            jobId: job.id,
            fileName: job.fileName,
            progressId: address.progressActivityId,
            requestId: randomUUID(),
            resumed: true,
          }),
      ),
    );
  });

  return {
    routes: [teamsMessagesRoute(cloudAdapter, createTeamsTurnHandler(parts, cloudAdapter), logger)],
    async stop() {
      stopFollowingResumed?.();
      stopping.abort();
      await work.settle({ untilIdle: true });
    },
  };
}
