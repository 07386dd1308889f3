/**
 * A thread follow-up made standalone by the language model ("Does it roll over?" → "Does unused
 * vacation roll over?"), so retrieval sees the subject the asker means. The model sees only the
 * recent turns (a few, bounded in tokens), decodes greedily, one line, under its own short timeout.
 * Its reply is a proposal: it is used only when it passes validateStandaloneQuestion — one line, a
 * question and not an answer or a refusal, every content word of the follow-up kept, no word from
 * outside the thread. Anything else (an invalid reply, a model that errs, is busy or too slow) falls
 * back to the rule-based rewrite, logged with the reason. The asker's abort propagates.
 */
import { FolioError, toFolioError } from "../../errors.js";
import type { FinishReason, LanguageModel } from "../../llm/language-model.js";
import type { Logger } from "../../logger.js";
import { analyzeText } from "../../retrieval/text-analyzer.js";
import type { ConversationTurn } from "../answer-events.js";
import { fillTemplate, type PromptTemplate } from "../generate/prompt-templates.js";
import {
  type FollowUpRewrite,
  type FollowUpRewriteRequest,
  type FollowUpRewriter,
  rewriteQuestion,
} from "./rewrite-question.js";

export type LlmFollowUpRewriteOptions = {
  model: LanguageModel;
  /** prompts/rewrite-follow-up.md: {{history}}, {{question}}. */
  prompt: PromptTemplate;
  logger: Logger;
  /** Time the model gets for the rewrite; the answer still has to be written after it. */
  timeoutMs?: number;
  /** Most recent turns shown to the model. */
  maxTurns?: number;
  /** Token budget of the turns shown (the oldest go first). */
  historyTokens?: number;
  /** A standalone question is short; a model that rambles is cut here (and its reply refused). */
  maxReplyTokens?: number;
};

/** A rewrite that waits several seconds costs more than the rule-based one loses: fall back instead. */
export const DEFAULT_REWRITE_TIMEOUT_MS = 8_000;
export const DEFAULT_REWRITE_TURNS = 4;
export const DEFAULT_REWRITE_HISTORY_TOKENS = 400;
export const DEFAULT_REWRITE_REPLY_TOKENS = 64;
/** One turn shown to the model is cut here: a long answer's first lines name its subject. */
const TURN_CHARACTERS = 500;
/** Characters a rewrite may add to the follow-up (the subject it refers to). */
const ADDED_CHARACTERS = 150;

const CITATION_MARKER = /\s*\[\d+\]/g;
const REPLY_LABEL = /^(?:(?:the\s+)?(?:standalone|rewritten)\s+question|question|rewritten)\s*:\s*/i;
const WRAPPING_QUOTES = /^["“'`]+|["”'`]+$/g;
const REFUSAL =
  /^(?:i'm sorry|i am sorry|sorry|i cannot|i can't|i can not|i am unable|i'm unable|i don't|i do not|as an ai|unfortunately)\b/i;
/**
 * Words a rewrite may drop or add without changing what is searched: the ones pointing back at the
 * thread (which the rewrite replaces with their subject), auxiliaries that change with it ("Does it…"
 * becomes "Do vacation days…"), personal pronouns and question words. Everything else in the
 * follow-up is content and must be kept.
 */
const FUNCTION_TERMS = new Set(
  analyzeText(
    "it its they them their theirs he him his she her hers this these those that same else one ones " +
      "i me my we us our you your do does did done doing is am are was were be been being has have had " +
      "can could will would shall should may might must what which who whom whose when where why how about and also too",
  ),
);

function contentTerms(text: string): Set<string> {
  return new Set(analyzeText(text).filter((term) => !FUNCTION_TERMS.has(term)));
}

/** Words an answer starts with and a question does not. */
const ANSWER_OPENING = /^(?:yes|no|the answer)\b/i;

export type StandaloneQuestionCheck = { valid: true; question: string } | { valid: false; reason: string };

/**
 * Whether the model's reply can replace the follow-up in the search. `shownHistory` is the thread text
 * the model saw: every word the rewrite adds must come from it, so a model that wanders cannot change
 * what is searched. `rulesAddContext` says the rule-based rewrite would add the previous question: a
 * rewrite that adds nothing then is worse than the fallback.
 */
export function validateStandaloneQuestion(input: {
  reply: string;
  finishReason: FinishReason;
  question: string;
  shownHistory: string;
  rulesAddContext: boolean;
}): StandaloneQuestionCheck {
  if (input.finishReason === "length") return { valid: false, reason: "cut_off" };
  const candidate = cleanReply(input.reply);
  if (candidate.length === 0) return { valid: false, reason: "empty" };
  if (/[\r\n]/.test(candidate)) return { valid: false, reason: "several_lines" };
  if (candidate.length > input.question.trim().length + ADDED_CHARACTERS) return { valid: false, reason: "too_long" };
  if (REFUSAL.test(candidate)) return { valid: false, reason: "refusal" };
  const asksAQuestion = input.question.trim().endsWith("?");
  if (ANSWER_OPENING.test(candidate) || /\[\d+\]/.test(candidate) || (asksAQuestion && !candidate.endsWith("?")))
    return { valid: false, reason: "not_a_question" };
  const questionTerms = contentTerms(input.question);
  const candidateTerms = contentTerms(candidate);
  if ([...questionTerms].some((term) => !candidateTerms.has(term))) return { valid: false, reason: "dropped_words" };
  const threadTerms = new Set(analyzeText(input.shownHistory));
  const added = [...candidateTerms].filter((term) => !questionTerms.has(term));
  if (added.some((term) => !threadTerms.has(term))) return { valid: false, reason: "words_from_outside_the_thread" };
  if (added.length === 0 && input.rulesAddContext) return { valid: false, reason: "no_subject_added" };
  return { valid: true, question: candidate };
}

/** Labels and quotes a small model puts around its one line; nothing else is changed. */
function cleanReply(reply: string): string {
  return reply.trim().replace(REPLY_LABEL, "").replace(WRAPPING_QUOTES, "").trim();
}

/** The recent turns as "User: …" / "Assistant: …" lines, newest kept, within the token budget. */
export async function renderRecentTurns(input: {
  question: string;
  history: ConversationTurn[];
  maxTurns: number;
  historyTokens: number;
  countTokens: (text: string) => Promise<number> | number;
}): Promise<string> {
  const turns = [...input.history];
  // Some adapters pass the thread with the follow-up itself as its last turn.
  const last = turns.at(-1);
  if (last?.role === "user" && last.text.trim() === input.question.trim()) turns.pop();
  let lines = turns.slice(-input.maxTurns).map(renderTurn);
  while (lines.length > 1 && (await input.countTokens(lines.join("\n"))) > input.historyTokens) lines = lines.slice(1);
  return lines.join("\n");
}

function renderTurn(turn: ConversationTurn): string {
  const text = turn.text.replace(CITATION_MARKER, "").replace(/\s+/g, " ").trim();
  const wordEnd = text.lastIndexOf(" ", TURN_CHARACTERS);
  const cut = text.length <= TURN_CHARACTERS ? text : `${text.slice(0, wordEnd > 0 ? wordEnd : TURN_CHARACTERS)}…`;
  return `${turn.role === "user" ? "User" : "Assistant"}: ${cut}`;
}

export function createLlmFollowUpRewriter(options: LlmFollowUpRewriteOptions): FollowUpRewriter {
  const { model, prompt } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_REWRITE_TIMEOUT_MS;
  const promptVersion = `${prompt.name} ${prompt.version}`;

  async function rewrite(request: FollowUpRewriteRequest): Promise<FollowUpRewrite> {
    const { question, history, signal } = request;
    const logger = request.logger?.child({ component: "follow-up-rewrite" }) ?? options.logger;
    const rulesQuery = rewriteQuestion(question, history);
    // A model that fails is worth a warning; a reply that does not pass the check is ordinary.
    const fallBack = (reason: string, fields: Record<string, unknown>, level: "info" | "warn"): FollowUpRewrite => {
      logger[level](
        { reason, model: model.name, prompt: promptVersion, ...fields },
        "follow-up rewritten by rules: the model's rewrite was not used",
      );
      return { query: rulesQuery, method: "rules", fallbackReason: reason };
    };
    const shownHistory = await renderRecentTurns({
      question,
      history,
      maxTurns: options.maxTurns ?? DEFAULT_REWRITE_TURNS,
      historyTokens: options.historyTokens ?? DEFAULT_REWRITE_HISTORY_TOKENS,
      countTokens: (text) => model.countTokens(text),
    });
    // Nothing in the thread but the follow-up itself: there is no subject to add.
    if (shownHistory.length === 0) return { query: rulesQuery, method: "rules" };

    const startedAt = performance.now();
    const reply = await askModel(fillTemplate(prompt, { history: shownHistory, question: question.trim() }), signal);
    const latencyMs = Math.round(performance.now() - startedAt);
    if ("failure" in reply) return fallBack(reply.failure, { latencyMs }, "warn");
    const check = validateStandaloneQuestion({
      reply: reply.text,
      finishReason: reply.finishReason,
      question,
      shownHistory,
      rulesAddContext: rulesQuery !== question,
    });
    if (!check.valid) {
      logger.debug({ reply: reply.text }, "the model's follow-up rewrite");
      return fallBack(check.reason, { latencyMs }, "info");
    }
    logger.info({ model: model.name, prompt: promptVersion, latencyMs }, "follow-up rewritten by the language model");
    logger.debug({ query: check.question }, "the model's follow-up rewrite");
    return { query: check.question, method: "llm" };
  }

  /**
   * The model's one line, or why there is none. A rewrite that would wait in line behind other
   * questions is given up at once: the answer itself will need the model next.
   */
  async function askModel(
    content: string,
    signal: AbortSignal | undefined,
  ): Promise<{ text: string; finishReason: FinishReason } | { failure: string }> {
    const controller = new AbortController();
    const stopOnAskerAbort = () => controller.abort();
    signal?.addEventListener("abort", stopOnAskerAbort, { once: true });
    let queued = false;
    let finishReason: FinishReason = "stop";
    let text = "";
    try {
      if (signal?.aborted) throw new FolioError("llm_aborted", "The question was cancelled before the rewrite.");
      for await (const piece of model.stream([{ role: "user", content }], {
        signal: controller.signal,
        maxTokens: options.maxReplyTokens ?? DEFAULT_REWRITE_REPLY_TOKENS,
        temperature: 0,
        stop: ["\n"],
        timeoutMs,
        onQueued: () => {
          queued = true;
          controller.abort();
        },
        onFinish: (result) => {
          finishReason = result.finishReason;
        },
      }))
        text += piece;
      return { text, finishReason };
    } catch (error) {
      if (signal?.aborted) throw error;
      if (queued) return { failure: "llm_queued" };
      return { failure: toFolioError(error, "llm_error").code };
    } finally {
      signal?.removeEventListener("abort", stopOnAskerAbort);
    }
  }

  return { rewrite };
}
