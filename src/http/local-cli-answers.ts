/**
 * `folio answers add|list|remove` through the server (src/cli/commands/answers-command.ts): the approved
 * answers of a space, added from a completed questionnaire's bytes, listed and removed.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { DEFAULT_PARSE_LIMITS } from "../../ingestion/limits.js";
import { toApprovedAnswerJson } from "../answer-library/approved-answers.js";
import type { FolioCore } from "../folio-core.js";
import { sendJson } from "./http-responses.js";
import { refused, requireText } from "./local-cli-requests.js";
import { readBody } from "./read-body.js";

export function createLocalAnswerRoutes(core: Pick<FolioCore, "approvedAnswers">) {
  const answerLibrary = () => {
    if (!core.approvedAnswers) throw refused(404, "not_found", "This server keeps no approved answers.");
    return core.approvedAnswers;
  };

  const addAnswers = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const spaceId = requireText(url.searchParams.get("space"), "space");
    const fileName = requireText(url.searchParams.get("file"), "file");
    const bytes = await readBody(request, DEFAULT_PARSE_LIMITS.maxBytes);
    const optional = (name: string) => url.searchParams.get(name) ?? undefined;
    const result = await answerLibrary().addQuestionnaire({
      spaceId,
      fileName,
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      addedBy: url.searchParams.get("addedBy"),
      columns: {
        questionColumn: optional("questionColumn"),
        answerColumn: optional("answerColumn"),
        sheet: optional("sheet"),
      },
    });
    sendJson(response, 200, result);
  };

  const listAnswers = async (response: ServerResponse, url: URL) => {
    const spaceId = requireText(url.searchParams.get("space"), "space");
    sendJson(response, 200, { approvedAnswers: (await answerLibrary().list(spaceId)).map(toApprovedAnswerJson) });
  };

  const removeAnswer = async (response: ServerResponse, url: URL, id: string) => {
    const spaceId = requireText(url.searchParams.get("space"), "space");
    sendJson(response, 200, { removed: await answerLibrary().remove(spaceId, id) });
  };

  return { add: addAnswers, list: listAnswers, remove: removeAnswer };
}
