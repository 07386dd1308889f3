/**
 * Picks the sentence of a text that best supports a claim (a question, or an answer sentence), by
 * overlap of analyzed terms. Shared by the extractive generator (what to quote) and the citation
 * builder (which sentence a citation quotes), so both agree.
 */
import { type SentenceRange, splitSentences } from "../../ingestion/split-sentences.js";
import { analyzeText } from "../retrieval/text-analyzer.js";

export type ScoredSentence = { text: string; start: number; end: number; score: number };

const MAX_SENTENCE_CHARACTERS = 400;

export function uniqueTerms(text: string): Set<string> {
  return new Set(analyzeText(text));
}

/** A "sentence" this short is a run-in heading or label ("Rapid elasticity."): it is quoted with what follows. */
const MIN_SENTENCE_WORDS = 4;

function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== "").length;
}

/** Sentence ranges with each too-short fragment joined to the sentence after it. */
function quotableSentences(text: string): SentenceRange[] {
  const merged: SentenceRange[] = [];
  let pendingStart: number | null = null;
  for (const range of splitSentences(text)) {
    const start: number = pendingStart ?? range.start;
    if (wordCount(text.slice(start, range.end)) < MIN_SENTENCE_WORDS) {
      pendingStart = start;
      continue;
    }
    merged.push({ start, end: range.end });
    pendingStart = null;
  }
  if (pendingStart !== null) merged.push({ start: pendingStart, end: text.trimEnd().length });
  return merged;
}

/**
 * Sentences of `text` ranked by the claim terms they contain — each term counts its weight (1 unless
 * `termWeights` gives one), so a rare, specific term can outweigh a word every source shares. Ties:
 * earlier first.
 */
export function rankSentences(
  text: string,
  claimTerms: Set<string>,
  termWeights?: ReadonlyMap<string, number>,
): ScoredSentence[] {
  return quotableSentences(text)
    .map((range) => {
      const sentence = text.slice(range.start, range.end);
      const terms = uniqueTerms(sentence);
      let matched = 0;
      for (const term of claimTerms) if (terms.has(term)) matched += termWeights?.get(term) ?? 1;
      // Very long "sentences" (tables, lists flattened by PDF extraction) are penalised: they make poor quotes.
      const lengthPenalty = sentence.length > MAX_SENTENCE_CHARACTERS ? 0.5 : 1;
      return { text: sentence, start: range.start, end: range.end, score: matched * lengthPenalty };
    })
    .sort((left, right) => right.score - left.score || left.start - right.start);
}

/** A quote fit for a chat message: whitespace collapsed, cut at a word near `limit` characters. */
export function shortenQuote(text: string, limit = 200): string {
  const collapsed = text.replace(/\s+/g, " ").trim();
  if (collapsed.length <= limit) return collapsed;
  const cut = collapsed.slice(0, limit);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), limit * 0.6))}…`;
}
