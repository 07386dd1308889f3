/**
 * The Bot Framework SDK's side of Folio's one Teams route: a CloudAdapter that authenticates every
 * request (refusals answered 401 with no body and logged once through Folio's logger), and POST
 * /api/messages, which reads the activity within a size limit and hands it to the adapter.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type Activity,
  CloudAdapter,
  type InvokeResponse,
  type Request as SdkRequest,
  type Response as SdkResponse,
  type TurnContext,
} from "botbuilder";
import { type AuthenticateRequestResult, AuthenticationError } from "botframework-connector";
import type { TeamsConfig } from "../../src/config/config.js";
import { toFolioError } from "../../src/errors.js";
import type { HttpRoute } from "../../src/http/http-route.js";
import { readJsonObject } from "../../src/http/read-body.js";
import type { Logger } from "../../src/logger.js";
import { createTeamsAuthentication, PUBLIC_CLOUD_ENDPOINTS, type TeamsEndpoints } from "./teams-authentication.js";

export const TEAMS_MESSAGES_PATH = "/api/messages";

/** Activities are small; attachments arrive as links, never inline. */
const MAX_ACTIVITY_BYTES = 1024 * 1024;

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

export function createTeamsCloudAdapter(
  teams: TeamsConfig,
  endpoints: TeamsEndpoints | undefined,
  logger: Logger,
): CloudAdapter {
  const authentication = createTeamsAuthentication(
    { appId: teams.appId, appPassword: teams.appPassword, tenantId: teams.tenantId, appType: teams.appType },
    endpoints ?? PUBLIC_CLOUD_ENDPOINTS,
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
  return cloudAdapter;
}

/** POST /api/messages: the activity, read within its limit, goes through the SDK to `onTurn`. */
export function teamsMessagesRoute(
  cloudAdapter: CloudAdapter,
  onTurn: (context: TurnContext) => Promise<void>,
  logger: Logger,
): HttpRoute {
  return {
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
