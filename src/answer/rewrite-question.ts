/**
 * Turns a follow-up in a thread into a standalone search query, without an LLM: when the follow-up
 * leans on earlier turns (a pronoun such as "it" or "they", or fewer than four content terms), the
 * previous user question is appended so retrieval sees its subject. Otherwise the question stands alone.
 * This is the rewrite used without a language model, and the fallback when the model's rewrite cannot
 * be used (llm-follow-up-rewrite.ts). The FollowUpRewriter port lets answer-question take either.
 */

import type { Logger } from "../logger.js";
import { analyzeText } from "../retrieval/text-analyzer.js";
import type { ConversationTurn } from "./answer-events.js";

/**
 * Words that point back at an earlier turn. "that", "one", "more" and "there" are left out: they are far
 * more often relative or filler words ("the plan that covers…"), and a short follow-up such as "is that
 * covered?" is caught by the term count anyway.
 */
const REFERRING_WORDS = /\b(it|its|they|them|their|this|these|those|he|she|his|her|same|else)\b/i;
const MIN_STANDALONE_TERMS = 4;

export function rewriteQuestion(question: string, history: ConversationTurn[]): string {
  const previousQuestion = [...history]
    .reverse()
    .find((turn) => turn.role === "user" && turn.text.trim() !== question.trim());
  if (!previousQuestion) return question;
  const leansOnContext = REFERRING_WORDS.test(question) || analyzeText(question).length < MIN_STANDALONE_TERMS;
  return leansOnContext ? `${question} ${previousQuestion.text}` : question;
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
  /** Why the model's rewrite was not used (snake_case), when a model was asked and method is "rules". */
  fallbackReason?: string;
};

export type FollowUpRewriter = {
  rewrite(request: FollowUpRewriteRequest): Promise<FollowUpRewrite>;
};

/** The rewriter without a language model. */
export const ruleBasedFollowUpRewriter: FollowUpRewriter = {
  rewrite: async ({ question, history }) => ({ query: rewriteQuestion(question, history), method: "rules" }),
};
