/**
 * A prose passage read as a writer laid it out: its heading line, its sentences (hard-wrapped lines of a
 * paragraph joined) and its list items with their depth, each with its offsets in the passage's text so
 * whatever is quoted from it keeps exact provenance. Markdown, Word (bullets as "•" paragraphs), HTML and
 * PDF text all arrive as lines; a blank line between items does not end a list, a paragraph after it does.
 * The answer readers build their candidates (answer-windows.ts) from these units.
 */
import { splitSentences } from "../../../ingestion/split-sentences.js";

export type PassageUnit = {
  kind: "heading" | "sentence" | "item";
  /** The unit's text as the passage prints it (line breaks inside a wrapped line kept). */
  text: string;
  start: number;
  end: number;
  /** Nesting of a list item (0 at the list's left edge); 0 for headings and sentences. */
  depth: number;
  /** Units of one paragraph or one list share a block number, in reading order. */
  block: number;
};

/** A bullet or a number opening a list item: "- ", "* ", "• ", "1. ", "2) ", "a) ". */
const ITEM_MARKER = /^([ \t]*)(?:[-*+•●○◦▪‣⁃–]|\(?(?:\d{1,2}|[a-z])[.)])[ \t]+(?=\S)/u;
/** A Markdown heading line ("## Annual leave"). */
const MARKDOWN_HEADING = /^[ \t]*#{1,6}[ \t]+\S/;
/** A line this short without closing punctuation, standing alone, is a heading. */
const MAX_HEADING_WORDS = 12;

type Line = { text: string; start: number; end: number };

function linesWithOffsets(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (const line of text.split("\n")) {
    lines.push({ text: line, start, end: start + line.length });
    start += line.length + 1;
  }
  return lines;
}

function isBlank(line: Line | undefined): boolean {
  return line === undefined || line.text.trim() === "";
}

function indentOf(text: string): number {
  const leading = /^[ \t]*/.exec(text)?.[0] ?? "";
  return leading.replace(/\t/g, "    ").length;
}

/** A line ending in one of these words breaks off a sentence; a title does not end so. */
const ENDS_MID_SENTENCE =
  /\b(?:the|a|an|of|to|and|or|for|in|on|at|by|with|from|as|that|is|are|was|were|be|this|its|their|our|your)$/i;

/**
 * A line that stands alone and reads as a title: short, no closing punctuation, not an item, not broken
 * off mid-sentence, and not followed (after the blank line) by a line that goes on in lower case.
 */
function looksLikeHeading(
  line: Line,
  previous: Line | undefined,
  next: Line | undefined,
  after: Line | undefined,
  headings: string[],
): boolean {
  const text = line.text.trim();
  if (MARKDOWN_HEADING.test(line.text)) return true;
  if (ITEM_MARKER.test(line.text) || !isBlank(previous) || !isBlank(next)) return false;
  if (headings.some((heading) => heading.trim().toLowerCase() === text.toLowerCase())) return true;
  if (ENDS_MID_SENTENCE.test(text) || (after !== undefined && /^\s*\p{Ll}/u.test(after.text))) return false;
  const words = text.split(/\s+/).length;
  return words <= MAX_HEADING_WORDS && !/[.:;,!]$/.test(text) && /^[\p{Lu}\p{N}]/u.test(text);
}

/** A "sentence" this short is a run-in label ("Rapid elasticity. Capabilities can be …"): it goes with the next. */
const MAX_LABEL_WORDS = 3;

/** The sentences of a paragraph's lines, at their offsets in the passage. */
function sentencesOf(text: string, from: number, to: number, block: number): PassageUnit[] {
  // Line breaks inside a paragraph are wraps: a space keeps every offset where it was.
  const paragraph = text.slice(from, to).replace(/\n/g, " ");
  const ranges = splitSentences(paragraph);
  const merged: Array<{ start: number; end: number }> = [];
  let label: number | null = null;
  for (const [index, range] of ranges.entries()) {
    const words = paragraph.slice(range.start, range.end).split(/\s+/).length;
    if (words <= MAX_LABEL_WORDS && index + 1 < ranges.length) {
      label ??= range.start;
      continue;
    }
    merged.push({ start: label ?? range.start, end: range.end });
    label = null;
  }
  return merged.map((range) => ({
    kind: "sentence" as const,
    text: text.slice(from + range.start, from + range.end),
    start: from + range.start,
    end: from + range.end,
    depth: 0,
    block,
  }));
}

/**
 * The units of a passage, in order. `headings` is the passage's heading path: its first line repeats the
 * innermost heading when the passage opens a section.
 */
export function passageUnits(text: string, headings: string[] = []): PassageUnit[] {
  const lines = linesWithOffsets(text);
  const units: PassageUnit[] = [];
  let block = 0;
  let listIndents: number[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] as Line;
    if (isBlank(line)) {
      index += 1;
      continue;
    }
    if (looksLikeHeading(line, lines[index - 1], lines[index + 1], lines[index + 2], headings)) {
      block += 1;
      listIndents = [];
      const leading = line.text.length - line.text.trimStart().length;
      units.push({
        kind: "heading",
        text: line.text.trim(),
        start: line.start + leading,
        end: line.end,
        depth: 0,
        block,
      });
      index += 1;
      continue;
    }
    const marker = ITEM_MARKER.exec(line.text);
    if (marker !== null) {
      // A list goes on across blank lines while items follow; its depth comes from the marker's indent.
      if (listIndents.length === 0) block += 1;
      const indent = indentOf(line.text);
      while (listIndents.length > 0 && (listIndents.at(-1) ?? 0) > indent) listIndents.pop();
      if (listIndents.length === 0 || (listIndents.at(-1) ?? 0) < indent) listIndents.push(indent);
      let end = line.end;
      index += 1;
      // Continuation lines: not blank, not another item, not a heading.
      while (index < lines.length && !isBlank(lines[index]) && !ITEM_MARKER.test((lines[index] as Line).text)) {
        end = (lines[index] as Line).end;
        index += 1;
      }
      const itemStart = line.start + marker[0].length;
      units.push({
        kind: "item",
        text: text.slice(itemStart, end),
        start: itemStart,
        end,
        depth: listIndents.length - 1,
        block,
      });
      continue;
    }
    // A paragraph: lines up to a blank line or an item. A blank line before a line that goes on in lower
    // case is one PDF text leaves inside a sentence ("… voted on the\n\nfour proposals"): the paragraph goes on.
    listIndents = [];
    block += 1;
    const from = line.start;
    let end = line.end;
    index += 1;
    for (;;) {
      while (index < lines.length && !isBlank(lines[index]) && !ITEM_MARKER.test((lines[index] as Line).text)) {
        end = (lines[index] as Line).end;
        index += 1;
      }
      const next = lines[index + 1];
      if (!isBlank(lines[index]) || next === undefined || !/^\s*\p{Ll}/u.test(next.text)) break;
      index += 1;
    }
    units.push(...sentencesOf(text, from, end, block));
  }
  return units;
}

/** A unit's text on one line, Markdown links written as their text and emphasis marks dropped. */
export function plainUnitText(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\((?:[^()\s]|\([^()\s]*\))*\)/g, "$1")
    .replace(/<((?:https?:\/\/|mailto:)[^>\s]+)>/g, "$1")
    .replace(/(\*\*|__)(?=\S)([^*_]+?)(?<=\S)\1/g, "$2")
    .replace(/(^|[\s(])[*_](?=\S)([^*_]+?)(?<=\S)[*_](?=[\s).,;:!?]|$)/g, "$1$2")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/\\([\\*_[\]()#`-])/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}
