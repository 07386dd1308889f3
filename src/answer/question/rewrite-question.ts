/**
 * Turns a follow-up in a thread into a standalone search query, without an LLM: when the follow-up
 * leans on earlier turns (it opens as a continuation — "And …", "What about …", "What if …" —, points back
 * with a pronoun its own sentences give nothing to point at, or names no subject of its own in fewer than
 * three content words), the previous user question is appended so retrieval sees its subject. A complete
 * question stands alone, never with the previous turn's subject (leansOnThread).
 * This is the rewrite used without a language model, and the fallback when the model's rewrite cannot
 * be used (llm-follow-up-rewrite.ts). The FollowUpRewriter port lets answer-question take either.
 */

import type { Logger } from "../../logger.js";
import type { ConversationTurn } from "../answer-events.js";
import { contentTerms } from "../evidence/sentence-scoring.js";
import { possessive } from "./possessive.js";
import { analyzeQuestion, type Period, QUARTER_FIRST, WHOLE_YEAR } from "./question-analysis.js";

/**
 * Words that point back at an earlier turn. "that" and "one" count only where they stand for a noun
 * (THAT_AS_PRONOUN, ONE_AS_PRONOUN); "more" and "there" are left out: they are far more often filler
 * words, and a short follow-up such as "is there more?" is caught by the term count anyway.
 */
const REFERRING_WORDS = /\b(it|its|they|them|their|this|these|those|he|she|his|her|same|else)\b/i;

export function rewriteQuestion(question: string, history: ConversationTurn[]): string {
  const previous = resolvedPreviousQuestion(history);
  if (previous === null || previous.trim() === question.trim()) return question;
  const standalone = standaloneFollowUp(question, previous);
  if (standalone !== null) return standalone;
  // "Did Costco raise its dividend?" after questions about Nike: a name the question gives outranks the
  // thread's, and "its" is Costco's.
  if (namesSomethingNew(question, previous)) return question;
  return leansOnThread(question) ? `${question} ${previous}` : question;
}

/** Openers that continue the thread: "And once I pass 15 years?", "What about comp time?", "What if …?". */
const CONTINUES_THREAD =
  /^\s*(?:and|but|also|or|so|then|what\s+about|how\s+about|what\s+if|same\s+for|even\s+if|otherwise)\b/i;
/** "that" as a pronoun: asked about as a thing ("What happens if I miss that?", "more than that"). */
const THAT_AS_PRONOUN = /\b(?:than|about|of|with|for|miss|do|does|did|is|was|after|before)\s+that\s*(?:[?.!,]|$)/i;
/** "one" standing for a noun of the thread: "an 8-year one", "the new one". */
const ONE_AS_PRONOUN =
  /\b(?:an?|the|that|this|which|each)\s+(?:[\p{L}\p{N}-]+\s+)?one\b(?!\s+(?:of|that|which|who|with|where|in)\b)/iu;

/** "this cycle", "this year": the present, not something the thread named. */
const NOW =
  /\b(?:this|these)\s+(?:year|month|week|quarter|cycle|season|time|period|morning|afternoon|evening|spring|summer|fall|autumn|winter)\b/gi;
/** A term the question quotes ("What's 'time-in-grade'?") is its own subject. */
const QUOTED_TERM = /['"‘“][^'"’”]{2,}['"’”]/;
/** A form number or an acronym ("SF-182", "FSA", "ENT", "IaaS") names the question's own subject. */
const CODE_OR_ACRONYM = /\b(?:[A-Z]{2,}|[A-Z][a-z]+[A-Z])[\w-]*\b|\b\w+-\d+\b/;
/** A question with fewer content words than this and no name of its own leans on the thread ("Who exactly do I email?"). */
const MIN_OWN_CONTENT_TERMS = 3;

/** The question's asking sentence and the sentences of context written before it ("My laptop was stolen. What do I do?"). */
function askingParts(question: string): { asking: string; before: string } {
  const sentences = question.trim().split(/(?<=[.?!])\s+/);
  const index = sentences.findIndex((sentence) => sentence.trim().endsWith("?"));
  if (index <= 0) return { asking: question, before: "" };
  return { asking: sentences.slice(index).join(" "), before: sentences.slice(0, index).join(" ") };
}

/**
 * Whether a question leans on the thread: it opens as a continuation, points back with a pronoun its own
 * sentences give nothing to point at, or is too short to name a subject of its own ("Who exactly do I
 * email?"). A complete question — "What's an SF-182?", "Something weird is happening on my laptop.
 * Should I shut it down?" — is read on its own, never with the previous turn's subject.
 */
export function leansOnThread(question: string): boolean {
  if (CONTINUES_THREAD.test(question)) return true;
  const { asking, before } = askingParts(question.replace(NOW, ""));
  const pointsBack = (text: string) =>
    REFERRING_WORDS.test(text) || THAT_AS_PRONOUN.test(text) || ONE_AS_PRONOUN.test(text);
  // A pronoun whose noun the question's own context sentence gives ("… my laptop. Should I shut it down?").
  if (pointsBack(asking) && (before === "" || pointsBack(before))) return true;
  const own = analyzeQuestion(question);
  const namesItsSubject =
    own.entities.length > 0 || own.periods.length > 0 || QUOTED_TERM.test(question) || CODE_OR_ACRONYM.test(question);
  return !namesItsSubject && contentTerms(question).size < MIN_OWN_CONTENT_TERMS;
}

/** Whether the question names a company, product or plan the previous question did not. */
function namesSomethingNew(question: string, previous: string): boolean {
  const before = new Set(analyzeQuestion(previous).entities.map((entity) => entity.toLowerCase()));
  return analyzeQuestion(question).entities.some((entity) => !before.has(entity.toLowerCase()));
}

/**
 * The thread's last earlier question, itself made standalone: a follow-up to a follow-up ("And the
 * year before?" twice) builds on the one before it. Adapters leave the question being asked out of the history.
 */
function resolvedPreviousQuestion(history: ConversationTurn[]): string | null {
  const userTurns = history.filter((turn) => turn.role === "user").map((turn) => turn.text);
  let resolved: string | null = null;
  for (const text of userTurns) {
    if (resolved === null) {
      resolved = text;
      continue;
    }
    const standalone = standaloneFollowUp(text, resolved);
    if (standalone !== null) resolved = standalone;
    else {
      // A follow-up the rules cannot rewrite ("How much of that came from AWS?") keeps the thread's
      // company and period in view for the turns after it, as its search did.
      const own = analyzeQuestion(text);
      resolved = own.entities.length === 0 && own.periods.length === 0 ? `${text} ${resolved}` : text;
    }
  }
  return resolved;
}

/** A follow-up that leans on the turn before by its form: "And the year before?", "What about 2016?", "How about Corning?". */
const ELLIPTICAL =
  /^\s*(?:and|what about|how about|same for|and for|and in|in|for|what of|now)\b|\b(?:that|the same|this)\s+(?:year|quarter|period|fiscal year)\b/i;

function shiftedPeriod(period: Period, years: number): Period {
  return { ...period, year: period.year + years };
}

function periodText(period: Period): string {
  return period.quarter === undefined ? String(period.year) : `Q${period.quarter} ${period.year}`;
}

/**
 * The follow-up as a question of its own, when it only changes the period, the name or the measure of
 * a previous question that named a period or a name: "And the year before?" after "What was Nike's
 * net income in 2018?" asks "What was Nike's net income in 2017?". Null when the rules do not apply.
 */
export function standaloneFollowUp(question: string, previous: string): string | null {
  const asked = analyzeQuestion(question);
  const before = analyzeQuestion(previous);
  if (before.periods.length === 0 && before.entities.length === 0) return withSubjectReplaced(question, previous);
  const elliptical =
    asked.relativeYears !== null ||
    (ELLIPTICAL.test(question) &&
      !(asked.entities.length > 0 && asked.periods.length > 0 && asked.measureTerms.size > 0));
  if (!elliptical) return null;
  // "And for the full year?" after a quarter's figure asks for that quarter's year.
  const wholeYear = asked.periods.length === 0 && new RegExp(WHOLE_YEAR.source, "i").test(question);
  const periods =
    asked.periods.length > 0
      ? asked.periods
      : asked.relativeYears !== null
        ? before.periods.map((period) => shiftedPeriod(period, asked.relativeYears ?? 0))
        : wholeYear
          ? before.periods.map((period) => ({ year: period.year }))
          : before.periods;
  const entities = asked.entities.length > 0 ? asked.entities : before.entities;
  const newMeasure = [...asked.measureTerms].some((term) => !before.measureTerms.has(term));
  if (newMeasure) {
    const measure = asked.measure.replace(/^(?:about|its|their|the|same|for|of)\s+/gi, "").trim();
    const owner = entities.length > 0 ? `${possessive(entities.join(" and "))} ` : "";
    const when = periods.length > 0 ? ` in ${periods.map(periodText).join(" and ")}` : "";
    return `What was ${owner}${measure}${when}?`;
  }
  let standalone = wholeYear
    ? previous.replace(new RegExp(QUARTER_FIRST.source, "gi"), (quarter) => {
        const year = /(?:19|20)\d{2}/.exec(quarter)?.[0];
        return year === undefined ? "full year" : `full year ${year}`;
      })
    : previous;
  before.periods.forEach((period, index) => {
    const replacement = periods[index];
    if (replacement !== undefined && replacement.year !== period.year)
      standalone = standalone.replace(new RegExp(`\\b${period.year}\\b`, "g"), String(replacement.year));
  });
  before.entities.forEach((entity, index) => {
    const replacement = entities[index];
    if (replacement !== undefined && replacement !== entity) standalone = standalone.split(entity).join(replacement);
  });
  return standalone;
}

const NEW_SUBJECT = /^\s*(?:and|what about|how about)\s+(?:the\s+)?([^?]{2,60}?)\s*\??\s*$/i;
const WHAT_QUESTION =
  /^(\s*(?:what|which)\s+(?:are|is|were|was)\s+(?:the\s+)?)(.+?)(\s+(?:of|for|in|under|at|on|to|from|by|with|according\s+to)\s+[^?]+)?\?\s*$/i;

/**
 * "And the deployment models?" after "What are the essential characteristics of cloud computing?" asks
 * "What are the deployment models of cloud computing?": the new subject in the earlier question's frame.
 * Null when either question has another shape.
 */
function withSubjectReplaced(question: string, previous: string): string | null {
  const subject = NEW_SUBJECT.exec(question)?.[1];
  // A previous question carried with the one before it ("What are …? What is …?") is framed by its first.
  const frame = WHAT_QUESTION.exec(previous.split(/(?<=\?)\s+/)[0] ?? previous);
  if (subject === undefined || frame === null) return null;
  return `${frame[1]}${subject}${frame[3] ?? ""}?`;
}

export type FollowUpRewriteRequest = {
  question: string;
  /** Earlier turns of the thread, oldest first. */
  history: ConversationTurn[];
  /** The asker's signal: when it fires the rewrite throws, as every other step of answering does. */
  signal?: AbortSignal;
  /** The request's logger (it carries the request id). */
  logger?: Logger;
};

export type FollowUpRewrite = {
  /** What retrieval searches for. */
  query: string;
  /** "llm": the model's validated rewrite; "rules": rewriteQuestion above. */
  method: "llm" | "rules";
  /** The query is the follow-up rewritten as a question of its own, so the answer is written for it too. */
  standalone?: boolean;
  /** Why the model's rewrite was not used (snake_case), when a model was asked and method is "rules". */
  fallbackReason?: string;
};

export type FollowUpRewriter = {
  rewrite(request: FollowUpRewriteRequest): Promise<FollowUpRewrite>;
};

/** The rewriter without a language model. */
export const ruleBasedFollowUpRewriter: FollowUpRewriter = {
  rewrite: async ({ question, history }) => {
    const query = rewriteQuestion(question, history);
    return { query, method: "rules", standalone: query !== question && !query.includes(question) };
  },
};
