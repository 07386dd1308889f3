/**
 * Reads a question for what the answer must be built from: its kind (a figure, a definition, a list,
 * yes/no, a comparison, other), the names it gives (companies, products, plans: capitalized words
 * that are not the sentence's first word, or a possessive), the periods it asks about (years, fiscal
 * years, quarters) and relative ones ("the year before"), and the measure (what is left of its content
 * words). The rules read the shape of English questions; they hold no list of companies or measures.
 */
import { uniqueTerms } from "../evidence/sentence-scoring.js";

export type QuestionKind = "figure" | "definition" | "list" | "yesno" | "comparison" | "other";

/** A reporting period: a year, optionally one quarter of it. */
export type Period = { year: number; quarter?: number };

export type QuestionAnalysis = {
  kind: QuestionKind;
  /** Names as written ("Nike", "Northwind Health Plus"), without a possessive "'s". */
  entities: string[];
  periods: Period[];
  /** Years to shift the thread's period by: -1 for "the year before", +1 for "the year after". */
  relativeYears: number | null;
  /** Analyzed terms of what is measured or asked about: content words less names, periods and question words. */
  measureTerms: Set<string>;
  /** The measure's own words as asked ("net income"), for writing the answer. */
  measure: string;
};

const YEAR = /\b(?:FY\s?|fiscal(?:\s+year)?\s+)?((?:19|20)\d{2})\b/gi;
export const QUARTER_FIRST =
  /\b(?:Q([1-4])|([1-4])Q|(first|second|third|fourth)[\s-]+quarter)(?:\s+(?:of\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?)?)?\s*((?:19|20)\d{2})?\b/gi;
/** "full year", "full-year", "the whole year": a period's length, not part of what is measured. */
export const WHOLE_YEAR = /\b(?:full|whole|entire)[- ]year\b|\bannual(?:ly)?\b/gi;
const QUARTER_WORDS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4 };

const RELATIVE_BEFORE =
  /\b(?:the\s+)?(?:year|fiscal year)\s+(?:before|earlier|prior)\b|\b(?:previous|prior|preceding)\s+(?:fiscal\s+)?year\b|\ba\s+year\s+(?:earlier|before)\b/i;
const RELATIVE_AFTER =
  /\b(?:the\s+)?(?:year|fiscal year)\s+(?:after|later)\b|\b(?:next|following|subsequent)\s+(?:fiscal\s+)?year\b|\ba\s+year\s+later\b/i;

const COMPARISON =
  /\b(?:higher|lower|larger|smaller|greater|bigger|more|less|fewer|compare[sd]?|comparison|versus|vs\.?|difference between|outperform(?:ed|s)?|exceed(?:ed|s)?)\b/i;
/** A change between two periods is a comparison of the two: "Did net income grow from 2017 to 2018?". */
const CHANGE =
  /\b(?:grow|grew|grown|growth|increase[sd]?|decrease[sd]?|decline[sd]?|rise|rose|risen|fall|fell|fallen|change[sd]?|improve[sd]?)\b/i;
const DEFINITION =
  /^\s*(?:what\s+(?:is|are|does)\s+(?:the\s+)?(?:definition|meaning)\b|what\s+does\s+.+\s+(?:mean|stands?\s+for)\b|how\s+(?:does|do|is|are)\s+.+\s+(?:define[sd]?|defined)\b|define\b|what\s+is\s+meant\s+by\b)/i;
/** "What is organic revenue growth?": a short noun phrase asked about with no period and no number word. */
const WHAT_IS = /^\s*what\s+(?:is|are)\s+(?:an?\s+|the\s+)?([^?]{1,60})\??\s*$/i;
const LIST =
  /^\s*(?:list\b|name\b|which\s+\w+\s+(?:are|were)\b|what\s+(?:are|were)\s+(?:the\s+)?(?:main\s+|key\s+|major\s+|principal\s+)?(?:\w+\s+){0,3}(?:types|kinds|categories|segments|products|services|risks|factors|benefits|options|steps|requirements|items|plans|brands|markets|members|subsidiaries|reasons|components)\b)/i;
/** "Which lessons does PerksPlus cover?", "What are Contoso's company values?": a plural asked for is a list. */
const WHICH_PLURAL = /^\s*which\s+[\p{L}-]+(?<!ss)s\s+(?:does|do|did|are|were|is|can|could|will|would)\b/iu;
const WHAT_ARE = /^\s*what\s+are\s+(?:the\s+)?([^?]{1,80})\??\s*$/i;

function asksForPlural(question: string): boolean {
  if (WHICH_PLURAL.test(question)) return true;
  const phrase = WHAT_ARE.exec(question)?.[1];
  if (phrase === undefined) return false;
  // The phrase's head noun stands before its first preposition: "essential characteristics of cloud computing".
  const head = phrase.split(/\s+(?:of|for|in|at|on|under|to|from|that|which|does|do|by|with)\s+/i)[0] ?? "";
  const last = head.trim().split(/\s+/).at(-1) ?? "";
  return /\p{L}{2,}s$/u.test(last) && !/(?:ss|us|is)$/i.test(last);
}
const YES_NO = /^\s*(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should|may|must)\b/i;
const FIGURE =
  /\b(?:how\s+(?:much|many)|amount|figure|number of|revenues?|sales|income|earnings|eps|profit|loss|margin|cash|assets|liabilities|expenses?|costs?|debt|capex|expenditures?|dividends?|ratio|rate|percentage|headcount|deductible|copay|price|fee)\b/i;

/** Capitalized words that are not names: question and helper words, months, period and unit tokens. */
const NOT_NAMES = new Set(
  `i what which who whom whose when where why how is are was were do does did has have had can could will would should may must
  the a an and or of for in on at to by from with between vs versus than
  january february march april may june july august september october november december
  fy q1 q2 q3 q4 usd us$ gaap non-gaap eps yes no please also and about compared
  company group corporation firm board management directors`
    .split(/\s+/)
    .filter(Boolean),
);

/** Content words that shape a figure question but are no part of the measure. */
const NOT_MEASURE = uniqueTerms(
  "generate generated generates from spend spends spent spending pay pays paid handbook manual guidebook stand stands define defines defined definition meaning end beginning start close how much many what which who whom whose when where why was were is are did does do has have had can could would should will shall may might must tell know please amount figure total number fiscal year years quarter quarters period reported report company company's business usd dollars millions billions thousands approximately about roughly respectively compare higher lower larger smaller greater bigger more less versus vs difference between according documents document define defined definition meaning mean means list name names main key major which both either each",
);

/** Words a question opens with: a capital there says nothing about a name. */
function isSentenceStart(text: string, index: number): boolean {
  const before = text.slice(0, index).trimEnd();
  // "(balance sheet) Define …": a parenthesis information-need.ts moved ahead of a new sentence. A colon
  // introduces what follows ("higher: Nike … or Amazon …"), so a capital after it may well be a name.
  return before.length === 0 || /[.?!)]$/.test(before);
}

/** Nouns that make "the X …" a named thing: "the Northwind Premium plan". */
const NAMED_THING =
  /^\s+(?:plan|plans|program|programme|policy|product|fund|card|account|service|brand|app|platform|model|device|team|company|group|report|handbook|office|branch|site|store|plant|campus|division|segment)\b/i;

const NAME_TOKEN = /(?<![\p{L}\p{N}])(?:\p{Lu}[\p{L}\p{N}&.-]*|\p{N}+\p{Lu}[\p{L}\p{N}]*)(?:['’]s)?(?![\p{L}\p{N}])/gu;

/** The names a question gives: runs of capitalized words (joined by "&", "of", "and"), possessives at any position. */
const NO_KNOWN_NAMES: ReadonlySet<string> = new Set();

/** The short capitals words ("MGM", "IBM") that documents' titles print as words of their own. */
export function namesInTitles(titles: Iterable<string>): Set<string> {
  const names = new Set<string>();
  for (const title of titles) for (const word of title.match(/\b\p{Lu}{2,5}\b/gu) ?? []) names.add(word);
  return names;
}

export function namedEntities(question: string, knownNames: ReadonlySet<string> = NO_KNOWN_NAMES): string[] {
  const names: string[] = [];
  // The run's words as written, joiners included ("Johnson & Johnson"): its first word's start and last word's end.
  let run: string[] = [];
  let runStart = -1;
  let runEnd = -1;
  let wordEnd = -1;
  let runPossessive = false;
  const flush = () => {
    // A short all-capitals word alone is mostly a measure's or a term's abbreviation (EPS, DPO, COGS,
    // PTO), unless it is possessive ("JPM's") or stands in a longer name ("MGM Resorts").
    // A short capitals word the documents themselves name things by ("MGM" in "MGM Resorts International") is a name.
    const abbreviation =
      run.length === 1 && /^[\p{Lu}&]{2,5}$/u.test(run[0] ?? "") && !runPossessive && !knownNames.has(run[0] ?? "");
    // "the Highest EBITDAR Contribution" is a term set in capitals; "the Northwind Premium plan" is a name.
    const term =
      /\b(?:the|a|an|any|each|every|your|my|our)\s+$/i.test(question.slice(Math.max(0, runStart - 6), runStart)) &&
      !runPossessive &&
      !NAMED_THING.test(question.slice(wordEnd));
    // "Adjusted EBIT", "Diluted EPS": a run that ends in an abbreviation names a measure.
    const measureName = run.length > 1 && /^[\p{Lu}&]{2,6}$/u.test(run.at(-1) ?? "") && !runPossessive;
    if (run.length > 0 && !abbreviation && !term && !measureName)
      names.push(question.slice(runStart, wordEnd).replace(/\s+/g, " "));
    run = [];
    runPossessive = false;
  };
  for (const match of question.matchAll(NAME_TOKEN)) {
    const raw = match[0];
    const start = match.index ?? 0;
    const possessive = /['’]s$/.test(raw);
    const word = raw.replace(/['’]s$/, "").replace(/[.]+$/, "");
    const lower = word.toLowerCase();
    const between = question.slice(runEnd, start);
    // "Johnson & Johnson", "Bank of America" are one name; "COB and COBRA" are two.
    const joins = run.length > 0 && /^\s+(?:(?:&|of)\s+)?$/.test(between);
    if (!joins) flush();
    const isYearToken = /^(?:fy)?\d{2,4}$/i.test(word) || /^[qh][1-4]$/i.test(word);
    const generic = NOT_NAMES.has(lower) || isYearToken || word.length < 2;
    // A capital at the start of a sentence is grammar, unless a possessive marks it as a name ("Nike's revenue?").
    const atStart = isSentenceStart(question, start) && !possessive && run.length === 0;
    if (generic || atStart) {
      flush();
      runEnd = start + raw.length;
      continue;
    }
    if (run.length === 0) runStart = start;
    run.push(word);
    runPossessive = possessive;
    runEnd = start + raw.length;
    wordEnd = start + word.length;
    if (possessive) flush();
  }
  flush();
  return [...new Set(names)];
}

/** The periods a question names: quarters ("Q1 2023", "first quarter of 2023") and years ("FY2018", "fiscal 2017"). */
export function namedPeriods(question: string): Period[] {
  const periods: Period[] = [];
  const quarterYears = new Set<number>();
  for (const match of question.matchAll(QUARTER_FIRST)) {
    const quarter = Number(match[1] ?? match[2] ?? QUARTER_WORDS[(match[3] ?? "").toLowerCase()]);
    const year = match[4] === undefined ? undefined : Number(match[4]);
    if (year === undefined) continue;
    periods.push({ year, quarter });
    quarterYears.add(year);
  }
  for (const match of question.matchAll(YEAR)) {
    const year = Number(match[1]);
    if (quarterYears.has(year) || periods.some((period) => period.year === year && period.quarter === undefined))
      continue;
    periods.push({ year });
  }
  return periods;
}

export function relativeYearsOf(question: string): number | null {
  if (RELATIVE_BEFORE.test(question)) return -1;
  if (RELATIVE_AFTER.test(question)) return 1;
  return null;
}

function kindOf(question: string, entities: string[], periods: Period[]): QuestionKind {
  const comparing =
    (COMPARISON.test(question) && (entities.length >= 2 || periods.length >= 2 || /\bor\b/i.test(question))) ||
    (CHANGE.test(question) && periods.length >= 2);
  if (comparing) return "comparison";
  if (DEFINITION.test(question)) return "definition";
  if (LIST.test(question) || (asksForPlural(question) && periods.length === 0)) return "list";
  if (YES_NO.test(question)) return "yesno";
  if (FIGURE.test(question) && (periods.length > 0 || /\bhow\s+(?:much|many)\b/i.test(question))) return "figure";
  // A figure word alone ("… if I worried about cost …") makes no figure question: it asks what something is.
  const asksWhatIs = /^\s*what\s+(?:is|was|were|are)\b/i.test(question);
  const whatIs = WHAT_IS.exec(question);
  if (whatIs && periods.length === 0 && !/\d/.test(whatIs[1] ?? "")) return "definition";
  if (FIGURE.test(question) && asksWhatIs) return "figure";
  // "What were MGM's share repurchases in 2022?", "What is the net PPNE for 3M in 2018?": what a named
  // company had in a period is a figure of it.
  if (asksWhatIs && entities.length > 0 && periods.length > 0) return "figure";
  return "other";
}

/** The question's words less its names, periods and question words: what is measured, as asked. */
function measureWords(question: string, entities: string[]): string {
  let text = question;
  for (const entity of entities) text = text.replace(new RegExp(`${escapeRegExp(entity)}(?:['’]s)?`, "g"), " ");
  return (
    text
      .replace(QUARTER_FIRST, " ")
      .replace(WHOLE_YEAR, " ")
      .replace(/\b(?:year[- ]over[- ]year|yoy|y\/y)\b/gi, " ")
      .replace(YEAR, " ")
      .replace(RELATIVE_BEFORE, " ")
      .replace(RELATIVE_AFTER, " ")
      .replace(/\([^()]*\)/g, " ")
      // Where the asker expects the answer is no part of what is asked: "… according to NIST", "… in the handbook".
      .replace(
        /\b(?:according to|as defined (?:by|in)|as stated in|in the (?:handbook|policy|document|report|guide))\b[^?]*/gi,
        " ",
      )
      .replace(
        /^\s*(?:and\s+|so\s+|ok(?:ay)?,?\s+)?(?:(?:what|how\s+much|how\s+many|which|who|when|where|how)\s+)?(?:(?:was|were|is|are|did|does|do|has|have|had)\s+)?(?:the\s+)?/i,
        "",
      )
      .replace(/\b(?:in|for|of|during|at|as of|the|a|an|was|were|is|are|did|does|reported|total)\b/gi, " ")
      .replace(/[?!.,;:]/g, " ")
      .replace(/\s+/g, " ")
      .trim()
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * `knownNames`: capitals words the searched documents' titles use (see namesInTitles), so that "How much
 * did MGM spend…" reads MGM as a name where a lone short capitals word is otherwise an abbreviation (EPS).
 */
export function analyzeQuestion(question: string, knownNames: ReadonlySet<string> = NO_KNOWN_NAMES): QuestionAnalysis {
  const entities = namedEntities(question, knownNames);
  const periods = namedPeriods(question);
  const entityTerms = new Set(entities.flatMap((entity) => [...uniqueTerms(entity)]));
  const isMeasureTerm = (term: string) => !entityTerms.has(term) && !NOT_MEASURE.has(term) && !/^[\d.,]+$/.test(term);
  // The measure as written, less the words that are not part of it ("capital expenditure amount" → "capital expenditure").
  const measure = measureWords(question, entities)
    .split(" ")
    .filter((word) => [...uniqueTerms(word)].some(isMeasureTerm) || /^(?:&|of|and)$/i.test(word))
    .join(" ")
    .replace(/^(?:(?:&|of|and)\s+)+|(?:\s+(?:&|of|and))+$/gi, "");
  // The one abbreviation every financial table spells out: "diluted EPS" is a row "Diluted earnings per share".
  const spelledOut = measure.replace(/\bEPS\b/gi, "earnings per share");
  const measureTerms = new Set([...uniqueTerms(spelledOut)].filter(isMeasureTerm));
  const kind = kindOf(question, entities, periods);
  // "What does IaaS stand for?": the name is the term asked about, not whose it is.
  if (kind === "definition" && measureTerms.size === 0 && entities.length > 0)
    return {
      kind,
      entities: [],
      periods,
      relativeYears: relativeYearsOf(question),
      measureTerms: entityTerms,
      measure: entities.join(" "),
    };
  return { kind, entities, periods, relativeYears: relativeYearsOf(question), measureTerms, measure };
}
