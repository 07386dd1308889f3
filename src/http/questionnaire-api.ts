/**
 * The questionnaire endpoints, for the console (its own space) and for `folio questionnaire fill`
 * through the local API (any space): see what a questionnaire holds before answering it (preview:
 * sheet, header row, question column, first questions — nothing stored), upload a questionnaire to
 * answer, follow its progress, cancel it, download the filled copy (filled-copy-download.ts: from the
 * console by header or signed link), list a space's jobs. Bad input is refused with the reader's own message
 * (400: not a spreadsheet, encrypted, too many rows, no question column, formulas only, a file past the
 * reader's limits). At most `receiving.limit` files are received and read at once (the gate is shared with
 * the console's approved answers); more are told to retry (429 `questionnaire_busy`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { FolioError, isFolioError } from "../errors.js";
import { progressOf } from "../questionnaire/jobs/questionnaire-progress.js";
import type { QuestionnaireService } from "../questionnaire/questionnaire-service.js";
import { type ConsoleDownloads, downloadLinkOf, sendFilledCopy } from "./filled-copy-download.js";
import { sendJson } from "./http-responses.js";
import { readBody } from "./read-body.js";
import { createReceiveGate, type ReceiveGate, refuseReceiving } from "./work-gate.js";

export type QuestionnaireApi = {
  /** Handles `<prefix>questionnaires[/progress|/cancel|/filled]`; false when the path is not one of them. */
  handle(request: IncomingMessage, response: ServerResponse, url: URL, route: string): Promise<boolean>;
};

function refused(status: number, code: string, message: string): FolioError {
  return new FolioError(code, message, { details: { status } });
}

/** Reader refusals are the client's file, not the server's fault. */
function asClientError(error: unknown): unknown {
  if (isFolioError(error) && error.code.startsWith("questionnaire_") && error.details.status === undefined) {
    return new FolioError(error.code, error.message, { details: { status: 400 }, cause: error });
  }
  return error;
}

export function createQuestionnaireApi(options: {
  questionnaires: QuestionnaireService;
  maxBytes: number;
  /** The console's space: every job it submits or reads is in it. Null: the space comes with the request. */
  fixedSpaceId: string | null;
  /** Bounds the questionnaire files received and read at once; one of its own when not shared. */
  receiving?: ReceiveGate;
  /** The console's: filled copies by header or signed link, refused when busy (filled-copy-download.ts). */
  downloads?: ConsoleDownloads;
}): QuestionnaireApi {
  const { questionnaires } = options;
  const receiving = options.receiving ?? createReceiveGate();

  const jobInScope = async (url: URL) => {
    const id = url.searchParams.get("id") ?? "";
    const job = await questionnaires.getJob(id);
    if (!job || (options.fixedSpaceId !== null && job.spaceId !== options.fixedSpaceId)) {
      throw refused(404, "questionnaire_not_found", `There is no questionnaire job "${id}" here.`);
    }
    return job;
  };

  /** Receives the upload (within the receive gate) and hands its bytes to `use` before leaving the gate. */
  const receive = async <T>(
    request: IncomingMessage,
    response: ServerResponse,
    use: (bytes: Uint8Array) => Promise<T>,
  ): Promise<T> => {
    const leave = receiving.tryEnter();
    if (!leave) throw refuseReceiving(response, receiving);
    try {
      const body = await readBody(request, options.maxBytes).catch((error: unknown) => {
        if (isFolioError(error) && error.code === "body_too_large") {
          response.setHeader("Connection", "close");
          throw refused(
            413,
            "questionnaire_too_large",
            `This questionnaire is larger than ${(options.maxBytes / 1_048_576).toFixed(0)} MB — split it, or raise FOLIO_QUESTIONNAIRE_MAX_MB.`,
          );
        }
        throw error;
      });
      if (body.byteLength === 0) throw refused(400, "no_file", "The upload is empty — choose the questionnaire file.");
      return await use(new Uint8Array(body.buffer, body.byteOffset, body.byteLength)).catch((error: unknown) => {
        throw asClientError(error);
      });
    } finally {
      // Held until the file is read: a body waiting for the reader is memory as much as one arriving.
      leave();
    }
  };

  const fileNameOf = (url: URL) => {
    const fileName = url.searchParams.get("file")?.trim() ?? "";
    if (!fileName) throw refused(400, "invalid_request", 'Send the file\'s name as "file".');
    return fileName;
  };

  const readOptions = (url: URL) => ({
    sheet: url.searchParams.get("sheet") || undefined,
    column: url.searchParams.get("column") || undefined,
  });

  const submit = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const fileName = fileNameOf(url);
    const spaceId = options.fixedSpaceId ?? url.searchParams.get("space")?.trim() ?? "";
    if (!spaceId) throw refused(400, "invalid_request", 'Send the space to answer from as "space".');
    const job = await receive(request, response, (bytes) =>
      questionnaires.submit({ bytes, fileName, spaceId, ...readOptions(url) }),
    );
    sendJson(response, 202, { progress: (await progressReply(job.id)) ?? progressOf(job, null) });
  };

  /** What submitting would read (sheet, header row, question column, first questions), nothing stored. */
  const preview = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const fileName = fileNameOf(url);
    const found = await receive(request, response, (bytes) =>
      questionnaires.preview({ bytes, fileName, ...readOptions(url) }),
    );
    sendJson(response, 200, { preview: found });
  };

  const downloads = options.downloads ?? null;
  /** The job's progress as the API answers it: with a signed download link for the console. */
  const progressReply = async (id: string) => {
    const [progress, job] = await Promise.all([questionnaires.progress(id), questionnaires.getJob(id)]);
    if (!progress || !job) return progress;
    const downloadUrl = downloadLinkOf(job, downloads);
    return downloadUrl ? { ...progress, downloadUrl } : progress;
  };

  return {
    async handle(request, response, url, route) {
      const method = request.method ?? "GET";
      if (method === "POST" && route === "questionnaires") {
        await submit(request, response, url);
        return true;
      }
      if (method === "POST" && route === "questionnaires/preview") {
        await preview(request, response, url);
        return true;
      }
      if (method === "GET" && route === "questionnaires") {
        if (options.fixedSpaceId === null && !url.searchParams.get("space")) {
          throw refused(400, "invalid_request", 'Send the space as "space".');
        }
        const jobs = await questionnaires.listJobs(options.fixedSpaceId ?? url.searchParams.get("space") ?? "");
        const progress = await Promise.all(jobs.map((job) => progressReply(job.id)));
        sendJson(response, 200, { questionnaires: progress.filter((entry) => entry !== null) });
        return true;
      }
      if (method === "GET" && route === "questionnaires/progress") {
        const job = await jobInScope(url);
        sendJson(response, 200, { progress: await progressReply(job.id) });
        return true;
      }
      if (method === "POST" && route === "questionnaires/cancel") {
        const job = await jobInScope(url);
        const cancelled = await questionnaires.cancel(job.id);
        sendJson(response, 200, { cancelled, progress: await questionnaires.progress(job.id) });
        return true;
      }
      if (method === "GET" && route === "questionnaires/filled") {
        const job = await jobInScope(url);
        await sendFilledCopy({ request, response, url, job, questionnaires, downloads });
        return true;
      }
      return false;
    },
  };
}
