/**
 * Measures text the way the embedding model will: with its own tokenizer, special tokens included,
 * so a chunk within budget is never truncated by the embedder. Loaded from a local model directory
 * only (no hub access); one tokenizer per directory per process.
 *
 * The absolute directory is passed as the model id: transformers.js reads a path that is not a hub
 * id ("owner/name") as-is, so the shared `env.localModelPath` is left alone for other loaders.
 */
import path from "node:path";
import { AutoTokenizer, env } from "@huggingface/transformers";
import { FolioError } from "../src/errors.js";

export type TokenCounter = {
  /** Tokens of `text` including the model's special tokens ([CLS] and [SEP] for BERT-style models). */
  count(text: string): number;
};

const counters = new Map<string, Promise<TokenCounter>>();

async function createTokenCounter(tokenizerDirectory: string): Promise<TokenCounter> {
  const directory = path.resolve(tokenizerDirectory);
  env.allowRemoteModels = false;
  try {
    const tokenizer = await AutoTokenizer.from_pretrained(directory, { local_files_only: true });
    return { count: (text) => tokenizer.encode(text).length };
  } catch (error) {
    throw new FolioError(
      "tokenizer_missing",
      `Cannot load the embedding tokenizer from ${directory} — put the model's tokenizer.json and tokenizer_config.json there or set FOLIO_MODELS_DIR / FOLIO_EMBED_MODEL.`,
      { cause: error },
    );
  }
}

export function loadTokenCounter(tokenizerDirectory: string): Promise<TokenCounter> {
  const key = path.resolve(tokenizerDirectory);
  let counter = counters.get(key);
  if (!counter) {
    counter = createTokenCounter(key);
    counters.set(key, counter);
    counter.catch(() => counters.delete(key));
  }
  return counter;
}
