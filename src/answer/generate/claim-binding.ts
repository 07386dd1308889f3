/**
 * What a part of a claim is said of. A number, a year or a name that a source prints is only evidence
 * when the source prints it of the same thing: "the Berlin office has 40 employees" is not supported by
 * "the Paris office has 40 employees and the Berlin office has 25", nor "the 2024 budget" by a budget of
 * 2023 in a passage that mentions 2024 elsewhere, nor "30 years" by "30 days". These helpers give the
 * part of a source passage a printed value belongs to — its clause, or in a table row its row label and
 * cell ("Net sales; 2018: $ 32,765" for 32,765) — and the negations a clause carries, so the claim check
 * (claim-check.ts) can hold each part of a sentence to what it qualifies.
 */
import { analyzeText } from "../../retrieval/text-analyzer.js";
import type { Span } from "./claim-extraction.js";

/** Where one clause of a source passage ends and the next begins (as claim-extraction.ts splits a claim). */
const CLAUSE_BREAK =
  /\s*(?:[,;—–]\s*|\s-\s)?\b(?:and|but|after|before|including|which|while|whereas|because|as well as|then|except|unless|provided that)\b\s*|\s*;\s*|\s+[—–]\s+/giu;

/** A table row as the sources quote it: "Label; 2018: $ 32,765; 2017: $ 31,657". */
const ROW_CELL = /^[^:;]{1,80}:\s*\S/u;

/** Fewest content terms a source clause stands on alone; a shorter one ("6 hours") joins the clause before it. */
const MIN_CLAUSE_TERMS = 2;

/** The clauses of a passage with their spans, short ones joined to the clause before. */
export function clauseSpans(passage: string): Array<Span & { text: string }> {
  const spans: Span[] = [];
  let start = 0;
  for (const match of passage.matchAll(CLAUSE_BREAK)) {
    if (match.index > start) spans.push({ start, end: match.index });
    start = match.index + match[0].length;
  }
  if (start < passage.length) spans.push({ start, end: passage.length });
  const joined: Span[] = [];
  for (const span of spans) {
    const previous = joined.at(-1);
    const terms = analyzeText(passage.slice(span.start, span.end)).filter((term) => !/^\d/.test(term));
    if (previous && terms.length < MIN_CLAUSE_TERMS) previous.end = span.end;
    else joined.push({ ...span });
  }
  return joined.map((span) => ({ ...span, text: passage.slice(span.start, span.end) }));
}

/** Whether a passage is a table row quoted as "label; column: value; column: value". */
function isRow(passage: string): boolean {
  const cells = passage.split(";").map((cell) => cell.trim());
  if (cells.length < 2) return false;
  const labelled = cells.slice(1).filter((cell) => ROW_CELL.test(cell)).length;
  return labelled >= Math.ceil((cells.length - 1) / 2);
}

/**
 * The part of a passage a value at `position` is said of: in a table row its row label and its cell,
 * in prose its clause.
 */
export function partAround(passage: string, position: number): string {
  if (isRow(passage)) {
    const label = passage.split(";")[0] ?? "";
    const cellStart = passage.lastIndexOf(";", position) + 1;
    const cellEnd = passage.indexOf(";", position);
    const cell = passage.slice(cellStart, cellEnd < 0 ? passage.length : cellEnd);
    return cellStart === 0 ? cell : `${label}; ${cell}`;
  }
  const clause = clauseSpans(passage).find((span) => position >= span.start && position < span.end);
  return clause?.text ?? passage;
}

/**
 * Limits and comparisons written with a negative word ("no more than", "not later than", "not only")
 * state no negation of the claim: left out when negations are counted.
 */
const BOUND_PHRASES =
  /\b(?:no|not)\s+(?:more|less|later|earlier|fewer|greater|longer|shorter|sooner)\s+than\b|\bnot\s+only\b|\bnot\s+exceed\w*|\bnot\s+to\s+exceed\b/giu;
/** A verdict that opens an answer ("No, …", "Yes.") is the answer to the question, not the clause's polarity. */
const VERDICT = /^\s*(?:yes|no)\s*[,.!:;]\s*/iu;
const NEGATIONS =
  /\b(?:not|no|never|none|nor|neither|nothing|nobody|cannot|without|exclud\w*|prohibit\w*|forbid\w*|ineligible|unable)\b|n[’']t\b/giu;

/** How many negations a clause states; only its parity is compared. */
export function negationCount(clause: string): number {
  const text = clause.replace(VERDICT, "").replace(BOUND_PHRASES, " ");
  return [...text.matchAll(NEGATIONS)].length;
}
