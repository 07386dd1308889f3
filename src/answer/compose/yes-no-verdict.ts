/**
 * Whether the sentence that decides a yes/no question says yes or no: "No" when it negates what the
 * question asks ("Practice Tips … are not considered mandatory") or moves the other way ("Did it raise
 * its dividend?" — "… reduced its quarterly dividend"); "Yes" when it states it plainly; no verdict
 * when it only expects, plans or hedges ("expects to close the sale in the fourth quarter"), or tells
 * how things were before ("was originally provided as a spreadsheet": whether they still are is the
 * question), so the sentence is quoted without one. Pure: question and sentence in, verdict out.
 */
import { analyzeText } from "../../retrieval/text-analyzer.js";

export type Verdict = "yes" | "no" | null;

const NEGATION =
  /\b(?:not|no|never|none|neither|nor|cannot|without|excluded?|excluding|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|hasn't|haven't|won't)\b|n['’]t\b/i;
/** A sentence about what may yet happen decides nothing about what did. */
const HEDGE =
  /\b(?:expects?|expected|plans?|planned|intends?|anticipates?|anticipated|may|might|could|would|if|whether|subject\s+to|pending|proposed|seeks?|aims?|hopes?|targets?|will\s+be\s+required)\b/i;
/** A sentence about how things were decides nothing about how they are now. */
const FORMER_STATE = /\b(?:originally|previously|formerly|initially|used\s+to|at\s+first|at\s+one\s+time)\b/i;

const UP = new Set(
  analyzeText(
    "raise raised raises increase increased increases grow grew grown growth rise rose higher improve improved exceed exceeded beat boost boosted expand expanded up more",
  ),
);
const DOWN = new Set(
  analyzeText(
    "lower lowered reduce reduced reduction cut cuts decrease decreased decline declined fall fell drop dropped shrink shrank miss missed down less suspend suspended eliminate eliminated",
  ),
);

/**
 * A verdict is read from a sentence, never from a run of table cells a PDF left as text ("Layoff
 * Permanent 12/31/2015 11/09/2015 Boeing Company Long Beach 1 Layoff Unknown…"): one with a verb and
 * more words than figures and dates.
 */
function readsAsSentence(text: string): boolean {
  const words = text.split(/\s+/).filter(Boolean);
  const figures = words.filter((word) => /\d/.test(word)).length;
  const verb =
    /\b(?:is|are|was|were|be|been|has|have|had|does|do|did|will|shall|can|may|must|includes?|covers?|provides?|requires?|applies|offers?|pays?|paid|completed|closed|raised|increased|reduced|declared|approved|ratified)\b|\w+ed\b/i;
  return verb.test(text) && figures * 4 < words.length;
}

function direction(terms: readonly string[]): "up" | "down" | null {
  const up = terms.some((term) => UP.has(term));
  const down = terms.some((term) => DOWN.has(term));
  return up === down ? null : up ? "up" : "down";
}

/**
 * The verdict of `sentence` on `question`, whose content words (`askedTerms`, names left out) it was
 * chosen for. A negation counts only near the words the two share, so "not" in another clause does not
 * turn a yes into a no.
 */
export function yesNoVerdict(question: string, sentence: string, askedTerms: ReadonlySet<string>): Verdict {
  if (HEDGE.test(sentence) || FORMER_STATE.test(sentence) || !readsAsSentence(sentence)) return null;
  const words = sentence.split(/\s+/);
  const matchedAt = words
    .map((word, index) => ({ index, terms: analyzeText(word) }))
    .filter((entry) => entry.terms.some((term) => askedTerms.has(term)))
    .map((entry) => entry.index);
  if (matchedAt.length === 0) return null;
  const from = Math.max(0, Math.min(...matchedAt) - 4);
  const to = Math.min(words.length, Math.max(...matchedAt) + 3);
  const negated = NEGATION.test(words.slice(from, to).join(" "));
  const asked = direction(analyzeText(question));
  const stated = direction(analyzeText(sentence));
  const contrary = asked !== null && stated !== null && asked !== stated;
  // "Isn't X covered?" asks the same as "Is X covered?": the verdict is about the fact, not the phrasing.
  return negated !== contrary ? "no" : "yes";
}

/** "Yes," or "No," to put in front of a deciding text when it states the verdict plainly; "" when it hedges. */
export function verdictLead(question: string, text: string, askedTerms: ReadonlySet<string>): string {
  const verdict = yesNoVerdict(question, text, askedTerms);
  return verdict === null ? "" : verdict === "yes" ? "Yes," : "No,";
}
