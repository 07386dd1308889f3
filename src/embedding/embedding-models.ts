/**
 * How each known embedding model is used: pooling and the instruction its questions need. A model not
 * listed here is used with CLS pooling and no instruction (the BERT/BGE convention).
 */
export type EmbeddingModelProfile = { pooling: "cls" | "mean"; queryInstruction: string; passagePrefix: string };

const BGE_ENGLISH: EmbeddingModelProfile = {
  pooling: "cls",
  queryInstruction: "Represent this sentence for searching relevant passages: ",
  passagePrefix: "",
};

const PROFILES: Record<string, EmbeddingModelProfile> = {
  "bge-small-en-v1.5": BGE_ENGLISH,
  "bge-base-en-v1.5": BGE_ENGLISH,
  "bge-large-en-v1.5": BGE_ENGLISH,
  "all-MiniLM-L6-v2": { pooling: "mean", queryInstruction: "", passagePrefix: "" },
  "multilingual-e5-small": { pooling: "mean", queryInstruction: "query: ", passagePrefix: "passage: " },
  "multilingual-e5-base": { pooling: "mean", queryInstruction: "query: ", passagePrefix: "passage: " },
};

/** The profile for a configured model name; the last path segment decides ("Xenova/bge-small-en-v1.5"). */
export function embeddingModelProfile(modelId: string): EmbeddingModelProfile {
  const name = modelId.split("/").at(-1) ?? modelId;
  return PROFILES[name] ?? { pooling: "cls", queryInstruction: "", passagePrefix: "" };
}
