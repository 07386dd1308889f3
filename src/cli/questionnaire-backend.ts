/**
 * What `folio questionnaire fill` needs from Folio, whether it opens the store itself or works through a
 * running `folio serve` (the local API's questionnaire routes, src/http/local-cli-api.ts).
 */
import type { Folio } from "../composition-root.js";
import { FolioError } from "../errors.js";
import type { QuestionnaireProgress } from "../questionnaire/jobs/questionnaire-progress.js";
import type { QuestionnairePreview } from "../questionnaire/read/questionnaire-preview.js";
import type { ServerAddress } from "./server-address-file.js";

export type QuestionnaireBackend = {
  submit(input: {
    bytes: Uint8Array;
    fileName: string;
    spaceId: string;
    sheet?: string;
    column?: string;
  }): Promise<{ jobId: string; total: number }>;
  /** What submitting would read, nothing stored or answered (`--dry-run`). */
  preview(input: {
    bytes: Uint8Array;
    fileName: string;
    sheet?: string;
    column?: string;
  }): Promise<QuestionnairePreview>;
  progress(jobId: string): Promise<QuestionnaireProgress>;
  cancel(jobId: string): Promise<void>;
  filledCopy(jobId: string): Promise<{ bytes: Uint8Array; fileName: string }>;
};

function jobVanished(jobId: string): FolioError {
  return new FolioError("questionnaire_not_found", `Questionnaire job ${jobId} is gone from the catalog.`);
}

export function createLocalQuestionnaireBackend(folio: Pick<Folio, "questionnaires">): QuestionnaireBackend {
  const service = folio.questionnaires;
  return {
    async submit(input) {
      const job = await service.submit(input);
      return { jobId: job.id, total: job.total };
    },
    preview: (input) => service.preview(input),
    async progress(jobId) {
      const progress = await service.progress(jobId);
      if (!progress) throw jobVanished(jobId);
      return progress;
    },
    async cancel(jobId) {
      await service.cancel(jobId);
    },
    async filledCopy(jobId) {
      const copy = await service.filledCopy(jobId);
      if (!copy) throw jobVanished(jobId);
      return copy;
    },
  };
}

/** The extension of the copy's media type, for a reply that does not name the file. */
function contentTypeExtension(response: Response): string {
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("wordprocessingml")) return "docx";
  if (type.includes("tab-separated")) return "tsv";
  if (type.startsWith("text/csv")) return "csv";
  return "xlsx";
}

export function createRemoteQuestionnaireBackend(address: ServerAddress): QuestionnaireBackend {
  const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
    let response: Response;
    try {
      response = await fetch(`${address.url}/api/local/${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${address.token}`, ...(init.headers as Record<string, string> | undefined) },
      });
    } catch (error) {
      throw new FolioError(
        "server_unreachable",
        `The running folio serve (pid ${address.pid}, ${address.url}) stopped answering — the job goes on there; try again, or stop it to work on the store directly.`,
        { cause: error },
      );
    }
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
      throw new FolioError(body.error?.code ?? "server_error", body.error?.message ?? `HTTP ${response.status}`);
    }
    return response;
  };
  return {
    async submit(input) {
      const query = new URLSearchParams({ space: input.spaceId, file: input.fileName });
      if (input.sheet !== undefined) query.set("sheet", input.sheet);
      if (input.column !== undefined) query.set("column", input.column);
      const response = await call(`questionnaires?${query}`, {
        method: "POST",
        headers: { "Content-Type": "application/octet-stream" },
        body: input.bytes,
      });
      const body = (await response.json()) as { progress: QuestionnaireProgress };
      return { jobId: body.progress.jobId, total: body.progress.total };
    },
    async preview(input) {
      const query = new URLSearchParams({ file: input.fileName });
      if (input.sheet !== undefined) query.set("sheet", input.sheet);
      if (input.column !== undefined) query.set("column", input.column);
      const response = await call(`questionnaires/preview?${query}`, {
        method: "POST",
        headers: { "Content-Type": "application/octet-stream" },
        body: input.bytes,
      });
      return ((await response.json()) as { preview: QuestionnairePreview }).preview;
    },
    async progress(jobId) {
      const response = await call(`questionnaires/progress?id=${encodeURIComponent(jobId)}`);
      return ((await response.json()) as { progress: QuestionnaireProgress }).progress;
    },
    async cancel(jobId) {
      await (await call(`questionnaires/cancel?id=${encodeURIComponent(jobId)}`, { method: "POST" })).body?.cancel();
    },
    async filledCopy(jobId) {
      const response = await call(`questionnaires/filled?id=${encodeURIComponent(jobId)}`);
      const disposition = response.headers.get("content-disposition") ?? "";
      const match = /filename\*=UTF-8''([^;]+)/.exec(disposition);
      return {
        bytes: new Uint8Array(await response.arrayBuffer()),
        // The server always names the copy; this is only for a reply without the header.
        fileName: match?.[1] ? decodeURIComponent(match[1]) : `filled.${contentTypeExtension(response)}`,
      };
    },
  };
}
