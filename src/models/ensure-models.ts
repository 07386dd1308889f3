/**
 * Makes sure the models a configuration needs are in the models folder: works out which files that
 * means (the plan), leaves present files alone, and downloads the missing ones from the hub — or,
 * with FOLIO_OFFLINE, refuses in one line that names the missing file and the fix. Called at start-up
 * by the composition root (first use) and by `folio models pull` (ahead of time).
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import { DEFAULT_EMBED_MODEL, type FolioConfig } from "../config/config.js";
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import { type DownloadOptions, downloadHubFile, type HubFileRequest } from "./download-hub-file.js";
import { describeProgress, type ProgressListener } from "./download-progress.js";
import { hubFileLocalPath } from "./hub-file-reference.js";
import {
  DEFAULT_RERANK_MODEL,
  findRegisteredModel,
  type RegisteredModel,
  registeredModelIds,
  TOKENIZER_FILES,
} from "./model-registry.js";

export const MODEL_TARGETS = ["embedder", "reranker", "llm"] as const;
export type ModelTarget = (typeof MODEL_TARGETS)[number];

export type ModelSetupConfig = Pick<FolioConfig, "modelsDir" | "embedModel" | "rerankModel" | "modelDownloads">;

export type PlannedModelFile = HubFileRequest & { target: ModelTarget };

export type ModelPlan = {
  target: ModelTarget;
  files: PlannedModelFile[];
  /** Why the plan is smaller than the target suggests (a note for the person running the pull). */
  note: string | null;
};

export type ModelFileOutcome = {
  model: string;
  file: string;
  status: "downloaded" | "present";
  bytes: number;
  destination: string;
};

/**
 * The files a target needs. `requested` is true when a person asked for the target by name
 * (`folio models pull reranker`); then an unconfigured reranker means the default one, and a model Folio
 * cannot download is an error instead of a note.
 */
export function planModelFiles(config: ModelSetupConfig, target: ModelTarget, requested: boolean): ModelPlan {
  if (target === "llm") {
    const reference = config.modelDownloads.llmFile;
    if (!reference) {
      return {
        target,
        files: [],
        note: "FOLIO_LLM_MODEL names no hub file (hf:<owner>/<repo>/<file>.gguf): no LLM to pull.",
      };
    }
    const file: PlannedModelFile = {
      target,
      model: reference.repository,
      repository: reference.repository,
      revision: reference.revision,
      path: reference.path,
      destination: hubFileLocalPath(config.modelsDir, reference),
      expected: { sha256: null, gitSha1: null, bytes: null },
    };
    return { target, files: [file], note: null };
  }
  if (target === "embedder") {
    if (config.embedModel === null) {
      // Keyword-only set-ups still size chunks with the default embedder's tokenizer.
      const model = registeredModel(DEFAULT_EMBED_MODEL, "embedder");
      const files = model.files.filter((file) => (TOKENIZER_FILES as readonly string[]).includes(file.path));
      return {
        target,
        files: planFiles(config, model, target, files),
        note: `FOLIO_EMBED_MODEL is none: only the tokenizer of ${model.id}, which sizes chunks.`,
      };
    }
    return planRegistered(config, target, config.embedModel, requested);
  }
  if (config.rerankModel === null) {
    if (!requested) return { target, files: [], note: "FOLIO_RERANK_MODEL is not set: reranking is off." };
    const plan = planRegistered(config, target, DEFAULT_RERANK_MODEL, requested);
    return { ...plan, note: `Set FOLIO_RERANK_MODEL=${DEFAULT_RERANK_MODEL} to rerank with it.` };
  }
  return planRegistered(config, target, config.rerankModel, requested);
}

function planRegistered(
  config: ModelSetupConfig,
  target: "embedder" | "reranker",
  modelId: string,
  requested: boolean,
): ModelPlan {
  const model = findRegisteredModel(modelId, target);
  if (model) return { target, files: planFiles(config, model, target, model.files), note: null };
  const variable = target === "embedder" ? "FOLIO_EMBED_MODEL" : "FOLIO_RERANK_MODEL";
  const message = `${variable} is ${modelId}, which Folio cannot download (it can: ${registeredModelIds(target).join(", ")}) — copy the model into ${path.join(config.modelsDir, modelId)}.`;
  if (requested) throw new FolioError("model_not_downloadable", message);
  return { target, files: [], note: message };
}

function planFiles(
  config: ModelSetupConfig,
  model: RegisteredModel,
  target: ModelTarget,
  files: RegisteredModel["files"],
): PlannedModelFile[] {
  return files.map((file) => ({
    target,
    model: model.id,
    repository: model.repository,
    revision: model.revision,
    path: file.path,
    destination: path.join(config.modelsDir, model.id, ...file.path.split("/")),
    expected: { sha256: file.sha256 ?? null, gitSha1: file.gitSha1 ?? null, bytes: file.bytes },
  }));
}

function registeredModel(modelId: string, kind: RegisteredModel["kind"]): RegisteredModel {
  const model = findRegisteredModel(modelId, kind);
  if (!model) throw new FolioError("internal_error", `${modelId} is missing from the model registry.`);
  return model;
}

async function sizeOf(filePath: string): Promise<number | null> {
  try {
    const info = await stat(filePath);
    return info.isFile() ? info.size : null;
  } catch {
    return null;
  }
}

export type EnsureOptions = Omit<DownloadOptions, "onProgress"> & {
  onProgress?: ProgressListener;
  /** Each file's outcome as soon as it is known, so a long pull reports as it goes. */
  onOutcome?: (outcome: ModelFileOutcome) => void;
  logger?: Logger;
};

/**
 * Leaves files that exist alone (Folio only ever renames complete, verified downloads into place, and a
 * hand-copied model is the operator's choice) and downloads the rest one by one.
 */
export async function ensureModelFiles(
  files: PlannedModelFile[],
  settings: ModelSetupConfig["modelDownloads"],
  options: EnsureOptions = {},
): Promise<ModelFileOutcome[]> {
  const sizes = await Promise.all(files.map((file) => sizeOf(file.destination)));
  const missing = files.filter((_, index) => sizes[index] === null);
  const [firstMissing] = missing;
  if (settings.offline && firstMissing) {
    const others = missing.length > 1 ? ` (and ${missing.length - 1} more)` : "";
    throw new FolioError(
      "model_missing",
      `Model file ${firstMissing.destination} is missing${others} and FOLIO_OFFLINE forbids downloading it — copy the model into ${path.dirname(firstMissing.destination)}, or unset FOLIO_OFFLINE / run \`folio models pull ${firstMissing.target}\` where the hub can be reached.`,
    );
  }
  const outcomes: ModelFileOutcome[] = [];
  for (const [index, file] of files.entries()) {
    const size = sizes[index];
    const outcome = { model: file.model, file: file.path, destination: file.destination };
    if (size !== null && size !== undefined) {
      outcomes.push({ ...outcome, status: "present", bytes: size });
      options.onOutcome?.({ ...outcome, status: "present", bytes: size });
      continue;
    }
    options.logger?.info({ model: file.model, file: file.path, hub: settings.hubEndpoint }, "downloading model file");
    const { bytes } = await downloadHubFile(
      file,
      { endpoint: settings.hubEndpoint, token: settings.hubToken },
      {
        ...options,
        onProgress: (progress) => {
          options.onProgress?.(progress);
          options.logger?.info({ ...progress, progress: describeProgress(progress) }, "model download progress");
        },
      },
    );
    outcomes.push({ ...outcome, status: "downloaded", bytes });
    options.onOutcome?.({ ...outcome, status: "downloaded", bytes });
  }
  return outcomes;
}

/** Plans and ensures the given targets, as configured (the start-up path). */
export async function ensureModels(
  config: ModelSetupConfig,
  targets: readonly ModelTarget[],
  options: EnsureOptions = {},
): Promise<ModelFileOutcome[]> {
  const files = targets.flatMap((target) => planModelFiles(config, target, false).files);
  return ensureModelFiles(files, config.modelDownloads, options);
}
