/**
 * What a questionnaire cell's text is, judged from the text alone: an identifier ("Q1", "1.2.3",
 * "AC-2", "A.5.1", "1.a"), a single word, a column name, an instruction to the person filling it in,
 * or something that asks — a question, an imperative ("Describe …", "Provide …") or a requirement
 * sentence — and how strongly. find-header-row.ts and find-questions.ts decide from these which row is
 * the header, which column holds the questions and which rows are asked.
 */

/** Starts that ask without a question mark, or ask with one: imperatives and interrogatives. */
const ASKING_START =
  /^(?:[([]?[a-z0-9]{1,4}[.)\]:]\s+)?(?:if (?:yes|no|so|not|applicable)\b|to what extent|in what|describe|explain|list|provide|specify|state|indicate|confirm|attach|upload|detail|outline|identify|summari[sz]e|define|enumerate|please|do|does|did|is|are|was|were|has|have|had|can|could|will|would|should|shall|may|must|who|what|when|where|which|why|how)\b/i;

/** Text addressed to the person filling the form in, about the form itself. */
const INSTRUCTION_LEAD =
  /^(?:(?:instructions?|directions|note|notes|guidance|important)\s*[:—–-]|how to (?:complete|use|fill)\b)/i;
const INSTRUCTION_VERB =
  /\b(?:answer|answering|complete|completing|fill(?:ing)?(?:\s+(?:in|out))?|respond|return|submit|enter|select|mark|tick|use)\b/i;
const INSTRUCTION_OBJECT =
  /\b(?:questions?|questionnaire|(?:this|the|each|every) (?:form|sheet|tab|workbook|document|template|survey|row|item|field|section|cell)|(?:each|every|all) (?:rows?|questions?|items?|fields?|sections?|tabs?)|columns?|drop-?down|below|following|next (?:sheet|tab|page))\b/i;

export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Segments of an identifier without digits: one letter or a roman numeral, as in "a)", "(iv)", "B". */
const LETTER_ID = /^[([]?(?:[a-z]|[ivxlc]{1,5})[)\].:]?$/i;
/** A segment of an identifier with digits: "12", "AC", "Q1", "01a", "CC6". */
const ID_SEGMENT = /^(?:\d+|[a-z]{1,6}|[a-z]{1,4}\d+[a-z]?|\d+[a-z]{1,2})$/i;

/**
 * "Q1", "1.2.3", "AC-2", "AC-2(1)", "A.5.1", "ID.AM-1", "1.a", "CC6.1", "#12", "a)", "(iv)": one token
 * of short segments, at least one of them a number, or a single letter or roman numeral.
 */
export function isIdentifier(text: string): boolean {
  const trimmed = text
    .trim()
    .replace(/^(?:#|no\.?|nr\.?)\s*/i, "")
    .trim();
  if (trimmed === "" || trimmed.length > 24 || /\s/.test(trimmed)) return false;
  if (!/\d/.test(trimmed)) return LETTER_ID.test(trimmed);
  const segments = trimmed.split(/[.\-_()/:[\]]+/).filter(Boolean);
  return segments.length > 0 && segments.every((segment) => ID_SEGMENT.test(segment));
}

/** One word, punctuation aside ("Encryption", "N/A", "Yes/No", "Comments:"). */
export function isSingleWord(text: string): boolean {
  return wordCount(text.replace(/[^\p{L}\p{N}\s/'-]+/gu, " ")) <= 1;
}

export function asks(text: string): boolean {
  return text.includes("?") || ASKING_START.test(text.trim());
}

/** "Please answer every question", "Instructions: complete each row": about the form, not a question. */
export function isInstruction(text: string): boolean {
  const trimmed = text.trim();
  // "Notes" or "Instructions" alone is a column name; an instruction says something.
  if (trimmed.endsWith("?") || wordCount(trimmed) < 4) return false;
  return INSTRUCTION_LEAD.test(trimmed) || (INSTRUCTION_VERB.test(trimmed) && INSTRUCTION_OBJECT.test(trimmed));
}

/** Why a text is no question at all, or null when it could be one. */
export function notQuestionReason(text: string): "empty" | "identifier" | "single_word" | null {
  const trimmed = text.trim();
  if (trimmed === "" || !/\p{L}/u.test(trimmed)) return trimmed === "" ? "empty" : "identifier";
  if (isIdentifier(trimmed)) return "identifier";
  if (isSingleWord(trimmed)) return "single_word";
  return null;
}

/**
 * How much a cell looks like a question: 0 for no question (empty, an identifier, one word); a phrase
 * of a few words a little; a sentence (a requirement, "The vendor shall …") more; text that asks — a
 * question mark, an imperative or interrogative start — most. Longer texts weigh more, so the column
 * holding the longest question-like texts wins.
 */
export function questionLikeness(text: string): number {
  const trimmed = text.trim();
  if (notQuestionReason(trimmed) !== null) return 0;
  const words = Math.min(wordCount(trimmed), 40);
  if (asks(trimmed)) return 2 + words / 10;
  if (words >= 5) return 1 + words / 20;
  return 0.25;
}

/**
 * A cell a header row holds: a short label — a few words, no question mark, no sentence, no
 * identifier, no form prompt waiting for a value ("Vendor name:").
 */
export function isColumnLabel(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === "" || !/\p{L}/u.test(trimmed)) return false;
  if (trimmed.length > 60 || wordCount(trimmed) > 6) return false;
  if (trimmed.includes("?") || trimmed.endsWith(":") || isIdentifier(trimmed)) return false;
  // A label ends without a full stop ("No." and "Ref." are abbreviations, short enough to pass).
  if (/[.!]$/.test(trimmed) && trimmed.length > 6) return false;
  return !isInstruction(trimmed);
}
