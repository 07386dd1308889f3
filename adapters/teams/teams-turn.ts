/**
 * One turn of the Bot Framework: the activity is classified (teams-activity.ts), feedback is recorded at
 * once, invokes are answered at once, and everything else runs after the HTTP answer, in a continued
 * conversation, so the channel never waits on an answer. Teams redelivers an activity it thinks was not
 * received; the catalog's event log makes every replica skip one already taken.
 */
import { randomUUID } from "node:crypto";
import { type CloudAdapter, type ConversationReference, TurnContext } from "botbuilder";
import { toFolioError } from "../../src/errors.js";
import {
  type ActivityDecision,
  classifyActivity,
  readConversation,
  spaceIdForConversation,
  type TeamsActivity,
} from "./teams-activity.js";
import { chatFor, sendText, type TeamsAdapterParts } from "./teams-adapter-parts.js";
import { addApprovedAnswersInPersonalChat } from "./teams-approved-answers.js";
import { buildApologyText, buildChannelFileText } from "./teams-message-format.js";
import { answerTeamsQuestion, uploadCodeOf } from "./teams-question.js";
import {
  answerQuestionnaireInPersonalChat,
  cancelQuestionnaireInPersonalChat,
  deliverFilledCopy,
} from "./teams-questionnaire.js";
import { ingestTeamsFiles } from "./teams-uploads.js";

/** The turn handler the CloudAdapter calls for every authenticated activity. */
export function createTeamsTurnHandler(parts: TeamsAdapterParts, cloudAdapter: CloudAdapter) {
  const { core, logger } = parts;
  return async (context: TurnContext): Promise<void> => {
    const activity = context.activity as TeamsActivity;
    const decision = classifyActivity(activity);
    if (decision.kind === "feedback") {
      await recordFeedback(parts, activity, decision);
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
    const eventId = `teams:${activity.conversation?.id ?? ""}:${activity.id ?? ""}`;
    if (!activity.id || !(await core.markEventProcessed(eventId))) {
      logger.info({ activityId: activity.id }, "duplicate teams activity skipped");
      return;
    }
    const reference = TurnContext.getConversationReference(context.activity) as ConversationReference;
    parts.track(() =>
      cloudAdapter.continueConversationAsync(parts.teams.appId, reference, (proactive) => {
        // The continued turn has an activity id of its own; replies must point at the person's message.
        if (activity.id) proactive.activity.id = activity.id;
        return handleDecision(parts, proactive, activity, decision, reference);
      }),
    );
  };
}

/** Does what the activity asked for; any failure is logged and answered with an apology and its reference. */
async function handleDecision(
  parts: TeamsAdapterParts,
  context: TurnContext,
  activity: TeamsActivity,
  decision: ActivityDecision,
  reference: Partial<ConversationReference>,
): Promise<void> {
  const conversation = readConversation(activity);
  if (!conversation) return;
  try {
    const personal = { spaceId: spaceIdForConversation(conversation), userId: conversation.userId };
    if (decision.kind === "questionnaire") {
      await answerQuestionnaireInPersonalChat(parts.questionnaires, chatFor(context), {
        ...personal,
        file: decision.file,
        requestId: randomUUID(),
        reference: JSON.parse(JSON.stringify(reference)) as Record<string, unknown>,
      });
    } else if (decision.kind === "approved-answers") {
      const reply = await addApprovedAnswersInPersonalChat(
        {
          approvedAnswers: parts.core.approvedAnswers,
          logger: parts.logger,
          maxBytes: parts.tuning.maxFileBytes,
          ...(parts.fileDownloads ? { fileHosts: parts.fileDownloads } : {}),
        },
        { ...personal, file: decision.file, requestId: randomUUID() },
      );
      await sendText(context, reply);
    } else if (decision.kind === "cancel-questionnaire") {
      const reply = await cancelQuestionnaireInPersonalChat(parts.questionnaires, personal);
      if (reply) await sendText(context, reply);
    } else if (decision.kind === "file-consent") {
      const { action, jobId, uploadInfo } = decision;
      await deliverFilledCopy(parts.questionnaires, chatFor(context), { ...personal, action, jobId, uploadInfo });
    } else if (decision.kind === "question") {
      await answerTeamsQuestion(parts, context, conversation, activity, decision.text);
    } else if (decision.kind === "files") {
      await ingestTeamsFiles(parts, context, conversation, decision.files, decision.text);
    } else if (decision.kind === "channel-files") {
      const code = (await uploadCodeOf(parts, conversation, activity)) ?? "";
      await sendText(context, buildChannelFileText(decision.names, code, conversation.kind));
    }
  } catch (error) {
    const requestId = randomUUID();
    const failure = toFolioError(error);
    parts.logger.error({ requestId, code: failure.code, error: failure.message }, "teams activity failed");
    await sendText(context, buildApologyText(requestId)).catch((apologyError: unknown) => {
      parts.logger.error({ error: toFolioError(apologyError).message }, "could not send the apology");
    });
  }
}

async function recordFeedback(
  parts: TeamsAdapterParts,
  activity: TeamsActivity,
  decision: Extract<ActivityDecision, { kind: "feedback" }>,
): Promise<void> {
  const conversationId = activity.conversation?.id ?? "";
  const answer = await parts.state.answerForMessage(conversationId, decision.messageId);
  const user = activity.from?.aadObjectId ?? activity.from?.id ?? "unknown";
  if (!answer) {
    parts.logger.warn({ messageId: decision.messageId }, "teams feedback for a message Folio does not know");
    return;
  }
  await parts.core.recordFeedback({
    answerId: answer.answerId,
    spaceId: answer.spaceId,
    user,
    rating: decision.rating,
  });
  parts.logger.info(
    { requestId: answer.answerId, space: answer.spaceId, rating: decision.rating },
    "teams feedback recorded",
  );
}
