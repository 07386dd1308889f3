/**
 * Mends words a PDF broke across lines, so "infor-" + "mation" reads "information" and "SP 800-" +
 * "63-2" reads "SP 800-63-2" instead of leaving a gap where the line ended. Whether a hyphen belongs to
 * the word ("user-chosen") or only to the break ("infor-mation") is decided from the document's own
 * words: the spelling it uses elsewhere wins; a compound of two words it knows keeps its hyphen.
 * pdf.js drops soft hyphens altogether ("servic" + "es"), so a break without a hyphen is joined
 * when the document spells the joined word elsewhere and one of the halves is no word of it; in a
 * document full of such breaks, also when both halves are words but the joined word is the more
 * common reading ("In" + "formation").
 */
import type { LineJoin } from "./pdf-lines.js";

/**
 * How often the document uses each word, each hyphenated pair of words ("multi-factor") and each
 * pair of words in a row ("in formation"), away from line ends.
 */
export type Vocabulary = {
  words: ReadonlyMap<string, number>;
  compounds: ReadonlyMap<string, number>;
  pairs: ReadonlyMap<string, number>;
};

/**
 * What a document's line breaks tend to be, for the breaks its words say nothing about: `unknownHyphen`
 * is what a hyphen at a line end does (a typeset document breaks words at syllables, one written in a
 * word processor only at compounds); `softHyphens` says pdf.js dropped many hyphens of the document.
 */
export type BreakHabits = { unknownHyphen: LineJoin; softHyphens: boolean };

/** A document whose hyphens pdf.js dropped shows at least this many breaks that can only be broken words. */
const minimumSoftBreaks = 10;

const TOKEN = /[\p{L}\p{N}]+(?:[-\u2010'’][\p{L}\p{N}]+)*/gu;
const HYPHEN = /[-\u2010]/u;
const BREAK_HYPHEN = /([\p{L}\p{N}]+)[-\u2010\u00ad]$/u;
const TRAILING_WORD = /(?:^|[^\p{L}\p{N}\-\u2010])(\p{L}+)$/u;
const LEADING_WORD = /^([\p{L}\p{N}]+)/u;

function increment(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/**
 * Counts the words of the given lines. A line's first and last word are left out: they are where a
 * broken word's halves sit ("infor", "mation"), which must not count as words of the document.
 */
export function buildVocabulary(lines: Iterable<string>): Vocabulary {
  const words = new Map<string, number>();
  const compounds = new Map<string, number>();
  const pairs = new Map<string, number>();
  for (const line of lines) {
    const tokens = [...line.matchAll(TOKEN)].map((match) => match[0].toLowerCase());
    const inner = tokens.slice(1, -1);
    for (let index = 1; index < inner.length; index += 1) increment(pairs, `${inner[index - 1]} ${inner[index]}`);
    for (const token of inner) {
      const parts = token.split(HYPHEN);
      if (parts.length === 1) {
        increment(words, token);
        continue;
      }
      for (const part of parts) increment(words, part);
      for (let index = 1; index < parts.length; index += 1) increment(compounds, `${parts[index - 1]}-${parts[index]}`);
    }
  }
  return { words, compounds, pairs };
}

const count = (counts: ReadonlyMap<string, number>, key: string) => counts.get(key.toLowerCase()) ?? 0;

/** What the document's words say about a hyphen at a line end: part of the word, only of the break, or nothing. */
type Evidence = "join" | "drop-hyphen" | null;

function hyphenEvidence(before: string, next: string, vocabulary: Vocabulary): Evidence {
  const joined = count(vocabulary.words, before + next);
  const compound = count(vocabulary.compounds, `${before}-${next}`);
  if (joined > compound) return "drop-hyphen";
  if (compound > 0) return "join";
  // Two words the document knows make a compound ("threshold-analysis").
  return count(vocabulary.words, before) > 0 && count(vocabulary.words, next) > 0 ? "join" : null;
}

/** The hyphenated break at the end of `left` into `right`, when there is one: the halves of the word. */
function hyphenBreak(left: string, right: string): { before: string; next: string; fixed: boolean } | null {
  const next = LEADING_WORD.exec(right)?.[1];
  const hyphenated = BREAK_HYPHEN.exec(left);
  if (next === undefined || !hyphenated) return null;
  const before = hyphenated[1] as string;
  const ahead = left.charAt(left.length - before.length - 2);
  const after = right.charAt(next.length);
  // Numbers, identifiers and capitalised compounds keep their hyphen: "800-63-2", "RA-3", "Wi-Fi",
  // "one-size-fits-all", "privacy-threshold-analysis", "iso-iec-17020-identifier".
  const fixed =
    /\p{N}$/u.test(before) ||
    /^[\p{N}\p{Lu}]/u.test(next) ||
    /^\p{Lu}{2,}$/u.test(before) ||
    before.length === 1 ||
    /[-\u2010/_:.@]/u.test(ahead) ||
    /[-\u2010/_:@]/u.test(after);
  return { before, next, fixed };
}

/** The two halves of a break without a hyphen that may be one word ("servic" + "es"), or null. */
function softBreak(left: string, right: string): { previous: string; next: string } | null {
  if (BREAK_HYPHEN.test(left)) return null;
  const next = LEADING_WORD.exec(right)?.[1];
  const previous = TRAILING_WORD.exec(left)?.[1];
  if (next === undefined || previous === undefined || previous.length < 2 || !/^\p{Ll}+$/u.test(next)) return null;
  return { previous, next };
}

/** Whether the halves of a break without a hyphen are one word: surely, maybe (both are words too), or not. */
function softEvidence(previous: string, next: string, vocabulary: Vocabulary): "sure" | "maybe" | null {
  if (count(vocabulary.words, previous + next) === 0) return null;
  const halvesAreWords = count(vocabulary.words, previous) > 0 && count(vocabulary.words, next) > 0;
  return halvesAreWords ? "maybe" : "sure";
}

/**
 * How the line ending `left` runs on into the line starting `right`, or null when the line break
 * stands (a sentence, a list item or a table cell ends there). `habits` are the document's own (see
 * createLineMender); by default an unknown hyphen stays and a break without one needs sure evidence.
 */
export function mendLineBreak(
  left: string,
  right: string,
  vocabulary: Vocabulary,
  habits: BreakHabits = { unknownHyphen: "join", softHyphens: false },
): LineJoin | null {
  const broken = hyphenBreak(left, right);
  if (broken !== null) {
    if (broken.fixed) return "join";
    return hyphenEvidence(broken.before, broken.next, vocabulary) ?? habits.unknownHyphen;
  }
  const soft = softBreak(left, right);
  if (soft === null) return null;
  const evidence = softEvidence(soft.previous, soft.next, vocabulary);
  if (evidence === "sure") return "join";
  if (evidence === null || !habits.softHyphens) return null;
  // Both halves are words too: the reading the document uses more often wins ("information" over "in formation").
  const joined = count(vocabulary.words, soft.previous + soft.next);
  return joined >= 2 && joined > count(vocabulary.pairs, `${soft.previous} ${soft.next}`) ? "join" : null;
}

/** A document's line mender: its vocabulary and its habits, judged on the breaks its words do tell about. */
export function createLineMender(
  pages: ReadonlyArray<readonly string[]>,
): (left: string, right: string) => LineJoin | null {
  const vocabulary = buildVocabulary(pages.flat());
  let drops = 0;
  let keeps = 0;
  let softBreaks = 0;
  for (const lines of pages) {
    for (let index = 0; index + 1 < lines.length; index += 1) {
      const left = (lines[index] as string).trimEnd();
      const right = (lines[index + 1] as string).trimStart();
      const broken = hyphenBreak(left, right);
      if (broken !== null && !broken.fixed) {
        const evidence = hyphenEvidence(broken.before, broken.next, vocabulary);
        if (evidence === "drop-hyphen") drops += 1;
        else if (evidence === "join") keeps += 1;
      }
      const soft = softBreak(left, right);
      if (soft !== null && softEvidence(soft.previous, soft.next, vocabulary) === "sure") softBreaks += 1;
    }
  }
  const habits: BreakHabits = {
    unknownHyphen: drops > keeps ? "drop-hyphen" : "join",
    softHyphens: softBreaks >= minimumSoftBreaks,
  };
  return (left, right) => mendLineBreak(left, right, vocabulary, habits);
}
