/**
 * Reads what a question asks of a table: the operation (a value, the change or percentage change
 * between two periods, an average, a sum, the difference or ratio of two items, the period in which an
 * item was highest or lowest, a count, several values), the periods it names, and its measure words with
 * their places, so the rows and columns they name can be found (table-operands.ts). The rules read the
 * shape of English questions about figures; they hold no list of line items.
 */
import { analyzeText } from "../../../retrieval/text-analyzer.js";
import { type PeriodMention, periodMentions } from "./period-mentions.js";

export type TableOperation =
  | "lookup"
  | "values"
  | "change"
  | "percentChange"
  | "average"
  | "sum"
  | "difference"
  | "ratio"
  | "whichPeriod"
  | "countPeriods"
  | "countItems"
  | "whichItem"
  | "listPeriods"
  | "listItems";

export type QuestionTerm = { term: string; start: number; end: number; word: string };

export type TableQuestion = {
  operation: TableOperation;
  periods: PeriodMention[];
  /** The question's measure words, analyzed, in order (question and operation words left out). */
  terms: QuestionTerm[];
  /** whichPeriod: the highest or the lowest; countPeriods: above or below the threshold. */
  extreme: "max" | "min" | null;
  /** countPeriods: the threshold, as written. */
  threshold: { value: number; scale: number; text: string } | null;
  /** ratio: "as a percentage of", "what percentage": the answer is a percentage. */
  asPercent: boolean;
  /** ratio: the first item named is the denominator ("What percentage of revenue was X?"). */
  denominatorFirst: boolean;
  /** The words that name the operation, so a row label that holds them ("Net change in cash") can reclaim them. */
  operationWords: Set<string>;
  /** Where the words that decided the operation stand; null for a lookup. */
  cue: OperationCue | null;
  /** Operation words already reclaimed by a row label. */
  masked: readonly OperationCue[];
  /** The question as asked. */
  text: string;
  /** "from 2017 to 2019", "2020-2024", "between 2017 and 2019": every period between the two named. */
  range: boolean;
};

/** Words every figure question uses that name no row or column. */
const QUESTION_WORDS = new Set(
  analyzeText(
    "what which who whom whose when where why how much many is are was were be been being do does did has have had the a an of in on at for from to by with between and or as than that this these those its it their there amount amounts value values figure figures number company company's group group's year years fiscal period periods respectively respective what's please during end ended ending year-end as compared compare comparison table shown given listed provided both all each",
  ),
);

const PERCENT_CHANGE =
  /\b(?:percent(?:age)?|%)\s*(?:change|increase|decrease|growth|decline|rise|fall|drop|movement|variance)\b|\bgrowth\s+rate\b|\brate\s+of\s+(?:change|growth|increase|decrease|decline)\b|\bby\s+what\s+(?:percent(?:age)?|%)\b|\b(?:change|increase|decrease|growth|decline)\s+(?:in\s+)?(?:percent(?:age)?|%)\b|%\s*change/i;
const AVERAGE = /\baverage\b|\bmean\b/i;
const CHANGE =
  /\b(?:change[sd]?|increase[sd]?|decrease[sd]?|difference|differ|growth|grew|grow|decline[sd]?|variance|movement|rise|rose|fell|fall|drop(?:ped)?)\b|\bhow\s+much\s+(?:more|less|higher|lower|larger|smaller|greater|bigger)\b|\b(?:more|less|higher|lower|larger|smaller|greater)\s+than\b/i;
const RATIO =
  /\bratio\b|\bproportion\b|\bas\s+an?\s+(?:percent(?:age)?|%|proportion|ratio|share|fraction)\s+of\b|\b(?:percent(?:age)?|%|share|fraction|portion)\s+of\b|\bwhat\s+percent(?:age)?\b|\bconstitut|\baccount(?:ed|s)?\s+for\b/i;
const SUM = /\b(?:sum|total|combined|aggregate|altogether|together|add(?:ed)?\s+up)\b/i;
const WHICH_PERIOD =
  /\b(?:which|what)\s+(?:fiscal\s+)?(?:year|period|quarter|month|date)s?\b|\bwhen\s+(?:was|were|did)\b.*\b(?:highest|lowest|largest|smallest|most|least|greatest|higher|lower|larger|smaller|greater)\b/i;
const MAXIMUM =
  /\b(?:high|higher|highest|large|larger|largest|great|greater|greatest|big|bigger|biggest|more|most|maximum|max|peak|increase[sd]?|best|top)\b/i;
const MINIMUM =
  /\b(?:low|lower|lowest|small|smaller|smallest|less|least|fewer|fewest|minimum|min|decrease[sd]?|worst)\b/i;
const COUNT = /\bhow\s+many\b/i;
const COUNT_PERIODS = /\bhow\s+many\s+(?:of\s+the\s+)?(?:fiscal\s+)?(?:years|periods|quarters|months|times)\b/i;
const COUNT_ITEMS =
  /\bhow\s+many\s+(?:(?:different|major|main|key|financial|separate)\s+)*(?:types|kinds|categories|components|items|classes|segments|line\s+items|elements|sources|groups|parts|regions|divisions|services|products|assumptions|factors|entries)\b/i;
const ABOVE =
  /\b(?:exceed(?:ed|s)?|above|over|more\s+than|greater\s+than|higher\s+than|at\s+least|larger\s+than|in\s+excess\s+of)\b/i;
const BELOW = /\b(?:below|under|less\s+than|lower\s+than|fewer\s+than|smaller\s+than|at\s+most)\b/i;
const RESPECTIVE = /\brespective(?:ly)?\b|\beach\s+of\b/i;
/** "Which contractual obligation has the highest total value?": a row, not a period, is asked for. */
const WHICH_ITEM =
  /^\s*(?:in\s+\S+,?\s+)?(?:which|what)\s+(?!(?:fiscal\s+)?(?:year|years|period|periods|quarter|quarters|month|months|date)\b)[\p{L}-]+(?:\s+[\p{L}-]+){0,3}?\s+(?:has|had|have|was|were|is|are|recorded|reported|generated|saw|experienced|contributed|made|accounted|showed)\b/iu;
/** "Which years does the table provide information for…", "In which years was X recorded?" */
const LIST_PERIODS =
  /\b(?:which|what)\s+(?:fiscal\s+)?(?:years|periods|quarters)\b|\byears?\s+(?:are|is)\s+(?:included|shown|presented|covered|provided)\b/i;
/** "What are the components of X?", "What financial items does X consist of?", "What are the types of X in the table?" */
const LIST_ITEMS =
  /\b(?:what|which)\s+(?:are|were)\s+(?:the\s+)?(?:\w+\s+)?(?:components?|items?|categories|types|kinds|elements|parts|constituents|line\s+items|segments|regions|sources|classes)\b|\b(?:what|which)\s+(?:\w+\s+){0,2}(?:items?|components?)\s+(?:does|do|did|are|is|make|made)\b|\bconsists?\s+of\b|\bcompris(?:e|es|ed)\s+of\b|\bmaking\s+up\b|\bmake\s+up\b/i;
/** "from 2017 to 2019", "2020-2024", "between 2017 and 2019", "2017 through 2019". */
const RANGE =
  /\b(?:from|between)\s+(?:fiscal\s+(?:year\s+)?|fy\s?)?(?:19|20)\d{2}\s*(?:to|and|through|until|-|–)\s*(?:fiscal\s+(?:year\s+)?|fy\s?)?(?:19|20)\d{2}\b|\b(?:19|20)\d{2}\s*(?:-|–|through)\s*(?:19|20)\d{2}\b/i;

/** Operation words: a row label may hold one ("Net change in cash"), so they are kept as measure words too. */
const OPERATION_WORDS = new Set(
  analyzeText(
    "change changes changed increase increased increases decrease decreased decreases difference growth grew decline declined variance movement percentage percent average mean ratio proportion sum total combined aggregate rate higher lower highest lowest larger smaller largest smallest more less greater greatest rise rose fell fall drop",
  ),
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}&'’.-]*/gu;

function questionTerms(question: string, periods: PeriodMention[]): QuestionTerm[] {
  const terms: QuestionTerm[] = [];
  for (const match of question.matchAll(WORD)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    if (periods.some((period) => start < period.end && end > period.start)) continue;
    const word = match[0].replace(/[.'’]+$/, "");
    // "R&D", "SG&A", "PP&E": the abbreviation is one word, not its letters.
    const analyzed = /&/.test(word) ? [word.toLowerCase()] : analyzeText(word);
    for (const term of analyzed) {
      // Numbers stay: they name columns ("1 to 3 years") and line items ("5.125% notes"); a threshold's does no harm.
      if (QUESTION_WORDS.has(term)) continue;
      terms.push({ term, start, end, word });
    }
  }
  return terms;
}

const SCALE_WORDS: Record<string, number> = {
  thousand: 1e3,
  thousands: 1e3,
  million: 1e6,
  millions: 1e6,
  billion: 1e9,
  billions: 1e9,
  k: 1e3,
  m: 1e6,
  bn: 1e9,
};

/** "exceed $200,000 thousand", "more than 5 million", "lower than $2.00": the threshold a count compares with. */
function thresholdOf(question: string): TableQuestion["threshold"] {
  const match =
    /(?:exceed(?:ed|s)?|above|over|more\s+than|greater\s+than|higher\s+than|at\s+least|larger\s+than|in\s+excess\s+of|below|under|less\s+than|lower\s+than|fewer\s+than|smaller\s+than|at\s+most)\s*(?:the\s+)?(?:[$€£¥]\s?)?(-?[\d,]*\.?\d+)\s*(%|thousands?|millions?|billions?|k|m|bn)?\b/i.exec(
      question,
    );
  if (match === null) return null;
  const value = Number((match[1] ?? "").replace(/,/g, ""));
  if (!Number.isFinite(value)) return null;
  const unit = (match[2] ?? "").toLowerCase();
  return { value, scale: SCALE_WORDS[unit] ?? 1, text: match[0] };
}

/** The words that decided the operation, so a row label that holds them ("Weighted average rate") can reclaim them. */
export type OperationCue = { start: number; end: number };

function firstMatch(pattern: RegExp, text: string): OperationCue | null {
  const match = new RegExp(pattern.source, pattern.flags.replace("g", "")).exec(text);
  return match === null ? null : { start: match.index, end: match.index + match[0].length };
}

/** Questions about text, however they name a figure: what led to it, why, how it is derived. */
const ABOUT_TEXT =
  /^\s*(?:why|how\s+(?:is|are|was|were|does|do|did)\b[^?]*\b(?:calculated|derived|determined|measured|defined|computed|presented|recognized|estimated)\b|what\s+(?:led|leads|caused|causes|drove|drives|resulted|contributed)\b|what\s+(?:was|were|is|are)\s+(?:the\s+)?(?:\w+\s+)?(?:reasons?|causes?|drivers?|factors?)\b)|\b(?:driven\s+by|due\s+to\s+what|attributable\s+to\s+what)\b|\b(?:based\s+(?:on|upon)|influenced\s+by|affected\s+by|impacted\s+by|driven\s+by|depends?\s+on)\s*\??\s*$/i;

function operationOf(
  question: string,
  periods: PeriodMention[],
): { operation: TableOperation; cue: OperationCue | null } {
  const distinctPeriods = new Set(
    periods.map((period) => `${period.year}-${period.quarter ?? ""}-${period.month ?? ""}`),
  );
  if (COUNT.test(question)) {
    if (COUNT_PERIODS.test(question)) return { operation: "countPeriods", cue: firstMatch(COUNT, question) };
    if (COUNT_ITEMS.test(question)) return { operation: "countItems", cue: firstMatch(COUNT, question) };
  }
  const compares = MAXIMUM.test(question) || MINIMUM.test(question) || ABOVE.test(question) || BELOW.test(question);
  if (WHICH_PERIOD.test(question) && compares)
    return { operation: "whichPeriod", cue: firstMatch(WHICH_PERIOD, question) };
  if (WHICH_ITEM.test(question) && compares) return { operation: "whichItem", cue: firstMatch(WHICH_ITEM, question) };
  if (LIST_PERIODS.test(question) && !compares)
    return { operation: "listPeriods", cue: firstMatch(LIST_PERIODS, question) };
  if (
    LIST_ITEMS.test(question) &&
    distinctPeriods.size === 0 &&
    !/\b(?:how\s+much|amount|value|total|sum)\b/i.test(question)
  )
    return { operation: "listItems", cue: firstMatch(LIST_ITEMS, question) };
  const cues: Array<{ operation: TableOperation; cue: OperationCue | null }> = [
    { operation: "percentChange", cue: firstMatch(PERCENT_CHANGE, question) },
    { operation: "average", cue: firstMatch(AVERAGE, question) },
    // "The change in the percentage of sales from APAC between 2017 and 2018" is a change, not a ratio.
    { operation: "change", cue: distinctPeriods.size >= 2 ? firstMatch(CHANGE, question) : null },
    { operation: "ratio", cue: firstMatch(RATIO, question) },
    { operation: "change", cue: firstMatch(CHANGE, question) },
  ];
  const sum = firstMatch(SUM, question);
  // "The total percentage of revenue from Apple and Huawei": a sum of percentages, named before the ratio words.
  const ratio = cues[3]?.cue ?? null;
  if (sum !== null && ratio !== null && sum.end <= ratio.start && /\band\b/i.test(question.slice(ratio.end)))
    return { operation: "sum", cue: sum };
  // "What are the respective percentage of revenue from Apple and Huawei?": their values, not a ratio.
  if (RESPECTIVE.test(question) && cues[0]?.cue === null && cues[1]?.cue === null)
    return { operation: "values", cue: null };
  const found = cues.find((candidate) => candidate.cue !== null);
  if (found !== undefined) return found;
  if (
    sum !== null &&
    (distinctPeriods.size >= 2 ||
      /\b(?:sum|combined|altogether|together)\b/i.test(question) ||
      /\band\b/i.test(question.slice(sum.end)))
  )
    return { operation: "sum", cue: sum };
  if (RESPECTIVE.test(question) || distinctPeriods.size >= 2) return { operation: "values", cue: null };
  return { operation: "lookup", cue: null };
}

/** Whether a question asks about text (a reason, a method), not a table's figures. */
export function asksAboutText(question: string): boolean {
  return ABOUT_TEXT.test(question);
}

/**
 * `masked`: the operation words a row label reclaimed ("average" in "Weighted average hedged rate"): the
 * question is read again as if they named no operation.
 */
export function readTableQuestion(question: string, masked: readonly OperationCue[] = []): TableQuestion {
  const periods = periodMentions(question);
  const unmasked = masked.reduce(
    (text, cue) => `${text.slice(0, cue.start)}${" ".repeat(cue.end - cue.start)}${text.slice(cue.end)}`,
    question,
  );
  const { operation, cue } = operationOf(unmasked, periods);
  const comparative = unmasked.replace(/\b(?:increase|decrease)\s*\/\s*\(?(?:decrease|increase)\)?/gi, " ");
  const extreme =
    operation === "whichPeriod" || operation === "whichItem"
      ? MINIMUM.test(comparative) && !MAXIMUM.test(comparative)
        ? "min"
        : "max"
      : operation === "countPeriods" || operation === "countItems"
        ? BELOW.test(unmasked)
          ? "min"
          : ABOVE.test(unmasked)
            ? "max"
            : null
        : null;
  const asPercent = /\bpercent(?:age)?\b|%/i.test(unmasked) && operation === "ratio";
  const denominatorFirst =
    operation === "ratio" &&
    /\b(?:what\s+)?(?:percent(?:age)?|%|share|proportion|fraction|portion)\s+of\s+(?:the\s+)?[^?]*?\b(?:is|was|are|were|came|comes|come|did|does|do|made\s+up|consist)\b/i.test(
      question,
    ) &&
    !/\bas\s+an?\s+(?:percent(?:age)?|%|proportion|share|fraction)\s+of\b/i.test(question);
  return {
    operation,
    periods,
    terms: questionTerms(question, periods),
    extreme,
    threshold: ["countPeriods", "countItems", "whichPeriod"].includes(operation) ? thresholdOf(unmasked) : null,
    asPercent,
    denominatorFirst,
    operationWords: OPERATION_WORDS,
    cue,
    masked,
    text: question,
    range: RANGE.test(unmasked),
  };
}
