/**
 * Where missing models come from and whether Folio may fetch them at all: the settings src/models/
 * reads, declared here (the layer that uses them) and filled from the environment by src/config/.
 */
import type { HubFileReference } from "./hub-file-reference.js";

export const DEFAULT_HUB_ENDPOINT = "https://huggingface.co";

export type ModelDownloadConfig = {
  /** HF_ENDPOINT: the hub or a mirror speaking its protocol. */
  hubEndpoint: string;
  /** HF_TOKEN, for private or gated repositories; sent to the hub only. */
  hubToken: string | null;
  /** FOLIO_OFFLINE: never download; a missing model is a start-up error. */
  offline: boolean;
  /** FOLIO_LLM_MODEL when it names a hub file (hf:owner/repo/file.gguf); null otherwise. */
  llmFile: HubFileReference | null;
};
