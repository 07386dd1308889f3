/**
 * `GET …/questionnaires/filled?id=`: a job's filled copy as a download. Writing a copy re-opens the
 * uploaded file in the questionnaire worker, so who may ask matters (#37). From the console a request
 * must carry the console's header (its scripts send it) or a signed, expiring link the console got with
 * the job's progress (FILLED_COPY_LINK_SECONDS; a plain link is what a browser's download needs), and a
 * browser's Origin, when sent, must be the console's own: a page of another site can send neither header
 * nor signature. Downloads that would start a copy while FOLIO_QUESTIONNAIRE_MAX_COPIES are being written
 * are refused with 429 (filled-copies.ts); the local API of `folio questionnaire fill`, whose token already
 * says who calls, waits its turn instead.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { FolioError, isFolioError } from "../errors.js";
import type { LinkSigner } from "../links/signed-links.js";
import type { QuestionnaireJob } from "../questionnaire/jobs/questionnaire-job-store.js";
import type { QuestionnaireService } from "../questionnaire/questionnaire-service.js";
import { CONSOLE_REQUEST_HEADER, isForeignOrigin } from "./console-access.js";

/** The console's downloads (header or signed link, 429 when busy); absent: the token-guarded local API. */
export type ConsoleDownloads = { linkSigner: Pick<LinkSigner, "signFilledCopyPath" | "verifyFilledCopyLink"> };

function refused(status: number, code: string, message: string): FolioError {
  return new FolioError(code, message, { details: { status } });
}

/** Why this request may not download the job's copy from the console, or null when it may. */
function consoleDownloadRefusal(
  request: IncomingMessage,
  url: URL,
  job: QuestionnaireJob,
  downloads: ConsoleDownloads,
) {
  if (isForeignOrigin(request.headers.origin, request.headers.host)) {
    return refused(
      403,
      "console_origin_mismatch",
      "The filled copy is given only to the console's own page (the request's Origin is another site).",
    );
  }
  if (request.headers[CONSOLE_REQUEST_HEADER] !== undefined) return null;
  const verdict = downloads.linkSigner.verifyFilledCopyLink({
    jobId: job.id,
    exp: url.searchParams.get("exp"),
    sig: url.searchParams.get("sig"),
  });
  if (verdict === "valid") return null;
  return refused(
    403,
    verdict === "expired" ? "questionnaire_copy_link_expired" : "questionnaire_copy_link_required",
    verdict === "expired"
      ? "This download link has expired — click the download in the console again for a fresh one."
      : `Download the filled copy from the console (its link is signed), or send the ${CONSOLE_REQUEST_HEADER} header.`,
  );
}

/** Sends the job's filled copy; `downloads` for the console, absent for the local API. */
export async function sendFilledCopy(input: {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  job: QuestionnaireJob;
  questionnaires: Pick<QuestionnaireService, "filledCopy">;
  downloads: ConsoleDownloads | null;
}): Promise<void> {
  const { response, job, downloads } = input;
  if (downloads) {
    const refusal = consoleDownloadRefusal(input.request, input.url, job, downloads);
    if (refusal) throw refusal;
  }
  const copy = await input.questionnaires
    .filledCopy(job.id, { whenBusy: downloads ? "refuse" : "wait" })
    .catch((error: unknown) => {
      if (isFolioError(error) && typeof error.details.retryAfterSeconds === "number") {
        response.setHeader("Retry-After", String(error.details.retryAfterSeconds));
      }
      throw error;
    });
  if (!copy) throw refused(404, "questionnaire_not_found", "This job's file is gone.");
  const asciiName = copy.fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  response.writeHead(200, {
    "Content-Type": copy.mediaType,
    "Content-Length": copy.bytes.byteLength,
    "Content-Disposition": `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(copy.fileName)}`,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    // The link's signature must not travel on to anything the copy is opened beside.
    "Referrer-Policy": "no-referrer",
  });
  response.end(copy.bytes);
}

/** A progress reply's download link for the console: only for jobs whose copy can be asked for. */
export function downloadLinkOf(
  job: Pick<QuestionnaireJob, "id" | "status" | "copyError" | "fileDeletedAt">,
  downloads: ConsoleDownloads | null,
): string | null {
  if (!downloads || job.copyError || job.fileDeletedAt !== null) return null;
  if (job.status !== "succeeded" && job.status !== "cancelled") return null;
  return downloads.linkSigner.signFilledCopyPath(job.id);
}
