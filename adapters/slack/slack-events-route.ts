/**
 * The one route HTTP mode hands the Folio server: POST /slack/events for events, interactivity and slash
 * commands. A request whose timestamp is outside Slack's five minutes is refused before Bolt sees it;
 * everything else goes to Bolt's receiver, which verifies the signature.
 */
import type { HTTPReceiver } from "@slack/bolt";
import { toFolioError } from "../../src/errors.js";
import type { HttpRoute } from "../../src/http/http-route.js";
import type { Logger } from "../../src/logger.js";
import { SLACK_EVENTS_PATH } from "./slack-connection.js";
import { checkSlackTimestamp } from "./slack-request-freshness.js";

/** The route for the receiver; none in Socket Mode (no receiver). */
export function slackEventsRoutes(receiver: HTTPReceiver | null, logger: Logger): HttpRoute[] {
  if (receiver === null) return [];
  const listener = receiver.requestListener;
  return [
    {
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
    },
  ];
}
