/**
 * The Bolt listener for the 👍/👎 buttons (and Slack's native `feedback_buttons`) under an answer:
 * records the rating with `core.recordFeedback` and thanks the reader with an ephemeral message.
 */
import type { App, webApi } from "@slack/bolt";
import type { FolioCore } from "../../src/folio-core.js";
import type { Logger } from "../../src/logger.js";
import {
  decodeFeedbackValue,
  FEEDBACK_ACTION_DOWN,
  FEEDBACK_ACTION_NATIVE,
  FEEDBACK_ACTION_UP,
  feedbackRating,
} from "./slack-message-format.js";

export type FeedbackActionDependencies = {
  client: webApi.WebClient;
  core: Pick<FolioCore, "recordFeedback">;
  logger: Logger;
  /** Runs work after Bolt's ack, remembered so the adapter's stop() can wait for it. */
  track: (work: () => Promise<unknown>) => Promise<void>;
};

export function registerFeedbackAction(app: App, dependencies: FeedbackActionDependencies): void {
  const { client, core, logger, track } = dependencies;
  const feedbackActions = [FEEDBACK_ACTION_UP, FEEDBACK_ACTION_DOWN, FEEDBACK_ACTION_NATIVE];
  app.action(new RegExp(`^(${feedbackActions.join("|")})$`), async ({ ack, action, body }) => {
    await ack();
    await track(async () => {
      // The native feedback_buttons element sends the clicked button's value, as a button does.
      const rawValue = (action as { value?: unknown }).value;
      const value = typeof rawValue === "string" ? decodeFeedbackValue(rawValue) : null;
      if (!value) return;
      const actionId = "action_id" in action ? action.action_id : "";
      const rating = feedbackRating(actionId, value);
      if (rating === null) return;
      await core.recordFeedback({ answerId: value.answerId, spaceId: value.spaceId, user: body.user.id, rating });
      logger.info({ requestId: value.answerId, space: value.spaceId, rating }, "slack feedback recorded");
      const channel = "channel" in body ? body.channel?.id : undefined;
      if (channel) {
        const threadTs = "message" in body ? (body.message?.thread_ts as string | undefined) : undefined;
        await client.chat.postEphemeral({
          channel,
          user: body.user.id,
          ...(threadTs ? { thread_ts: threadTs } : {}),
          text: rating === "up" ? "Thanks — glad it helped." : "Thanks — noted, this helps Folio improve.",
        });
      }
    });
  });
}
