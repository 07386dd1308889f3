/**
 * The console's approved answers (answer library) API, for the console's own space: list them
 * (GET /api/answers), add a completed questionnaire (POST /api/answers, one file as multipart/form-data;
 * `?questionColumn=&answerColumn=&sheet=` name columns or a sheet), remove one (DELETE /api/answers/<id>).
 * A file is received and read under the questionnaire receive gate (work-gate.ts), shared with
 * POST /api/questionnaires. Like every adapter it only calls FolioCore.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { toApprovedAnswerJson } from "../answer-library/approved-answers.js";
import { FolioError, isFolioError, ParseError } from "../errors.js";
import type { FolioCore } from "../folio-core.js";
import type { Logger } from "../logger.js";
import { sendJson } from "./http-responses.js";
import { receiveFiles } from "./receive-files.js";
import { createReceiveGate, type ReceiveGate, refuseReceiving } from "./work-gate.js";

export const CONSOLE_ANSWERS_PATH = "/api/answers";
export const CONSOLE_ANSWER_PREFIX = "/api/answers/";

/** A questionnaire the reader could not use: the request was understood, the file is the problem. */
const UNUSABLE_FILE_CODES = new Set(["answer_columns_not_found", "no_approved_answers", "sheet_not_found"]);

export type ConsoleApprovedAnswers = {
  list(response: ServerResponse): Promise<void>;
  add(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void>;
  remove(response: ServerResponse, id: string): Promise<void>;
};

export function createConsoleApprovedAnswers(options: {
  core: FolioCore;
  spaceId: string;
  maxUploadBytes: number;
  logger: Logger;
  /** Bounds the questionnaire files received and read at once; one of its own when not shared. */
  receiving?: ReceiveGate;
}): ConsoleApprovedAnswers {
  const receiving = options.receiving ?? createReceiveGate();
  const library = () => {
    if (!options.core.approvedAnswers) {
      throw new FolioError("not_found", "This Folio keeps no approved answers.", { details: { status: 404 } });
    }
    return options.core.approvedAnswers;
  };

  /** Receives the one file and adds it (the caller holds the receive gate). */
  const addReceived = async (
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    answers: NonNullable<FolioCore["approvedAnswers"]>,
  ) => {
    const files = await receiveFiles(request, options.maxUploadBytes);
    const [file, ...more] = files;
    if (!file || more.length > 0) {
      throw new FolioError("invalid_upload", "Send one completed questionnaire (XLSX, CSV or DOCX) as the file.", {
        details: { status: 400 },
      });
    }
    if (file.truncated) {
      throw new FolioError("file_too_large", "The questionnaire is larger than the upload limit.", {
        details: { status: 413 },
      });
    }
    const named = (name: string) => {
      const value = url.searchParams.get(name)?.trim();
      return value ? value : undefined;
    };
    try {
      const result = await answers.addQuestionnaire({
        spaceId: options.spaceId,
        fileName: file.fileName,
        bytes: new Uint8Array(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
        addedBy: "console",
        columns: {
          questionColumn: named("questionColumn"),
          answerColumn: named("answerColumn"),
          sheet: named("sheet"),
        },
      });
      sendJson(response, 200, result);
    } catch (error) {
      if (isFolioError(error) && (error instanceof ParseError || UNUSABLE_FILE_CODES.has(error.code))) {
        options.logger.info({ code: error.code, file: file.fileName }, "questionnaire not added as approved answers");
        throw new FolioError(error.code, error.message, { cause: error, details: { status: 422 } });
      }
      throw error;
    }
  };

  return {
    async list(response) {
      const records = await library().list(options.spaceId);
      sendJson(response, 200, { spaceId: options.spaceId, approvedAnswers: records.map(toApprovedAnswerJson) });
    },

    async add(request, response, url) {
      const answers = library();
      const leave = receiving.tryEnter();
      if (!leave) throw refuseReceiving(response, receiving);
      try {
        await addReceived(request, response, url, answers);
      } finally {
        leave();
      }
    },

    async remove(response, id) {
      if (!(await library().remove(options.spaceId, id))) {
        throw new FolioError(
          "approved_answer_not_found",
          "That approved answer is not in this console space (it may already be removed).",
          {
            details: { status: 404 },
          },
        );
      }
      sendJson(response, 200, { removed: id });
    },
  };
}
