/**
 * The API `folio ingest|ask|search` use while `folio serve` holds the embedded store: the same core
 * calls the commands make themselves, over HTTP on loopback. Only a caller holding the token that
 * `folio serve` wrote into its data directory (readable by the same user) is served; any other request,
 * from loopback or not, is refused, so opening a port never opens the library to the network.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { DEFAULT_PARSE_LIMITS } from "../../ingestion/limits.js";
import type { AnswerEvent } from "../answer/answer-events.js";
import type { Folio } from "../composition-root.js";
import { isFolioError } from "../errors.js";
import type { IngestResult } from "../ingest/ingest-result.js";
import { RETRIEVAL_MODES, type RetrievalMode } from "../retrieval/retriever.js";
import { isLoopbackAddress } from "./console-access.js";
import { sendJson } from "./http-responses.js";
import { createLocalAnswerRoutes } from "./local-cli-answers.js";
import { refused, requireText } from "./local-cli-requests.js";
import { createQuestionnaireApi } from "./questionnaire-api.js";
import { readBody, readJsonObject } from "./read-body.js";

export const LOCAL_CLI_API_PREFIX = "/api/local/";
const MAX_JSON_BYTES = 64 * 1024;

export type LocalCliApi = {
  /** Answers a request under LOCAL_CLI_API_PREFIX, or throws a FolioError with its HTTP status. */
  handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void>;
};

export type LocalCliApiOptions = {
  folio: Pick<Folio, "core" | "retriever" | "sparseVectors" | "questionnaires" | "config">;
  /** The shared secret from the server-address file; null turns the API off. */
  token: string | null;
};

function tokensMatch(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `folio ask` through the server: the answer's events as NDJSON lines, cut off when the client goes. */
async function streamAnswer(core: Folio["core"], request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readJsonObject(request, MAX_JSON_BYTES);
  const question = requireText(body.question, "question");
  const space = requireText(body.space, "space");
  const requestId = String(response.getHeader("X-Request-Id") ?? "");
  const abort = new AbortController();
  response.on("close", () => {
    if (!response.writableFinished) abort.abort();
  });
  response.writeHead(200, { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store" });
  const send = (event: AnswerEvent) => {
    if (!response.writableEnded) response.write(`${JSON.stringify(event)}\n`);
  };
  try {
    for await (const event of core.answerQuestion(question, {
      spaceIds: [space],
      history: [],
      requestId,
      signal: abort.signal,
    })) {
      send(event);
    }
  } catch (error) {
    const safe = isFolioError(error)
      ? { code: error.code, message: error.message }
      : { code: "internal_error", message: "The answer failed on the server; see its log." };
    send({ type: "error", requestId, ...safe });
  }
  response.end();
}

export function createLocalCliApi(options: LocalCliApiOptions): LocalCliApi {
  const { folio } = options;
  const questionnaireApi = createQuestionnaireApi({
    questionnaires: folio.questionnaires,
    maxBytes: folio.config.questionnaire.maxBytes,
    fixedSpaceId: null,
  });

  const authorize = (request: IncomingMessage) => {
    if (options.token === null) throw refused(404, "not_found", "The local command-line API is off in this server.");
    const header = request.headers.authorization ?? "";
    const given = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
    if (!isLoopbackAddress(request.socket.remoteAddress) || !tokensMatch(given, options.token)) {
      throw refused(
        403,
        "local_api_refused",
        "Only `folio` commands on this machine, by the user running the server, may use this API.",
      );
    }
  };

  const ingest = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const space = requireText(url.searchParams.get("space"), "space");
    const fileName = requireText(url.searchParams.get("file"), "file");
    // An older `folio` sends none: replacing was the only behaviour then.
    const sameName = url.searchParams.get("sameName") === "keep-both" ? "keep-both" : "replace";
    const bytes = await readBody(request, DEFAULT_PARSE_LIMITS.maxBytes);
    let result: IngestResult;
    try {
      result = await folio.core.ingestFile({
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        fileName,
        spaceId: space,
        uploader: null,
        sameName,
      });
    } catch (error) {
      if (!isFolioError(error)) throw error;
      result = {
        file: fileName,
        documentId: null,
        status: "rejected",
        pages: null,
        chunks: 0,
        error: { code: error.code, message: error.message },
      };
    }
    sendJson(response, 200, result);
  };

  const finishIngest = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readJsonObject(request, MAX_JSON_BYTES);
    const space = requireText(body.space, "space");
    await folio.sparseVectors.rebuild(space);
    sendJson(response, 200, { space });
  };

  const search = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readJsonObject(request, MAX_JSON_BYTES);
    const query = requireText(body.query, "query");
    const space = requireText(body.space, "space");
    const limit = typeof body.limit === "number" && Number.isInteger(body.limit) ? body.limit : 10;
    const mode =
      typeof body.mode === "string" && (RETRIEVAL_MODES as readonly string[]).includes(body.mode)
        ? (body.mode as RetrievalMode)
        : undefined;
    const results = await folio.retriever.search({ query, spaceIds: [space], limit, mode });
    sendJson(response, 200, { results });
  };

  const answers = createLocalAnswerRoutes(folio.core);

  return {
    async handle(request, response, url) {
      authorize(request);
      const route = url.pathname.slice(LOCAL_CLI_API_PREFIX.length);
      const action = `${request.method ?? "GET"} ${route}`;
      if (action === "POST answers") return answers.add(request, response, url);
      if (action === "GET answers") return answers.list(response, url);
      if (request.method === "DELETE" && route.startsWith("answers/")) {
        return answers.remove(response, url, decodeURIComponent(route.slice("answers/".length)));
      }
      if (action === "POST ingest") return ingest(request, response, url);
      if (action === "POST ingest-finished") return finishIngest(request, response);
      if (action === "POST search") return search(request, response);
      if (action === "POST ask") return streamAnswer(folio.core, request, response);
      if (await questionnaireApi.handle(request, response, url, route)) return;
      throw refused(404, "not_found", `No local API route for ${action}.`);
    },
  };
}
