/**
 * What kind of answer a question asks for, read from its form: a length of time ("how long", "how far
 * ahead", "how fast"), how often, an amount of money, a count or quantity (with the unit it names: "how
 * many days", "how much vacation time"), a date, a person or role ("who"), a place ("where"), an
 * identifier ("which Tock line"), steps to take ("how do I", "what should I do"), what happens ("what
 * happens if"), a definition, a list, a verdict (yes/no) or a reason. The answer readers prefer a sentence
 * that holds an expression of that kind (answer-expressions.ts). The rules read English question shapes;
 * they hold no words of any one document.
 */

export type AskedAnswerKind =
  | "duration"
  | "frequency"
  | "money"
  | "quantity"
  | "date"
  | "person"
  | "place"
  | "identifier"
  | "steps"
  | "consequence"
  | "definition"
  | "list"
  | "verdict"
  | "reason"
  | "any";

export type AskedAnswer = {
  kind: AskedAnswerKind;
  /** The unit a count or quantity is asked in ("day" for "how many days"), singular; null when none. */
  unit: string | null;
};

/** Units of time, singular, as a question or a sentence names them. */
export const TIME_UNITS = ["minute", "hour", "day", "week", "month", "year", "pay period"] as const;

const UNIT_WORDS =
  /\b(minutes?|hours?|days?|weeks?|months?|years?|pay\s+periods?|characters?|digits?|dollars?|percent|times|people|employees|credits?|points?|pages?)\b/i;

/** A question's clauses, for questions written after a sentence of context ("I'm in the Reserves. How many …?"). */
function askingClause(question: string): string {
  const sentences = question.split(/(?<=[.?!])\s+/);
  return sentences.find((sentence) => sentence.trim().endsWith("?")) ?? question;
}

function singular(unit: string): string {
  const lower = unit.toLowerCase().replace(/\s+/g, " ");
  if (lower === "times" || lower === "people" || lower === "employees") return lower;
  return lower.replace(/s$/, "");
}

const ASKED_FORMS: ReadonlyArray<[RegExp, AskedAnswerKind]> = [
  [/^\s*why\b|\breasons?\s+(?:for|why)\b/i, "reason"],
  // "How long does my passcode have to be?" asks a size, which any number may state, a duration among them.
  [
    /\bhow\s+(?:long|short|big|large)\b.*\b(?:have\s+to|has\s+to|must|should|need\s+to|needs\s+to|can)\s+be\s*\?\s*$/i,
    "quantity",
  ],
  [/\bhow\s+(?:often|frequently)\b|\bhow\s+many\s+times\b/i, "frequency"],
  [
    /\bhow\s+(?:long|far\s+(?:ahead|out|in\s+advance|back)|soon|quickly|fast|early|late|far)\b|\bwithin\s+how\b|\bby\s+when\b|\bhow\s+much\s+(?:time|notice|advance)\b|\bhow\s+many\s+(?:minutes|hours|days|weeks|months|years|business\s+days)\s+(?:ahead|before|in\s+advance|notice|after|do\s+i\s+have\s+to)\b/i,
    "duration",
  ],
  [
    /\b(?:what|which)\s+(?:dollar\s+)?(?:amount|salary|price|cost|limit|threshold)\b|\bhow\s+much\s+(?:money|does\s+\w+\s+cost|is\s+the|can\s+i\s+(?:spend|expense|claim))|\bup\s+to\s+what\b|\bwhat\s+dollar\b|\bhow\s+much\s+(?:will|do|does|can)\s+\w+\s+(?:reimburse|pay|cover|match)\b/i,
    "money",
  ],
  [
    /\bhow\s+(?:much|many)\b|\bwhat(?:'s|\s+is)\s+the\s+(?:max(?:imum)?|min(?:imum)?|most|least|limit|cap)\b|\bnumber\s+of\b/i,
    "quantity",
  ],
  [/^\s*when\b|\bwhat\s+(?:date|day|time|month|deadline)\b|\bdeadline\b|\bdue\s+date\b/i, "date"],
  [
    /^\s*(?:who|whom)\b|\bwho\s+(?:do|does|should|can|must|has|approves|signs)\b|\bwhich\s+(?:person|team|office|people|email)\b|\bwhat\s+email\b|\bwho\s+(?:exactly|else)\b/i,
    "person",
  ],
  [/^\s*where\b|\bwhere\s+(?:do|can|should|is|are)\b|\bwhat\s+(?:website|site|url|link|channel|page)\b/i, "place"],
  [
    /\bwhich\s+[\p{L}-]+\s+(?:line|number|code|account|form|category|project)\b|\bwhat\s+(?:line|number|code|form)\b/iu,
    "identifier",
  ],
  [
    /\bwhat\s+happens\b|\bwhat\s+(?:are|is)\s+the\s+consequences?\b|\bwhat\s+if\s+i\s+(?:don't|do\s+not|miss|forget|lose)\b/i,
    "consequence",
  ],
  [
    /\bhow\s+(?:do|can|should|would)\s+(?:i|we|you)\b|\bwhat\s+(?:do|should|must)\s+(?:i|we)\s+do\b|\bwhat\s+(?:are\s+the\s+)?steps\b|\bhow\s+to\b|\bwhat(?:'s|\s+is)\s+the\s+(?:process|procedure)\b/i,
    "steps",
  ],
  [
    /\bwhat\s+(?:kinds?|types?|sorts?)\s+of\b|\bwhat\s+(?:does|do|should|must)\s+.+\s+(?:include|contain|cover|list)\b|\bwhat\s+(?:do|does)\s+(?:i|we|you)\s+need\s+(?:to|for)\b|\bwhat\s+should\s+i\s+(?:take\s+care|bring|prepare|know)\b|\bwhat\s+(?:are|were)\s+the\s+(?:requirements|options|rules|steps|ways)\b/i,
    "list",
  ],
  [
    // "What's an SF-182?", "What is cloud computing according to NIST?" — not "What's the award for a Level 5
    // rating?", which asks for a value of something the question names.
    /^\s*(?:what(?:'s|\s+is|\s+are)\s+(?!the\b)(?:an?\s+)?['"‘“]?(?:(?!\s(?:for|of|in|on|at|with|under|after|before)\s)[^?]){1,50}\??\s*$|what\s+does\s+.+\s+(?:mean|stand\s+for)\b|define\b|what\s+is\s+meant\s+by\b|what\s+counts\s+as\b)/i,
    "definition",
  ],
  [/^\s*(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should|may|must|am)\b/i, "verdict"],
];

export function askedAnswer(question: string): AskedAnswer {
  const clause = askingClause(question);
  const kind = ASKED_FORMS.find(([form]) => form.test(clause))?.[1] ?? "any";
  const unitMatch = /\bhow\s+(?:much|many)\s+(?:[\p{L}-]+\s+){0,2}?/iu.test(clause) ? UNIT_WORDS.exec(clause) : null;
  // "How much vacation time / leave": leave and time are given in hours or days.
  const unit =
    unitMatch !== null
      ? singular(unitMatch[1] as string)
      : kind === "quantity" && /\b(?:leave|time\s+off|vacation|pto)\b/i.test(clause)
        ? "time"
        : null;
  return { kind, unit };
}

/** "In 2019, why did the gross margin decrease?": a reason is asked, wherever "why" stands; no figure answers it. */
const ASKS_WHY = /\bwhy\b|\breasons?\s+(?:for|behind|why)\b/i;

export function asksWhy(question: string): boolean {
  return ASKS_WHY.test(question);
}
