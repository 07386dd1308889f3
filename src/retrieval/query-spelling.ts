/**
 * Repairs misspelt words of a question before it is searched ("Wht does Northwind Helth cover ambuance
 * servces?" → "… Northwind health cover ambulance services?"). BM25 cannot match a misspelt word at all
 * and the embedder splits it into meaningless pieces, so one typo can cost the answer.
 *
 * A word is repaired only when it is neither an English word (the dictionary) nor a term of the searched
 * spaces, and then only into a dictionary word one or two edits away that does occur there — the most
 * common one in those spaces among the closest. So the documents decide: a word they use is never
 * "corrected", names and acronyms (capitals inside or throughout) are left alone, and a question about
 * something the documents lack keeps its words. It costs nothing for a question whose words are all in the
 * dictionary, one term-statistics look-up when the unknown words are the documents' own, and a second
 * one (with the candidate search) only for words the searched spaces lack.
 */
import type { SpellingDictionary } from "./spelling-dictionary.js";
import { analyzeText, termId } from "./text-analyzer.js";

export type SpellingCorrection = { from: string; to: string };
export type CorrectedQuery = { text: string; corrections: SpellingCorrection[] };

/** Words shorter than this are too ambiguous to repair ("teh" is one edit from a dozen words). */
const MINIMUM_LENGTH = 4;
/** From this length on, two edits are allowed; shorter words get one. */
const TWO_EDITS_FROM_LENGTH = 6;
/** Candidates considered per word, closest and most common first. */
const CANDIDATES_PER_WORD = 24;
const WORD = /[A-Za-z]+/g;

/** A word of the question that is not in the dictionary, with its place and its BM25 term id. */
type UnknownWord = { word: string; start: number; termId: number };
type Candidate = { word: string; distance: number; termId: number };

export async function correctQuerySpelling(
  query: string,
  options: {
    dictionary: SpellingDictionary;
    /** Document frequencies of the given term ids in the searched spaces (absent or 0: not there). */
    documentFrequencies(termIds: number[]): Promise<Map<number, number>>;
  },
): Promise<CorrectedQuery> {
  const unknown = findUnknownWords(query, options.dictionary);
  if (unknown.length === 0) return { text: query, corrections: [] };
  // Most words the dictionary lacks are the documents' own (names, jargon): one look-up settles them
  // before any candidate is searched for.
  const own = await options.documentFrequencies([...new Set(unknown.map((entry) => entry.termId))]);
  const missing = unknown.filter((entry) => (own.get(entry.termId) ?? 0) === 0);
  const candidatesByWord = new Map(missing.map((entry) => [entry, candidatesFor(entry.word, options.dictionary)]));
  const candidateTerms = [...new Set([...candidatesByWord.values()].flat().map((candidate) => candidate.termId))];
  if (candidateTerms.length === 0) return { text: query, corrections: [] };
  const frequencies = await options.documentFrequencies(candidateTerms);
  const frequency = (id: number) => frequencies.get(id) ?? 0;

  let text = "";
  let copiedUpTo = 0;
  const corrections: SpellingCorrection[] = [];
  for (const [entry, candidates] of candidatesByWord) {
    const present = candidates.filter((candidate) => frequency(candidate.termId) > 0);
    const closest = Math.min(...present.map((candidate) => candidate.distance));
    // Among the closest, the one the spaces use most; the dictionary's order (commoner first) breaks ties.
    const best = present
      .filter((candidate) => candidate.distance === closest)
      .reduce<Candidate | undefined>(
        (chosen, candidate) => (chosen && frequency(chosen.termId) >= frequency(candidate.termId) ? chosen : candidate),
        undefined,
      );
    if (!best) continue;
    const replacement = matchCapitalization(entry.word, best.word);
    text += query.slice(copiedUpTo, entry.start) + replacement;
    copiedUpTo = entry.start + entry.word.length;
    corrections.push({ from: entry.word, to: replacement });
  }
  return corrections.length === 0
    ? { text: query, corrections }
    : { text: text + query.slice(copiedUpTo), corrections };
}

function findUnknownWords(query: string, dictionary: SpellingDictionary): UnknownWord[] {
  const unknown: UnknownWord[] = [];
  for (const match of query.matchAll(WORD)) {
    const word = match[0];
    if (word.length < MINIMUM_LENGTH || looksLikeName(word)) continue;
    const lower = word.toLowerCase();
    if (dictionary.has(lower)) continue;
    const termId = singleTermId(lower);
    if (termId !== null) unknown.push({ word, start: match.index ?? 0, termId });
  }
  return unknown;
}

function candidatesFor(word: string, dictionary: SpellingDictionary): Candidate[] {
  const maxDistance = word.length >= TWO_EDITS_FROM_LENGTH ? 2 : 1;
  return dictionary
    .candidates(word.toLowerCase(), maxDistance)
    .slice(0, CANDIDATES_PER_WORD)
    .flatMap((candidate) => {
      const termId = singleTermId(candidate.word);
      return termId === null ? [] : [{ word: candidate.word, distance: candidate.distance, termId }];
    });
}

/** "PerksPlus", "TMJ", "iPhone": capitals after the first letter mark a name or an acronym. */
function looksLikeName(word: string): boolean {
  return /[A-Z]/.test(word.slice(1));
}

/** The BM25 term id of one word; null for a stop word. */
function singleTermId(word: string): number | null {
  const [term] = analyzeText(word);
  return term === undefined ? null : termId(term);
}

function matchCapitalization(original: string, replacement: string): string {
  const first = original[0] ?? "";
  return first !== first.toLowerCase() ? (replacement[0] ?? "").toUpperCase() + replacement.slice(1) : replacement;
}
