/**
 * A dictionary of English words that lists the words within one or two edits of a misspelling (optimal
 * string alignment: insert, delete, substitute, swap two neighbours). It compares the misspelling with
 * every word of a near length, giving up on a word as soon as it is too far: a few milliseconds for
 * ~22,000 words, no index to build or hold, and it is only asked for words that are not in the dictionary.
 */

export type SpellingCandidate = {
  word: string;
  distance: number;
  /** The word's position in the dictionary's source order; lower is more common where that order is frequency. */
  rank: number;
};

export interface SpellingDictionary {
  has(word: string): boolean;
  /** Words within `maxDistance` of `word`, closest first, then in the dictionary's order. */
  candidates(word: string, maxDistance: number): SpellingCandidate[];
}

export function createSpellingDictionary(words: Iterable<string>): SpellingDictionary {
  const rankByWord = new Map<string, number>();
  const wordsByLength = new Map<number, string[]>();
  for (const word of words) {
    if (rankByWord.has(word)) continue;
    rankByWord.set(word, rankByWord.size);
    const sameLength = wordsByLength.get(word.length);
    if (sameLength) sameLength.push(word);
    else wordsByLength.set(word.length, [word]);
  }

  function candidates(word: string, maxDistance: number): SpellingCandidate[] {
    const found: SpellingCandidate[] = [];
    for (let length = word.length - maxDistance; length <= word.length + maxDistance; length += 1) {
      for (const candidate of wordsByLength.get(length) ?? []) {
        if (candidate === word) continue;
        const distance = editDistance(word, candidate, maxDistance);
        if (distance <= maxDistance) found.push({ word: candidate, distance, rank: rankByWord.get(candidate) ?? 0 });
      }
    }
    return found.sort((left, right) => left.distance - right.distance || left.rank - right.rank);
  }

  return { has: (word) => rankByWord.has(word), candidates };
}

/**
 * Optimal string alignment distance (Levenshtein plus the swap of two neighbouring letters), giving up
 * with `limit + 1` as soon as the distance must exceed `limit`. Three rows of the dynamic programme are
 * enough; they are reused between calls because this runs for thousands of words per misspelling.
 */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)] as const;

export function editDistance(left: string, right: string, limit: number): number {
  if (Math.abs(left.length - right.length) > limit) return limit + 1;
  const columns = right.length + 1;
  if (rows[0].length < columns) rows = [new Int32Array(columns), new Int32Array(columns), new Int32Array(columns)];
  let [beforePrevious, previous, current] = rows;
  for (let column = 0; column < columns; column += 1) previous[column] = column;
  for (let row = 1; row <= left.length; row += 1) {
    const leftCode = left.charCodeAt(row - 1);
    const leftBefore = row > 1 ? left.charCodeAt(row - 2) : -1;
    current[0] = row;
    let rowMinimum = row;
    for (let column = 1; column < columns; column += 1) {
      const rightCode = right.charCodeAt(column - 1);
      let value = Math.min(
        (previous[column] as number) + 1,
        (current[column - 1] as number) + 1,
        (previous[column - 1] as number) + (leftCode === rightCode ? 0 : 1),
      );
      if (column > 1 && leftCode === right.charCodeAt(column - 2) && leftBefore === rightCode) {
        value = Math.min(value, (beforePrevious[column - 2] as number) + 1);
      }
      current[column] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > limit) return limit + 1;
    [beforePrevious, previous, current] = [previous, current, beforePrevious];
  }
  return previous[right.length] as number;
}
