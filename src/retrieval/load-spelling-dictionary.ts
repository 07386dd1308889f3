/**
 * The spelling dictionary comes from the embedding model's WordPiece vocabulary: its ~22,000 whole
 * English words (pieces like "##ing" and non-letters left out) are already on disk, need no download, and
 * are listed roughly by how common they are, which breaks ties between equally close repairs.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { FolioError } from "../errors.js";
import { createSpellingDictionary, type SpellingDictionary } from "./spelling-dictionary.js";

const WHOLE_WORD = /^[a-z]{2,}$/;

export async function loadSpellingDictionary(tokenizerDirectory: string): Promise<SpellingDictionary> {
  const file = path.join(tokenizerDirectory, "tokenizer.json");
  let vocabulary: Record<string, number> | undefined;
  try {
    vocabulary = (JSON.parse(await readFile(file, "utf8")) as { model?: { vocab?: Record<string, number> } }).model
      ?.vocab;
  } catch (error) {
    throw new FolioError("model_missing", `Cannot read the spelling dictionary from ${file}.`, { cause: error });
  }
  if (!vocabulary || Array.isArray(vocabulary)) {
    throw new FolioError("model_unusable", `${file} has no WordPiece vocabulary (model.vocab) to take words from.`);
  }
  const words = Object.entries(vocabulary)
    .filter(([word]) => WHOLE_WORD.test(word))
    .sort((left, right) => left[1] - right[1])
    .map(([word]) => word);
  return createSpellingDictionary(words);
}
