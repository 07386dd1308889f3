/**
 * A token count without a tokenizer, for keyword-only set-ups (FOLIO_EMBED_MODEL=none) that start with
 * no model files at all. No embedder will truncate these chunks, so the count only has to keep chunks
 * near the configured size; it errs long, as a WordPiece tokenizer does on rare words and numbers.
 */
import type { TokenCounter } from "./token-counter.js";

/** Words, digit runs, and each other visible character (punctuation is a token of its own in WordPiece). */
const PIECES = /[\p{L}\p{M}]+|\p{N}+|[^\s\p{L}\p{M}\p{N}]/gu;
/** [CLS] and [SEP], which the real counter includes too. */
const SPECIAL_TOKENS = 2;
/** Common words are one WordPiece token; a longer word splits about every this many letters. */
const LETTERS_PER_TOKEN = 8;
const DIGITS_PER_TOKEN = 3;

export function createEstimatedTokenCounter(): TokenCounter {
  return {
    count(text) {
      let tokens = SPECIAL_TOKENS;
      for (const [piece] of text.matchAll(PIECES)) {
        if (/^\p{N}/u.test(piece)) tokens += Math.ceil(piece.length / DIGITS_PER_TOKEN);
        else if (/^[\p{L}\p{M}]/u.test(piece)) tokens += Math.ceil(piece.length / LETTERS_PER_TOKEN);
        else tokens += 1;
      }
      return tokens;
    },
  };
}
