/**
 * Whether a text names something a question names, forgiving what people type: case, punctuation,
 * a possessive "'s", and one slip per word (two in a long word): "Northwind Helth Plus" names
 * "Northwind Health Plus". The words must stand together and in order, so "Northwind Premium" is not
 * named by a text that says "Northwind" in one place and "premium" in another.
 */

/** Lower-case words joined by single spaces, with a space at each end: "NIKE, Inc." → " nike inc ". */
export function normalizeForNames(text: string): string {
  return ` ${text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/['’]s\b/g, "")
    .replace(/[^\p{L}\p{N}&]+/gu, " ")
    .trim()} `;
}

/** Slips allowed in a word of this length: none in short words (a typo there is another word). */
function allowedSlips(length: number): number {
  if (length >= 7) return 2;
  return length >= 5 ? 1 : 0;
}

/** Edit distance (insert, delete, substitute, swap of neighbours), stopping early once past `limit`. */
export function editDistanceWithin(left: string, right: string, limit: number): boolean {
  if (Math.abs(left.length - right.length) > limit) return false;
  if (left === right) return true;
  if (limit === 0) return false;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row += 1) {
    const current = [row];
    let rowMinimum = row;
    for (let column = 1; column <= right.length; column += 1) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      let value = Math.min(
        (previous[column] ?? 0) + 1,
        (current[column - 1] ?? 0) + 1,
        (previous[column - 1] ?? 0) + cost,
      );
      if (row > 1 && column > 1 && left[row - 1] === right[column - 2] && left[row - 2] === right[column - 1])
        value = Math.min(value, (beforePrevious[column - 2] ?? 0) + 1);
      current.push(value);
      rowMinimum = Math.min(rowMinimum, value);
    }
    if (rowMinimum > limit) return false;
    beforePrevious = previous;
    previous = current;
  }
  return (previous[right.length] ?? Number.POSITIVE_INFINITY) <= limit;
}

function wordMatches(asked: string, written: string): boolean {
  return asked === written || editDistanceWithin(asked, written, allowedSlips(asked.length));
}

/** Whether `normalized` (normalizeForNames of a text, its words in `words`) names `name`. */
export function namesIn(normalized: string, words: readonly string[], name: string): boolean {
  return countNamings(normalized, words, name, 1) > 0;
}

/**
 * How often the text names `name`, counting up to `enough`; with `forgiving` false only as written (no
 * slips): what says a document is *about* a name, where "coming" written again and again is no "Corning".
 */
export function countNamings(
  normalized: string,
  words: readonly string[],
  name: string,
  enough: number,
  forgiving = true,
): number {
  const wanted = normalizeForNames(name);
  if (wanted.trim() === "") return enough;
  let count = 0;
  for (let at = normalized.indexOf(wanted); at >= 0 && count < enough; at = normalized.indexOf(wanted, at + 1))
    count += 1;
  const asked = wanted.trim().split(" ");
  const first = asked[0] as string;
  // Only a name with a word long enough to hold a slip (or of three words or more) can be named with one.
  if (count > 0 || !forgiving || (asked.length < 3 && !asked.some((word) => allowedSlips(word.length) > 0)))
    return count;
  // A name of three or more words is still named with one word mistyped past recognition ("Contoso Finance
  // Analytics" for Contoso Financial Analytics); a two-word name must match in both ("Northwind Premium").
  const allowedMisses = asked.length >= 3 ? 1 : 0;
  for (let start = 0; start + asked.length <= words.length && count < enough; start += 1) {
    if (!wordMatches(first, words[start] as string)) continue;
    const misses = asked.filter((word, offset) => !wordMatches(word, words[start + offset] as string)).length;
    if (misses <= allowedMisses) count += 1;
  }
  return count;
}
