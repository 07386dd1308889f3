/**
 * Makes sure the models a configuration needs are in the models folder: works out which files that
 * means (the plan), leaves present files alone, and downloads the missing ones from the hub — or,
 * with FOLIO_OFFLINE, refuses in one line that names the missing file and the fix. Called at start-up
 * by the composition root (first use) and by `folio models pull` (ahead of time).
 */
import { rm, stat } from "node:fs/promises";
import path from "node:path";
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import { type DownloadOptions, downloadHubFile } from "./download-hub-file.js";
import { describeProgress, type ProgressListener } from "./download-progress.js";
import { hubFileLocalPath } from "./hub-file-reference.js";
import type { ModelDownloadConfig } from "./model-download-settings.js";
import {
  DEFAULT_EMBED_MODEL,
  DEFAULT_RERANK_MODEL,
  findRegisteredModel,
  type RegisteredModel,
  registeredModelIds,
  TOKENIZER_FILES,
} from "./model-registry.js";
import { describeDownloadFailure, modelUnavailableError } from "./model-unavailable.js";
import { MODEL_TARGETS, type ModelTarget, type PlannedModelFile } from "./planned-model-file.js";

export { MODEL_TARGETS, type ModelTarget, type PlannedModelFile };

/** What finding and fetching the configured models needs to know (a FolioConfig has all of it). */
export type ModelSetupConfig = {
  modelsDir: string;
  /** Null: keyword-only (FOLIO_EMBED_MODEL=none). */
  embedModel: string | null;
  /** Null: no reranker configured. */
  rerankModel: string | null;
  modelDownloads: ModelDownloadConfig;
};

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
      modelFolder: null,
      expected: { sha256: null, gitSha1: null, bytes: null },
    };
    return { target, files: [file], note: null };
  }
  if (target === "embedder") {
    if (config.embedModel === null) {
      // Keyword-only set-ups start with no model at all (chunks are then sized by an estimate); asked
      // for by name, the default embedder's tokenizer is fetched, and chunks are sized exactly with it.
      if (!requested) {
        return { target, files: [], note: "FOLIO_EMBED_MODEL is none: keyword search needs no model." };
      }
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
    modelFolder: path.join(config.modelsDir, model.id),
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
 * hand-copied model is the operator's choice) and downloads the rest, model by model. A model that
 * cannot be had is reported whole, in one message with the ways to get it, and the folders this call
 * created for it are removed again, so a later copy of the model's folder lands where it should.
 */
export async function ensureModelFiles(
  files: PlannedModelFile[],
  settings: ModelSetupConfig["modelDownloads"],
  options: EnsureOptions = {},
): Promise<ModelFileOutcome[]> {
  const outcomes: ModelFileOutcome[] = [];
  for (const modelFiles of groupByModel(files)) {
    outcomes.push(...(await ensureOneModel(modelFiles, settings, options)));
  }
  return outcomes;
}

function groupByModel(files: PlannedModelFile[]): PlannedModelFile[][] {
  const groups = new Map<string, PlannedModelFile[]>();
  for (const file of files) {
    const key = `${file.target}\u0000${file.model}`;
    groups.set(key, [...(groups.get(key) ?? []), file]);
  }
  return [...groups.values()];
}

async function ensureOneModel(
  files: PlannedModelFile[],
  settings: ModelSetupConfig["modelDownloads"],
  options: EnsureOptions,
): Promise<ModelFileOutcome[]> {
  const sizes = await Promise.all(files.map((file) => sizeOf(file.destination)));
  const missing = files.filter((_, index) => sizes[index] === null);
  const unavailable = (reason: string, cause?: unknown) =>
    modelUnavailableError({ files, reason, hubEndpoint: settings.hubEndpoint, offline: settings.offline, cause });
  if (settings.offline && missing.length > 0) throw unavailable("FOLIO_OFFLINE forbids downloading it");
  const created = await foldersToCreate(missing);
  const outcomes: ModelFileOutcome[] = [];
  try {
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
  } catch (error) {
    // Only what this call made: a folder that existed before holds the operator's files.
    await Promise.all([...created].map((folder) => rm(folder, { recursive: true, force: true })));
    if (error instanceof FolioError && HUB_UNREACHABLE_CODES.has(error.code)) {
      throw unavailable(describeDownloadFailure(error, settings.hubEndpoint), error);
    }
    throw error;
  }
  return outcomes;
}

/** Failures that mean "the hub cannot give it to us" (not "it gave us the wrong bytes"). */
const HUB_UNREACHABLE_CODES = new Set(["model_download_failed", "model_download_timeout"]);

/** The top-most folder each missing file's download would create: what to remove if the model fails. */
async function foldersToCreate(missing: PlannedModelFile[]): Promise<Set<string>> {
  const created = new Set<string>();
  for (const file of missing) {
    let folder = path.dirname(file.destination);
    let topMost: string | null = null;
    while ((await folderExists(folder)) === false) {
      topMost = folder;
      const parent = path.dirname(folder);
      if (parent === folder) break;
      folder = parent;
    }
    if (topMost) created.add(topMost);
  }
  return created;
}

async function folderExists(folder: string): Promise<boolean> {
  try {
    return (await stat(folder)).isDirectory();
  } catch {
    return false;
  }
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
