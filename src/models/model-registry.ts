/**
 * The models Folio can download by itself: the hub repository and pinned revision of each, and every
 * file the code loads with its size and checksum. A download is kept only when its bytes match these
 * pins, so a changed repository or a tampered mirror cannot swap the model under a running team.
 *
 * Where the pins come from: the transformers.js exports by Xenova, at revisions other projects pin
 * publicly. bge-small-en-v1.5's SHA-256s equal the bytes of the shared test models folder's bge-small-en-v1.5 (the
 * same int8 export). bge-reranker-base's two LFS files carry their LFS SHA-256; its three small files
 * carry the git blob SHA-1 the hub reports for them (their SHA-256 was not published).
 */
export type ModelFileSpec = {
  /** Path inside the repository, and inside `<models dir>/<model id>/`. */
  path: string;
  bytes: number;
  sha256?: string;
  /** Git's blob id, `sha1("blob <bytes>\0" + content)`: what the hub's ETag holds for a non-LFS file. */
  gitSha1?: string;
};

export type RegisteredModel = {
  /** The folder name in the models folder, which is also the value of FOLIO_EMBED_MODEL / FOLIO_RERANK_MODEL. */
  id: string;
  kind: "embedder" | "reranker";
  repository: string;
  revision: string;
  files: ModelFileSpec[];
};

/** What the chunker's tokenizer (ingestion/token-counter.ts) reads from an embedder's folder. */
export const TOKENIZER_FILES = ["tokenizer.json", "tokenizer_config.json"] as const;

const BGE_SMALL_EN_V15: RegisteredModel = {
  id: "bge-small-en-v1.5",
  kind: "embedder",
  repository: "Xenova/bge-small-en-v1.5",
  revision: "ea104dacec62c0de699686887e3f920caeb4f3e3",
  files: [
    { path: "config.json", bytes: 683, sha256: "fa73f90bf92c8cace1fbcb709626306f2bdbc9ea3e5b5f94b440df9b6aa56350" },
    {
      path: "tokenizer.json",
      bytes: 711_396,
      sha256: "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66",
    },
    {
      path: "tokenizer_config.json",
      bytes: 366,
      sha256: "9261e7d79b44c8195c1cada2b453e55b00aeb81e907a6664974b4d7776172ab3",
    },
    {
      path: "special_tokens_map.json",
      bytes: 125,
      sha256: "b6d346be366a7d1d48332dbc9fdf3bf8960b5d879522b7799ddba59e76237ee3",
    },
    {
      path: "onnx/model_quantized.onnx",
      bytes: 34_014_426,
      sha256: "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4",
    },
  ],
};

const BGE_RERANKER_BASE: RegisteredModel = {
  id: "bge-reranker-base",
  kind: "reranker",
  repository: "Xenova/bge-reranker-base",
  revision: "280bcc27a84e0b898c251e06fddb25171bd9b101",
  files: [
    { path: "config.json", bytes: 782, gitSha1: "ef36f7221740ddc57b6cfae14977840d1fc0fc95" },
    { path: "tokenizer_config.json", bytes: 443, gitSha1: "059214673d9d6d2ee319411e2ffec8c024b816d5" },
    { path: "special_tokens_map.json", bytes: 279, gitSha1: "68171d1ff68b731a33d119708476692c094a466b" },
    {
      path: "tokenizer.json",
      bytes: 17_098_079,
      sha256: "48564c5c7d3fa64d85d95e65414a542385f88b0f128fd8d4163fd7a57f2be05c",
    },
    {
      path: "onnx/model_quantized.onnx",
      bytes: 279_301_077,
      sha256: "dd98f3e67837d23210a6b7550c08cced4f61845b940ac45be3565840a10f3244",
    },
  ],
};

export const REGISTERED_MODELS: readonly RegisteredModel[] = [BGE_SMALL_EN_V15, BGE_RERANKER_BASE];

/** The embedding model folder used unless FOLIO_EMBED_MODEL names another (or none). */
export const DEFAULT_EMBED_MODEL = BGE_SMALL_EN_V15.id;

/** The reranker `folio models pull reranker` fetches when FOLIO_RERANK_MODEL names none. */
export const DEFAULT_RERANK_MODEL = BGE_RERANKER_BASE.id;

/** The registered model for a configured id, or null when Folio cannot download it. */
export function findRegisteredModel(modelId: string, kind: RegisteredModel["kind"]): RegisteredModel | null {
  return REGISTERED_MODELS.find((model) => model.id === modelId && model.kind === kind) ?? null;
}

export function registeredModelIds(kind: RegisteredModel["kind"]): string[] {
  return REGISTERED_MODELS.filter((model) => model.kind === kind).map((model) => model.id);
}
