/**
 * Turns a follow-up in a thread into a standalone search query, without an LLM: when the follow-up
 * leans on earlier turns (a pronoun such as "it" or "they", or fewer than four content terms), the
 * previous user question is appended so retrieval sees its subject. Otherwise the question stands alone.
 * This is the rewrite used without a language model, and the fallback when the model's rewrite cannot
 * be used (llm-follow-up-rewrite.ts). The FollowUpRewriter port lets answer-question take either.
 */

import type { Logger } from "../../logger.js";
import { analyzeText } from "../../retrieval/text-analyzer.js";
import type { ConversationTurn } from "../answer-events.js";
import { possessive } from "./possessive.js";
import { analyzeQuestion, type Period, QUARTER_FIRST, WHOLE_YEAR } from "./question-analysis.js";

/**
 * Words that point back at an earlier turn. "that", "one", "more" and "there" are left out: they are far
 * more often relative or filler words ("the plan that covers…"), and a short follow-up such as "is that
 * covered?" is caught by the term count anyway.
 */
const REFERRING_WORDS = /\b(it|its|they|them|their|this|these|those|he|she|his|her|same|else)\b/i;
const MIN_STANDALONE_TERMS = 4;

export function rewriteQuestion(question: string, history: ConversationTurn[]): string {
  const previous = resolvedPreviousQuestion(history);
  if (previous === null || previous.trim() === question.trim()) return question;
  const standalone = standaloneFollowUp(question, previous);
  if (standalone !== null) return standalone;
  // "Did Costco raise its dividend?" after questions about Nike: a name the question gives outranks the
  // thread's, and "its" is Costco's.
  if (namesSomethingNew(question, previous)) return question;
  const leansOnContext = REFERRING_WORDS.test(question) || analyzeText(question).length < MIN_STANDALONE_TERMS;
  return leansOnContext ? `${question} ${previous}` : question;
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
