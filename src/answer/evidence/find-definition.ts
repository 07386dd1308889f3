/**
 * Finds the sentence that defines what a definition question asks about: a sentence holding every
 * word of the term together with a defining phrase ("is defined as", "we define … as", "means",
 * "refers to", "stands for", "is a …"), or the spelled-out form of an abbreviation ("Infrastructure
 * as a Service (IaaS)"). The sentence is quoted whole, never cut, as the answer's first line.
 */
import { splitSentences } from "../../../ingestion/split-sentences.js";
import type { QuotedPassage } from "../citations/citations.js";
import type { NumberedSource } from "../generate/generator.js";
import type { QuestionAnalysis } from "../question/question-analysis.js";
import { uniqueTerms } from "./sentence-scoring.js";

export type FoundDefinition = { source: NumberedSource; passage: QuotedPassage; score: number };

/** Phrases that define, strongest first: each weighs its share of the score. */
const DEFINING_PHRASES: ReadonlyArray<[RegExp, number]> = [
  [/\b(?:is|are)\s+defined\s+as\b|\bwe\s+define\b|\bdefined\s+as\b/i, 3],
  // "… means …", but not the noun ("serve as a means for comparison").
  [/(?<!\b(?:a|the|any|by|other)\s)\bmeans\b|\brefers?\s+to\b|\bstands?\s+for\b|\bis\s+(?:the\s+)?term\s+for\b/i, 2.5],
  [/\b(?:is|are)\s+(?:a|an|the|any|one|when|where|used)\s+\w+/i, 1.5],
  [/^[^.:]{2,60}:\s+\S/, 1],
];
const MIN_DEFINITION_WORDS = 8;
/** Longer than this, a "sentence" is a run of text extraction joined, not a definition to quote. */
const MAX_DEFINITION_CHARACTERS = 600;

/** The analysis's term as written, for finding it spelled out: "IaaS" in "What does IaaS stand for?". */
function abbreviationOf(measure: string): string | null {
  const match = /\b([A-Z][A-Za-z]{1,6}[A-Z][a-z]?)\b/.exec(measure) ?? /\b([A-Z]{2,6}s?)\b/.exec(measure);
  return match?.[1] ?? null;
}

export function findDefinition(
  analysis: Pick<QuestionAnalysis, "measureTerms" | "measure">,
  sources: NumberedSource[],
): FoundDefinition | null {
  if (analysis.measureTerms.size === 0) return null;
  const abbreviation = abbreviationOf(analysis.measure);
  const spelledOut = abbreviation === null ? null : new RegExp(`\\(\\s*${abbreviation}\\s*\\)`);
  const termIsSubject = subjectOfIs(analysis.measure);
  let best: FoundDefinition | null = null;
  sources.forEach((source, rank) => {
    const { text } = source.result;
    for (const { start, end } of splitSentences(text)) {
      const sentence = text.slice(start, end).trim();
      const spellsOut = spelledOut?.test(sentence) ?? false;
      // A heading ("The NIST Definition of Cloud Computing") names a definition; it does not give one.
      if (sentence.length > MAX_DEFINITION_CHARACTERS) continue;
      if (!spellsOut && sentence.split(/\s+/).length < MIN_DEFINITION_WORDS) continue;
      const terms = uniqueTerms(sentence);
      if (![...analysis.measureTerms].every((term) => terms.has(term))) continue;
      let strength = 0;
      for (const [phrase, weight] of DEFINING_PHRASES) if (phrase.test(sentence)) strength = Math.max(strength, weight);
      // "Free cash flow is cash flow from operations reduced by …": the term as the subject of "is" defines it.
      if (termIsSubject?.test(sentence)) strength = Math.max(strength, 2);
      if (spellsOut) strength = Math.max(strength, 3);
      if (strength === 0) continue;
      // The term near the start is the sentence's subject; deep inside, it is mentioned in passing.
      const termAt = firstTermOffset(sentence, analysis.measureTerms);
      const score = strength - termAt / 100 - 0.05 * rank;
      if (best === null || score > best.score)
        best = { source, passage: { text: sentence, start, end: start + sentence.length }, score };
    }
  });
  return best;
}

/** "free cash flow" → a pattern for "Free cash flow is" / "Free cash flows are" (the term, then its verb). */
function subjectOfIs(measure: string): RegExp | null {
  const words = measure
    .split(/\s+/)
    .filter((word) => /^[\p{L}\p{N}'’-]+$/u.test(word))
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  if (words.length === 0) return null;
  return new RegExp(`(?:^|[.:\\n]\\s*)${words.join("\\s+")}s?\\s+(?:is|are)\\s+(?!not\\b)\\w+`, "i");
}

/** Characters before the first word of the term in the sentence. */
function firstTermOffset(sentence: string, terms: Set<string>): number {
  const words = sentence.split(/\s+/);
  let offset = 0;
  for (const word of words) {
    if ([...uniqueTerms(word)].some((term) => terms.has(term))) return offset;
    offset += word.length + 1;
  }
  return offset;
}
