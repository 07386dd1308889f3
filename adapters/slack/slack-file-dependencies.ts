/**
 * What the adapter's file features share — the Web API client, the bot token (downloads only ever go to
 * Slack), the size limit, request ids — gathered once for uploads (slack-files.ts), questionnaires
 * (slack-questionnaire.ts) and approved answers (slack-approved-answers.ts). Questionnaire jobs this
 * process resumes after a restart are followed again in the thread they were asked in.
 */
import { randomUUID } from "node:crypto";
import type { webApi } from "@slack/bolt";
import type { SlackConfig } from "../../src/config/config.js";
import type { FolioCore } from "../../src/folio-core.js";
import type { Logger } from "../../src/logger.js";
import type { SlackApprovedAnswersDependencies } from "./slack-approved-answers.js";
import type { SlackFileDependencies } from "./slack-files.js";
import type { SlackQuestionnaireDependencies } from "./slack-questionnaire.js";
import { followQuestionnaireInThread, readSlackJobAddress, SLACK_DESTINATION } from "./slack-questionnaire-follower.js";

export type SlackFileFeatures = {
  files: SlackFileDependencies;
  questionnaires: SlackQuestionnaireDependencies;
  approvedAnswers: SlackApprovedAnswersDependencies;
};

export function gatherSlackFileFeatures(input: {
  client: webApi.WebClient;
  core: FolioCore;
  slack: SlackConfig;
  apiOrigin: string | null;
  maxBytes: number;
  logger: Logger;
  progressIntervalMs: number;
  questionnaireProgressIntervalMs: number;
  /** Aborted by the adapter's stop(): questionnaire followers let go (their jobs stay for the next start). */
  stop: AbortSignal;
}): SlackFileFeatures {
  const { client, core, logger, apiOrigin, maxBytes } = input;
  const shared = { client, botToken: input.slack.botToken, apiOrigin, maxBytes, logger, createRequestId: randomUUID };
  return {
    files: { ...shared, core, progressIntervalMs: input.progressIntervalMs },
    questionnaires: {
      ...shared,
      questionnaires: core.questionnaires,
      progressIntervalMs: input.questionnaireProgressIntervalMs,
      threadJobs: new Map(),
      stop: input.stop,
    },
    approvedAnswers: { ...shared, approvedAnswers: core.approvedAnswers },
  };
}

/** Follows each job this process resumes after a restart in the thread it was asked in; returns the unsubscribe. */
export function followResumedQuestionnaires(
  core: FolioCore,
  dependencies: SlackQuestionnaireDependencies,
  track: (work: () => Promise<unknown>) => Promise<void>,
): (() => void) | undefined {
  return core.questionnaires?.onResumed(SLACK_DESTINATION, (job) => {
    const address = readSlackJobAddress(job.destination);
    const questionnaires = core.questionnaires;
    if (!address || !questionnaires) return;
    void track(() =>
      followQuestionnaireInThread(
        { ...dependencies, questionnaires },
        {
          jobId: job.id,
          fileName: job.fileName,
          address,
          requestId: randomUUID(),
          resumed: true,
          ...(dependencies.stop ? { stop: dependencies.stop } : {}),
        },
      ),
    );
  });
}
