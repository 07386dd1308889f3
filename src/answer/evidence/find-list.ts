/**
 * Finds the list a list question asks for: a line that introduces it ("Company Values:", "Some of the
 * lessons covered under PerksPlus include:") and names the question's subject, followed by its items —
 * bulleted or numbered lines, or paragraphs that open with a run-in label ("On-demand self-service. A
 * consumer can …"). The answer shows the items as a list, each as the document words it.
 */

import type { QuotedPassage } from "../citations/citations.js";
import type { NumberedSource } from "../generate/generator.js";
import type { QuestionAnalysis } from "../question/question-analysis.js";
import { uniqueTerms } from "./sentence-scoring.js";
import { linesOf, type TextLine } from "./text-lines.js";

export type FoundList = { source: NumberedSource; introduction: string; items: string[]; passage: QuotedPassage };

const MARKER = /^\s*(?:[•●○◦▪▫■□‣⁃∙·*–—-]|\(?(?:\d{1,2}|[a-z])[.)])\s*/u;
const BARE_MARKER = /^\s*[•●○◦▪▫■□‣⁃∙·*–—-]\s*$/u;
/** "On-demand self-service. A consumer …": a label of up to six words ending in a full stop, then a sentence. */
const RUN_IN_LABEL = /^([\p{Lu}][\p{L}\p{N}'’-]*(?:\s+[\p{L}\p{N}'’()-]+){0,5})\.\s+\p{Lu}/u;
const MAX_ITEMS = 15;
const MAX_ITEM_CHARACTERS = 160;
/** How far before the introducing line its subject may be named ("… lessons covered under PerksPlus include:"). */
const INTRODUCTION_CONTEXT = 200;

/** An item as the answer shows it: its first sentence, shortened at a word when long. */
function itemText(text: string): string {
  const collapsed = text.replace(/\s+/g, " ").trim();
  const firstSentence = /^.+?[.!?](?=\s|$)/.exec(collapsed)?.[0] ?? collapsed;
  const item = firstSentence.length >= 12 ? firstSentence : collapsed;
  if (item.length <= MAX_ITEM_CHARACTERS) return item;
  const cut = item.slice(0, MAX_ITEM_CHARACTERS);
  return `${cut.slice(0, cut.lastIndexOf(" "))}…`;
}

/** The items after an introducing line: marked lines, short lines after bare bullets, or run-in labelled paragraphs. */
export function itemsAfter(lines: TextLine[], from: number): { items: string[]; end: number } {
  const items: string[] = [];
  let current: string | null = null;
  let end = lines[from - 1]?.end ?? 0;
  let sawBareMarkers = false;
  let style: "marked" | "run-in" | "short" | null = null;
  const close = () => {
    if (current !== null) items.push(itemText(current));
    current = null;
  };
  for (let index = from; index < lines.length && items.length < MAX_ITEMS; index += 1) {
    const line = lines[index] as TextLine;
    const text = line.text.trim();
    // Short lines after bare bullets end at a blank line: what follows is prose again.
    if (text === "") {
      if (style === "short" && (current !== null || items.length > 0)) break;
      continue;
    }
    if (BARE_MARKER.test(text)) {
      sawBareMarkers = true;
      continue;
    }
    const marked = MARKER.test(text) && text.replace(MARKER, "").length > 0;
    const runIn = RUN_IN_LABEL.exec(text);
    if (marked && (style === null || style === "marked")) {
      close();
      style = "marked";
      current = text.replace(MARKER, "");
    } else if (runIn && (style === null || style === "run-in")) {
      close();
      style = "run-in";
      items.push(runIn[1] as string);
    } else if (sawBareMarkers && text.length <= 80 && (style === null || style === "short")) {
      close();
      style = "short";
      current = text;
    } else if (style === "marked" && current !== null && /^\p{Ll}/u.test(text)) {
      // A marked item wrapped onto the next line.
      current += ` ${text}`;
    } else if (style === "run-in" && !/^\p{Lu}[^.]{0,60}:$/u.test(text)) {
      // The rest of a run-in paragraph.
    } else break;
    end = line.end;
  }
  close();
  return { items, end };
}

/** The introducing sentence, from its start on an earlier line ("Some of the lessons covered under\nPerksPlus include:"). */
export function introductionOf(text: string, line: TextLine): string {
  const before = text.slice(Math.max(0, line.start - INTRODUCTION_CONTEXT), line.start);
  const sentenceStart = Math.max(
    before.lastIndexOf(". "),
    before.lastIndexOf(".\n"),
    before.lastIndexOf("\n\n"),
    before.lastIndexOf(":\n"),
  );
  const opening = sentenceStart < 0 ? "" : before.slice(sentenceStart + 2);
  const joined = /^\s*\p{Lu}/u.test(opening) ? `${opening} ${line.text}` : line.text;
  return joined.replace(/\s+/g, " ").trim().replace(/:$/, "");
}

export function findList(
  analysis: Pick<QuestionAnalysis, "measureTerms">,
  sources: NumberedSource[],
): FoundList | null {
  if (analysis.measureTerms.size === 0) return null;
  let best: FoundList | null = null;
  let bestScore = Number.NEGATIVE_INFINITY;
  sources.forEach((source, rank) => {
    const { text } = source.result;
    const lines = linesOf(text);
    lines.forEach((line, index) => {
      if (!/:\s*$/.test(line.text)) return;
      const context = uniqueTerms(text.slice(Math.max(0, line.start - INTRODUCTION_CONTEXT), line.end));
      const covered = [...analysis.measureTerms].filter((term) => context.has(term)).length;
      // With three or more words asked, one may be missing ("characteristics of cloud computing" over "Essential Characteristics:").
      if (covered < analysis.measureTerms.size - (analysis.measureTerms.size >= 3 ? 1 : 0)) return;
      const { items, end } = itemsAfter(lines, index + 1);
      if (items.length < 2) return;
      // The list's own introducing line naming what is asked ("Deployment Models:") beats one whose
      // context only mentions it ("… three service models, and four deployment models." above "Essential Characteristics:").
      const ownLine = uniqueTerms(line.text);
      const named = [...analysis.measureTerms].filter((term) => ownLine.has(term)).length / analysis.measureTerms.size;
      const score = items.length / MAX_ITEMS + named - 0.05 * rank;
      if (score <= bestScore) return;
      bestScore = score;
      const continued = end >= text.trimEnd().length - 1 ? itemsContinued(source, sources) : [];
      best = {
        source,
        introduction: introductionOf(text, line),
        items: [...items, ...continued.filter((item) => !items.includes(item))].slice(0, MAX_ITEMS),
        passage: { text: text.slice(line.start, end), start: line.start, end },
      };
    });
  });
  return best;
}

/** Characters of a passage's first line that must reappear at the end of the one before for it to go on with it. */
const OVERLAP_CHARACTERS = 24;

/**
 * Items of a list that runs past the end of its passage, read from the search result that goes on with
 * it (the same document's next passage, which starts with the end of the one before): "Hybrid cloud"
 * after "Private cloud", "Community cloud", "Public cloud".
 */
function itemsContinued(ended: NumberedSource, sources: NumberedSource[]): string[] {
  const tail = ended.result.text.slice(-600);
  const next = sources.find((candidate) => {
    if (candidate === ended || candidate.result.documentId !== ended.result.documentId) return false;
    const opening = candidate.result.text.trimStart().slice(0, OVERLAP_CHARACTERS);
    return opening.length === OVERLAP_CHARACTERS && tail.includes(opening);
  });
  if (next === undefined) return [];
  const lines = linesOf(next.result.text);
  // The list goes on at the next passage's first item: a marked line or a run-in label.
  const first = lines.findIndex((line) => MARKER.test(line.text) || RUN_IN_LABEL.test(line.text.trim()));
  return first < 0 ? [] : itemsAfter(lines, first).items;
}

/** A list's introduction found in a passage, with its items. */
type ListInPassage = { introduction: string; items: string[]; line: TextLine; end: number };

/** Every list a passage holds: a line ending in ":" followed by two or more items. */
export function listsIn(text: string): ListInPassage[] {
  const lines = linesOf(text);
  const lists: ListInPassage[] = [];
  lines.forEach((line, index) => {
    if (!/:\s*$/.test(line.text)) return;
    const { items, end } = itemsAfter(lines, index + 1);
    if (items.length >= 2) lists.push({ introduction: introductionOf(text, line), items, line, end });
  });
  return lists;
}

/**
 * The list item a yes/no question asks about ("Are food and supplements covered by PerksPlus?" →
 * "Food and supplements" under "things that are not covered … include:"): an item holding the
 * question's words that its list's introduction does not (at least half of them), shown under that
 * introduction, which says what the list is. The answer is the document's own words; no Yes or No is
 * made up from them.
 */
export function findListItem(questionTerms: ReadonlySet<string>, sources: NumberedSource[]): FoundList | null {
  let best: FoundList | null = null;
  let bestScore = Number.NEGATIVE_INFINITY;
  sources.forEach((source, rank) => {
    const { text } = source.result;
    for (const list of listsIn(text)) {
      const context = uniqueTerms(text.slice(Math.max(0, list.line.start - INTRODUCTION_CONTEXT), list.line.end));
      const asked = [...questionTerms].filter((term) => !context.has(term));
      if (asked.length === 0) continue;
      for (const item of list.items) {
        const itemTerms = uniqueTerms(item);
        const held = asked.filter((term) => itemTerms.has(term)).length;
        if (held === 0 || held * 2 < asked.length) continue;
        const score = held / asked.length - 0.1 * rank - 0.01 * itemTerms.size;
        if (score <= bestScore) continue;
        bestScore = score;
        best = {
          source,
          introduction: list.introduction,
          items: [item],
          passage: { text: text.slice(list.line.start, list.end), start: list.line.start, end: list.end },
        };
      }
    }
  });
  return best;
}
