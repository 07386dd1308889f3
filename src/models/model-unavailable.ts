/**
 * The one message for a model Folio needs but cannot get: it names the whole model (not the first file
 * that failed), where it is expected, why it could not be fetched, and the ways to get it — the hub, a
 * mirror through HF_ENDPOINT, `folio models pull` on a connected machine and a copied folder, or
 * FOLIO_MODELS_DIR pointed at a models folder that already holds it — then how to start without it.
 */
import path from "node:path";
import { FolioError } from "../errors.js";
import type { PlannedModelFile } from "./planned-model-file.js";

export type UnavailableModel = {
  /** Every file of the model, present or not: the model is named as a whole. */
  files: readonly PlannedModelFile[];
  /** Why it could not be fetched, as a clause: "FOLIO_OFFLINE forbids downloading it". */
  reason: string;
  hubEndpoint: string;
  offline: boolean;
  cause?: unknown;
};

/** How to start without the model, per target: the setting that leaves it out and what that costs. */
const WITHOUT_IT: Record<PlannedModelFile["target"], string> = {
  embedder: "Or start without it, keyword search only: FOLIO_EMBED_MODEL=none.",
  reranker: "Or start without reranking: leave FOLIO_RERANK_MODEL unset.",
  llm: "Or start without a language model (answers quoted from the documents): leave FOLIO_LLM_MODEL unset.",
};

export function modelUnavailableError(model: UnavailableModel): FolioError {
  const [first] = model.files;
  if (!first) return new FolioError("internal_error", "modelUnavailableError needs the model's files.");
  const bytes = model.files.reduce((total, file) => total + (file.expected.bytes ?? 0), 0);
  const size = bytes > 0 ? `, ${formatMegabytes(bytes)}` : "";
  const count = model.files.length === 1 ? "1 file" : `${model.files.length} files`;
  const what = `${first.target === "llm" ? "Language model" : `Model ${first.model}`} (the ${first.target}: ${count}${size})`;
  const location = first.modelFolder ?? first.destination;
  const hub = model.offline
    ? `unset FOLIO_OFFLINE where ${model.hubEndpoint} can be reached`
    : `let this machine reach ${model.hubEndpoint}`;
  // The folder is copied whole into the models folder; copying it onto an existing folder would nest it.
  const copy = first.modelFolder
    ? `then copy its ${path.basename(first.modelFolder)} folder into ${path.dirname(first.modelFolder)}`
    : `then copy ${path.basename(first.destination)} into ${path.dirname(first.destination)}`;
  // A folder someone already has (another checkout's models/, a shared drive) is the quickest way.
  const elsewhere = first.modelFolder
    ? `; or set FOLIO_MODELS_DIR to a folder that already holds a ${path.basename(first.modelFolder)} folder`
    : "";
  return new FolioError(
    "model_missing",
    `${what} is not in ${location}, and ${model.reason}. Get it: ${hub} and start again; set HF_ENDPOINT to a mirror of the hub; run \`folio models pull ${first.target}\` on a machine that reaches the hub, ${copy}${elsewhere}. ${WITHOUT_IT[first.target]}`,
    { cause: model.cause, details: { model: first.model, location } },
  );
}

/** A short clause for why a download failed, from the download error's details. */
export function describeDownloadFailure(error: FolioError, hubEndpoint: string): string {
  const reason = typeof error.details.reason === "string" ? error.details.reason : error.message;
  if (error.code === "model_download_timeout") return `the hub at ${hubEndpoint} stopped sending (${reason})`;
  if (typeof error.details.status === "number") return `the hub at ${hubEndpoint} refused it (${reason})`;
  return `the hub at ${hubEndpoint} cannot be reached (${reason})`;
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
