/**
 * Repairs misspelt words of a question before it is searched ("Wht does Northwind Helth cover ambuance
 * servces?" → "… Northwind health cover ambulance services?"). BM25 cannot match a misspelt word at all
 * and the embedder splits it into meaningless pieces, so one typo can cost the answer.
 *
 * A word is repaired only when it is neither an English word (the dictionary) nor a term of the searched
 * spaces, and then only into a dictionary word one or two edits away that does occur there — the most
 * common one in those spaces among the closest. So the documents decide: a word they use is never
 * "corrected", names and acronyms (capitals inside or throughout) are left alone, and a question about
 * something the documents lack keeps its words. Everything happens in one term-statistics look-up, and
 * only for questions that hold an unknown word.
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

type Repairable = {
  word: string;
  start: number;
  termId: number;
  candidates: Array<{ word: string; distance: number; termId: number }>;
};

export async function correctQuerySpelling(
  query: string,
  options: {
    dictionary: SpellingDictionary;
    /** Document frequencies of the given term ids in the searched spaces (absent or 0: not there). */
    documentFrequencies(termIds: number[]): Promise<Map<number, number>>;
  },
): Promise<CorrectedQuery> {
  const repairable = findRepairableWords(query, options.dictionary);
  if (repairable.length === 0) return { text: query, corrections: [] };
  const termIds = [...new Set(repairable.flatMap((entry) => [entry.termId, ...entry.candidates.map((c) => c.termId)]))];
  const frequencies = await options.documentFrequencies(termIds);
  const frequency = (id: number) => frequencies.get(id) ?? 0;

  let text = "";
  let copiedUpTo = 0;
  const corrections: SpellingCorrection[] = [];
  for (const entry of repairable) {
    if (frequency(entry.termId) > 0) continue;
    const present = entry.candidates.filter((candidate) => frequency(candidate.termId) > 0);
    const closest = Math.min(...present.map((candidate) => candidate.distance));
    // Among the closest, the one the spaces use most; the dictionary's order (commoner first) breaks ties.
    const best = present
      .filter((candidate) => candidate.distance === closest)
      .reduce<(typeof present)[number] | undefined>(
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

function findRepairableWords(query: string, dictionary: SpellingDictionary): Repairable[] {
  const repairable: Repairable[] = [];
  for (const match of query.matchAll(WORD)) {
    const word = match[0];
    if (word.length < MINIMUM_LENGTH || looksLikeName(word)) continue;
    const lower = word.toLowerCase();
    if (dictionary.has(lower)) continue;
    const ownTerm = singleTermId(lower);
    if (ownTerm === null) continue;
    const maxDistance = word.length >= TWO_EDITS_FROM_LENGTH ? 2 : 1;
    const candidates = dictionary
      .candidates(lower, maxDistance)
      .slice(0, CANDIDATES_PER_WORD)
      .flatMap((candidate) => {
        const id = singleTermId(candidate.word);
        return id === null ? [] : [{ word: candidate.word, distance: candidate.distance, termId: id }];
      });
    if (candidates.length > 0) repairable.push({ word, start: match.index ?? 0, termId: ownTerm, candidates });
  }
  return repairable;
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
