/**
 * What a header cell's words say its column holds: the questions ("Question", "Requirement",
 * "Control description", "Item", "Criteria"…), or something a question column never is — an
 * identifier ("Question ID", "Control #"), the answer or a reviewer's notes ("Response", "Reviewer
 * notes", "Evidence"), answer choices, or the section a row belongs to.
 */

/** Header words naming the question column, strongest first. */
const QUESTION_NAMES: Array<{ pattern: RegExp; weight: number }> = [
  { pattern: /^(questions?|question text|questions? \(.*\)|quer(y|ies))$/, weight: 4 },
  { pattern: /^questions?\b/, weight: 3.5 },
  { pattern: /\bquestions?$/, weight: 3.5 },
  {
    pattern:
      /^(requirements?|requirement (text|description|statement)|criteria|criterion|controls?|control (text|description|statement|objective|activity|requirement))$/,
    weight: 3,
  },
  { pattern: /^(description|items?|item description|ask|text|prompt|statement|topic description)$/, weight: 2.5 },
  { pattern: /\b(questions?|requirements?|criteria|criterion)\b/, weight: 2 },
  { pattern: /\b(description|control)\b/, weight: 1.5 },
];

export const CHOICES_HEADER =
  /^(choices|options|answer (choices|options)|allowed (values|answers)|possible answers|responses? options?)$/;
export const SECTION_HEADER =
  /^(section|section[ _]path|path|category|domain|area|topic|chapter|group|heading|control (family|domain|area)|family)$/;
/** Header cells that say "identifier", never the question itself ("Question ID", "Control #"). */
const IDENTIFIER_HEADER = /(^|\b)(id|ids|number|no|nr|#|ref|reference|key|index|seq|sequence)\.?$/;
/** Columns for the answer and what comes with it; they may hold sentences, but never the questions. */
const ANSWER_HEADER =
  /\b(answers?|responses?|reply|replies|comments?|notes?|remarks?|evidence|explanation|justification|status|owner|assignee|reviewer|date|yes|no|n\/?a|compliant|compliance|score|rating|weight|priority|references?|guidance|examples?|attachments?|documentation|link|mapping|maps? to|choices|options)\b/;

export function normalizeHeader(text: string): string {
  return text
    .toLowerCase()
    .replace(/[_\s]+/g, " ")
    .replace(/[:*]+$/, "")
    .trim();
}

/**
 * How strongly a header names the question column: above 1 when its words say so, 1 when it says
 * nothing either way (an empty cell, an unknown word), near 0 when it names another kind of column.
 */
export function questionHeaderWeight(header: string): number {
  const normalized = normalizeHeader(header);
  if (normalized === "") return 1;
  if (IDENTIFIER_HEADER.test(normalized)) return 0.05;
  const named = QUESTION_NAMES.find((entry) => entry.pattern.test(normalized));
  // "Questions (answer in column D)" names the questions; "Vendor response" the answers.
  if (named && named.weight >= 3.5) return named.weight;
  if (ANSWER_HEADER.test(normalized) || CHOICES_HEADER.test(normalized) || SECTION_HEADER.test(normalized)) return 0.05;
  return named ? named.weight : 1;
}

/** Whether the header's words name the question column (not merely leave it open). */
export function namesQuestionColumn(header: string): boolean {
  return questionHeaderWeight(header) > 1;
}
