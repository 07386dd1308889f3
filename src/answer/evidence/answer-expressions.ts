/**
 * Whether a text holds an expression of the kind a question asks for (asked-answer.ts): a length of
 * time ("within one hour", "15 or more days in advance"), a frequency ("every 90 days"), an amount of
 * money, a quantity in the asked unit ("14 characters", "4 hours"), a date, a role or address, a place,
 * an identifier ("#670"), a step to take, a consequence, a definition or a verdict. And the quantities a
 * text states with their bounds ("fewer than 3 years", "more than $2,500", "15+ years"), so a rule whose
 * condition holds for the asker's case is told from one whose condition does not. Pure text rules.
 */
import type { AskedAnswer } from "../question/asked-answer.js";
import { NUMBER_WORDS } from "./number-words.js";

/** Number words as the expressions read them: "a day" is one day, "hundred" a number. */
const SPELLED: Record<string, number> = { ...NUMBER_WORDS, a: 1, an: 1, hundred: 100 };

const NUMBER = String.raw`(?:\$\s?)?\d[\d,]*(?:\.\d+)?|\b(?:${Object.keys(SPELLED).join("|")})\b`;
const TIME_UNIT = String.raw`(?:business\s+|working\s+|calendar\s+|work\s+)?(?:minutes?|hours?|days?|weeks?|months?|years?|pay\s+periods?)\b`;

const DURATION = new RegExp(
  String.raw`(?:${NUMBER})(?:\s*(?:-|–|to|or|and)\s*(?:${NUMBER}))?[\s-]*\+?\s*(?:or\s+more\s+|or\s+fewer\s+)?(?:full\s+)?${TIME_UNIT}|\b(?:immediately|right\s+away|as\s+soon\s+as|same\s+day|next\s+(?:business\s+)?day|in\s+advance|ahead\s+of\s+time)\b`,
  "i",
);
const FREQUENCY =
  /\bevery\s+(?:\d+|other|two|three|four|six|twelve|ninety|thirty)?\s*(?:minutes?|hours?|days?|weeks?|months?|years?|pay\s+periods?|quarters?)\b|\b(?:daily|weekly|monthly|annually|yearly|quarterly|bi-?weekly|semi-?annually)\b|\bonce\s+(?:a|per|every)\b|\b(?:per|each|a)\s+(?:day|week|month|year|pay\s+period|quarter)\b|\b\d+\s+times\b|\bthereafter\b/i;
const MONEY = /\$\s?\d|\b\d[\d,.]*\s*(?:dollars|usd)\b/i;
const DATE =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?\s*\d{0,2}|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|\b\d{1,2}\/\d{1,2}(?:\/\d{2,4})?\b|\b(?:by|before|after|until|no\s+later\s+than)\s+(?:the\s+)?(?:end|start|beginning|close)\b|\bdeadline\b|\bdue\b|\bend\s+of\s+(?:the\s+)?(?:year|month|quarter|cycle|period|fiscal)\b/i;
const PERSON =
  /\b(?:Mr|Ms|Mrs|Dr)\.?\s+\p{Lu}|\b\p{Lu}\p{Ll}+\s+(?:\p{Lu}\.\s+)?\p{Lu}\p{Ll}+,\s+(?:the\s+)?(?:chair|chief|president|director|officer|head|vice)|\b(?:supervisors?|managers?|directors?|lead|leads|team|teams|office|specialists?|officers?|desk|officials?|coordinators?|administrators?|staff|representatives?|advisors?|counselors?|hr|human\s+resources|peopleops|people\s+ops|ops|division|department|chief|head\s+of|approver|approvers|contracting|agency|you)\b|[\w.+-]+@[\w-]+\.[\w.]+/iu;
const PLACE =
  /https?:\/\/|\bwww\.|[\w.+-]+@[\w-]+\.[\w.]+|(?:^|\s)#[a-z][\w-]+|\b(?:go\s+to|visit|head\s+to|open|log\s+in(?:to)?|sign\s+in(?:to)?|through|via|in|on|at)\s+(?:the\s+)?\p{Lu}[\p{L}\p{N}]+/iu;
const IDENTIFIER = /#\s?\d+|\b\d{3,}\b|\b[A-Z]{1,5}-\d+\b|\b(?:line|number|code|form)\s+#?\w*\d/;
/** Common English verbs a step opens with, as an instruction ("Send an email …", "Go to …"). */
const IMPERATIVE =
  /^(?:\d{1,2}[.)]\s*)?(?:please\s+)?(?:go|submit|send|email|e-mail|contact|fill|complete|request|create|open|click|use|ask|reach|head|notify|report|follow|call|visit|select|enter|sign|log|check|make|take|read|review|talk|tell|let|post|file|upload|download|install|find|add|remove|change|update|set|get|keep|save|print|bring|return|apply|register|schedule|book|include|attach|do|don't|never|always|be|try|see|start|choose|consult|speak|write|wait|turn|shut|leave|stop|reset|lock|type|search|message|ping|inform|alert|revoke|rotate|delete|disconnect|document|confirm|verify|note|provide|obtain|work|coordinate|discuss|plan|mark|record|enter)\b/i;
const OBLIGATION =
  /\byou(?:['’]ll|\s+will)?\s+(?:can|should|must|may|need\s+to|have\s+to|will\s+need\s+to|are\s+(?:required|expected|asked)\s+to)\b|\b(?:is|are)\s+required\b|\bmust\b/i;
const CONSEQUENCE =
  /\b(?:will|may|would|could)\s+(?:be|result|lead|have|not|lose|need|cause|get|receive)\b|\bresults?\s+in\b|\botherwise\b|\bfailure\s+to\b|\bif\s+you\s+(?:do\s+not|don['’]t|fail|miss|lose)\b|\bwithheld\b|\bforfeit/i;
const DEFINING =
  /\b(?:is|are)\s+defined\s+as\b|\bdefined\s+as\b|(?<!\b(?:a|the|any|by|other)\s)\bmeans\b|\brefers?\s+to\b|\bstands?\s+for\b|\b(?:is|are)\s+(?:a|an|the|any|when|where|used|considered)\b|\bincludes?\b|\bconsists?\s+of\b/i;
/** A statement that can decide a yes/no question: a modal, a negation, or any finite verb ("was ratified"). */
const VERDICT =
  /\b(?:yes|no|not|never|cannot|can['’]t|don['’]t|doesn['’]t|do\s+not|does\s+not|must|may|can|required|allowed|permitted|considered|need|only|always|is|are|was|were|has|have|had|does|do|did|will|shall|should|\w{3,}ed|\w{3,}s)\b/i;

/** How well a text holds the kind of answer asked: 1 the kind itself (in the asked unit), 0.5 a near kind, 0 none. */
export function expressionFit(text: string, asked: AskedAnswer, isItem = false): number {
  switch (asked.kind) {
    case "duration":
      return DURATION.test(text) ? 1 : FREQUENCY.test(text) ? 0.5 : 0;
    case "frequency":
      return FREQUENCY.test(text) ? 1 : DURATION.test(text) ? 0.5 : 0;
    case "money":
      return MONEY.test(text) ? 1 : statedQuantities(text).length > 0 ? 0.3 : 0;
    case "quantity":
      return quantityFit(text, asked.unit);
    case "date":
      return DATE.test(text) ? 1 : DURATION.test(text) ? 0.5 : 0;
    case "person":
      return PERSON.test(text) ? 1 : 0;
    case "place":
      return PLACE.test(text) ? 1 : 0;
    case "identifier":
      return IDENTIFIER.test(text) ? 1 : 0;
    case "steps":
      return IMPERATIVE.test(text.trim()) || isItem ? 1 : OBLIGATION.test(text) ? 0.7 : 0;
    case "consequence":
      return CONSEQUENCE.test(text) ? 1 : OBLIGATION.test(text) ? 0.5 : 0;
    case "definition":
      return DEFINING.test(text) ? 1 : 0;
    case "list":
      return isItem ? 1 : /:\s*$/.test(text.trim()) ? 0.7 : 0;
    case "verdict":
      return VERDICT.test(text) ? 1 : 0;
    case "reason":
      return /\b(?:because|due\s+to|since|so\s+that|in\s+order\s+to|as\s+a\s+result|the\s+reason|to\s+(?:ensure|make\s+sure|protect|avoid|prevent))\b/i.test(
        text,
      )
        ? 1
        : 0;
    default:
      return 0;
  }
}

/** A number in the asked unit (any time unit for "time"); any number that is not a year when no unit is named. */
function quantityFit(text: string, unit: string | null): number {
  if (unit === "time") return DURATION.test(text) ? 1 : 0;
  const quantities = statedQuantities(text);
  if (unit === null) return quantities.some((quantity) => !quantity.year) ? 1 : 0;
  if (unit === "dollar") return MONEY.test(text) ? 1 : 0;
  if (quantities.some((quantity) => quantity.unit === unit)) return 1;
  return quantities.some((quantity) => !quantity.year) ? 0.4 : 0;
}

/** A quantity a text states, with the bound it is given ("fewer than 3 years": below 3 years). */
export type StatedQuantity = {
  low: number;
  high: number;
  /** Singular unit ("year", "hour", "$" for money), or "" when none follows. */
  unit: string;
  /** A bare 1900–2099 integer. */
  year: boolean;
};

const BELOW =
  /\b(?:fewer\s+than|less\s+than|under|below|up\s+to|no\s+more\s+than|at\s+most|not\s+more\s+than|maximum\s+of|max(?:imum)?)\s*$/i;
const ABOVE =
  /\b(?:more\s+than|over|greater\s+than|above|longer\s+than|exceeds?|exceeding|at\s+least|minimum\s+of|beyond|past|pass(?:ed)?|after)\s*$/i;
const QUANTITY = new RegExp(
  String.raw`(${NUMBER})(?:\s*(?:-|–|to|and)\s*(${NUMBER}))?\s*(\+)?\s*(?:or\s+(more|fewer|less|longer))?[\s-]*((?:business\s+|working\s+|calendar\s+)?(?:minutes?|hours?|days?|weeks?|months?|years?|pay\s+periods?|characters?|digits?|percent|people|employees|times)\b)?`,
  "gi",
);

function numberValue(text: string): number {
  const word = SPELLED[text.toLowerCase()];
  if (word !== undefined) return word;
  return Number(text.replace(/[$,\s]/g, ""));
}

function unitOf(raw: string | undefined, money: boolean): string {
  if (money) return "$";
  if (raw === undefined) return "";
  const unit = raw
    .toLowerCase()
    .replace(/^(?:business|working|calendar)\s+/, "")
    .replace(/\s+/g, " ");
  return unit === "people" || unit === "employees" ? unit : unit.replace(/s$/, "");
}

/** The quantities a text states with their bounds, in order. "a"/"an" count only before a unit ("an hour"). */
export function statedQuantities(text: string): StatedQuantity[] {
  const quantities: StatedQuantity[] = [];
  for (const match of text.matchAll(QUANTITY)) {
    const [whole, first, second, plus, orMore, rawUnit] = match;
    if (first === undefined) continue;
    const isWord = /^[a-z]/i.test(first);
    if (isWord && rawUnit === undefined) continue;
    const money = first.includes("$");
    const value = numberValue(first);
    if (!Number.isFinite(value)) continue;
    const before = text.slice(Math.max(0, (match.index ?? 0) - 24), match.index);
    const upper = second === undefined ? value : numberValue(second);
    let low = value;
    let high = Number.isFinite(upper) ? upper : value;
    if (plus !== undefined || orMore === "more" || orMore === "longer" || ABOVE.test(before))
      high = Number.POSITIVE_INFINITY;
    else if (orMore === "fewer" || orMore === "less" || BELOW.test(before)) low = Number.NEGATIVE_INFINITY;
    const bare = whole.trim();
    quantities.push({
      low,
      high,
      unit: unitOf(rawUnit, money),
      year: !money && rawUnit === undefined && /^(?:19|20)\d{2}$/.test(bare),
    });
  }
  return quantities;
}

const DAYS_PER_UNIT: Record<string, number> = {
  minute: 1 / 1440,
  hour: 1 / 24,
  day: 1,
  week: 7,
  "pay period": 14,
  month: 30,
  year: 365,
};

/** A quantity in days when its unit is one of time, so "two months" can meet "120 days"; else as stated. */
function comparable(quantity: StatedQuantity): StatedQuantity {
  const factor = DAYS_PER_UNIT[quantity.unit];
  return factor === undefined
    ? quantity
    : { ...quantity, low: quantity.low * factor, high: quantity.high * factor, unit: "day" };
}

/**
 * Whether a text's stated conditions hold for the asker's case: +1 when a quantity the text bounds in the
 * question's unit contains the question's ("fewer than 3 years" for "about 2 years"), -1 when every such
 * bound excludes it ("15+ years" for "about 2 years"), 0 when the text bounds nothing in that unit.
 * A question's "over $2,500" is a point just above 2,500, so "more than $2,500" holds and "less than" does not.
 */
export function conditionFit(question: readonly StatedQuantity[], text: string): number {
  const asked = question.filter((quantity) => quantity.unit !== "" && !quantity.year).map(comparable);
  if (asked.length === 0) return 0;
  const bounds = statedQuantities(text)
    .map(comparable)
    .filter((quantity) => quantity.low !== quantity.high);
  let verdict = 0;
  for (const point of asked) {
    const value =
      point.high === Number.POSITIVE_INFINITY
        ? point.low + Math.max(1e-6, Math.abs(point.low) * 1e-6)
        : point.low === Number.NEGATIVE_INFINITY
          ? point.high - Math.max(1e-6, Math.abs(point.high) * 1e-6)
          : point.low;
    const sameUnit = bounds.filter((bound) => bound.unit === point.unit);
    if (sameUnit.length === 0) continue;
    if (sameUnit.some((bound) => value >= bound.low && value <= bound.high)) return 1;
    verdict = -1;
  }
  return verdict;
}
