/**
 * The BM25 analyzer, modelled on Lucene's EnglishAnalyzer (what Anserini's published BM25 baselines
 * use): Unicode word tokens, possessive "'s" removed, lower-cased, diacritics folded, Lucene's 33
 * English stop words dropped, Porter stemming. Terms become 29-bit ids that index sparse vectors.
 */
import { stemmer } from "stemmer";
import type { TermCounts } from "../stores/catalog.js";

/** Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET. */
const STOP_WORDS = new Set(
  "a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with".split(
    " ",
  ),
);

/**
 * Word tokens in the spirit of Unicode's word-break rules (Lucene's StandardTokenizer): letters and
 * digits, joined across an inner apostrophe or period ("don't", "u.s", "3.5") and digit groups ("1,000").
 */
const WORD_PATTERN = /[\p{L}\p{N}]+(?:(?:['’.][\p{L}\p{N}]+)|(?:,\p{N}+))*/gu;
const DIACRITICS = /\p{M}+/gu;
const TERM_ID_MASK = 2 ** 29 - 1;

/**
 * Text to BM25 terms. Folding happens before tokenizing so compatibility forms split like their plain
 * equivalents ("ﬁle" is "file", "½" is "1⁄2" and so the tokens "1" and "2"); lower-casing comes first
 * because lower-casing some capitals ("İ") produces combining marks that folding then removes.
 */
export function analyzeText(text: string): string[] {
  const folded = text.toLowerCase().normalize("NFKD").replace(DIACRITICS, "");
  const terms: string[] = [];
  for (const match of folded.matchAll(WORD_PATTERN)) {
    // Lucene's EnglishPossessiveFilter: a trailing 's (straight or curly apostrophe) goes.
    const token = match[0].replace(/['’]s$/u, "").replaceAll("’", "'");
    if (token.length === 0 || STOP_WORDS.has(token)) continue;
    terms.push(stemmer(token));
  }
  return terms;
}

/** FNV-1a (32-bit) of the term's UTF-16 code units, folded to 29 bits so ids fit the sparse index. */
export function termId(term: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < term.length; index += 1) {
    hash ^= term.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash & TERM_ID_MASK;
}

/** Analyzes text into term ids (ascending, unique) with their counts and the total token count. */
export function countTerms(text: string): TermCounts {
  const counts = new Map<number, number>();
  const terms = analyzeText(text);
  for (const term of terms) {
    const id = termId(term);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const termIds = [...counts.keys()].sort((left, right) => left - right);
  return { termIds, counts: termIds.map((id) => counts.get(id) ?? 0), length: terms.length };
}
