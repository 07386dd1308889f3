/**
 * Answering with a language model, one checked sentence at a time: the model's draft is read as it is
 * generated, each sentence is checked against the sources as soon as it is complete
 * (sentence-verifier.ts), and a sentence that passes is shown at once; one that fails is never shown —
 * a draft is unchecked text a document may have steered, so not even for the seconds before a check.
 *
 * The prompt asks for the answer first, so the first sentence that makes a claim decides: when it
 * fails the check, or passes it but shares no content word with the question (a true sentence about
 * something else, addresses-question.ts), the model's answer is dropped (generation stops there) and
 * the reader's own answer stands (the caller writes it); when it passes, it and every later sentence that passes are the
 * answer, and later ones that fail are left out. A draft that cites nothing and says the sources do
 * not hold the answer is a refusal. A sentence written without a marker, or whose markers point to
 * sources that do not hold it, is checked against every source the model was shown and keeps the
 * markers of those that support it. A sentence that only
 * repeats what the answer already shows (the direct answer the caller put first) is not shown again,
 * and decides nothing.
 *
 * When the model is unreachable, busy past its line, times out or fails before a sentence is shown,
 * the outcome says so and the caller answers without it. While the model is busy the asker is told
 * their place in line.
 */
import type { Embedder } from "../../embedding/embedder.js";
import { toFolioError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { AnswerEvent, AnswerVerificationSummary } from "../answer-events.js";
import { addressesQuestion } from "./addresses-question.js";
import type { NumberedSource } from "./generator.js";
import type { DraftPiece, DraftWriter } from "./llm-generator.js";
import {
  type CheckedSentence,
  createSentenceVerifier,
  type SentenceVerifier,
  type SupportingQuote,
} from "./sentence-verifier.js";
import { type AnswerPiece, DEFAULT_SUPPORT_THRESHOLD, REFUSAL, splitAnswer } from "./verify-answer.js";

export const LLM_UNAVAILABLE_NOTE = "(the language model is unavailable; showing the best passages)";

export type LlmAnswering = {
  writer: DraftWriter;
  /** Compares the draft's sentences with the sources' sentences. */
  embedder: Embedder;
  /** Cosine a sentence needs with a cited source's sentence (verify-answer.ts). */
  supportThreshold?: number;
};

export type ModelAnswer = {
  /** verified: at least one checked sentence was shown; refusal: "not in the documents"; else the reader answers. */
  outcome: AnswerVerificationSummary["outcome"];
  /** The sentences shown, with their supporting [n] markers (not yet renumbered); "" unless verified. */
  text: string;
  /** The supporting passage of each cited source. */
  quotes: ReadonlyMap<number, SupportingQuote>;
  verification: AnswerVerificationSummary;
};

type Piece = DraftPiece | { kind: "queued"; position: number } | { kind: "end" };

/**
 * The writer's pieces and its place-in-line reports as one stream: the reports arrive by callback while
 * the iterator waits for the model, so both are queued here and read in order. `stop()` ends the draft
 * early (the model stops generating) and waits until it has.
 */
function mergeWithQueueReports(
  writer: DraftWriter,
  request: Omit<Parameters<DraftWriter["draft"]>[0], "onQueued" | "signal">,
  signal: AbortSignal | undefined,
): { pieces: AsyncGenerator<Piece>; stop: () => Promise<void> } {
  const pending: Piece[] = [];
  const controller = new AbortController();
  const stopOnAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", stopOnAbort, { once: true });
  let failure: { error: unknown } | null = null;
  let wake: (() => void) | null = null;
  const push = (piece: Piece) => {
    pending.push(piece);
    const resolve = wake;
    wake = null;
    resolve?.();
  };
  const producing = (async () => {
    try {
      for await (const piece of writer.draft({
        ...request,
        signal: controller.signal,
        onQueued: (position) => push({ kind: "queued", position }),
      })) {
        if (controller.signal.aborted) break;
        push(piece);
      }
    } catch (error) {
      // Stopped on purpose: the draft simply ends.
      if (!controller.signal.aborted || signal?.aborted) failure = { error };
    } finally {
      signal?.removeEventListener("abort", stopOnAbort);
      push({ kind: "end" });
    }
  })();
  async function* pieces(): AsyncGenerator<Piece> {
    for (;;) {
      const piece = pending.shift();
      if (piece === undefined) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      if (piece.kind !== "end") {
        yield piece;
        continue;
      }
      await producing;
      if (failure) throw (failure as { error: unknown }).error;
      return;
    }
  }
  return {
    pieces: pieces(),
    stop: async () => {
      controller.abort();
      await producing;
    },
  };
}

/**
 * The complete sentences of a growing draft: all but the last piece, which may still grow — and the one
 * before it too while the last is only the start of a marker ("Claims are due in January. [").
 */
function completePieces(draft: string, ended: boolean): AnswerPiece[] {
  const pieces = splitAnswer(draft);
  if (ended || ENDS_SENTENCE.test(draft)) return pieces;
  const last = pieces.at(-1);
  const keep = last !== undefined && /^\s*\[?\d*\]?\s*$/.test(last.text) ? 2 : 1;
  return pieces.slice(0, Math.max(0, pieces.length - keep));
}

/**
 * A draft whose last sentence is surely complete: it ends with a line break, or with a sentence end and
 * a marker followed by a space ("… covered [1]. ", "… covered. [1] "). Without a marker yet, one may
 * still follow the full stop, so the sentence waits for the next token.
 */
const ENDS_SENTENCE = /\n\s*$|(?:\[\d{1,3}\]\s?[.!?]["”]?|[.!?]["”]?(?:\s?\[\d{1,3}\])+)[ \t]+$/u;

/**
 * The verdict on one complete sentence, or null for a lead-in, which decides nothing: a short one
 * ("Here is what I found:"), or any uncited one ending in a colon ("To qualify, you must have all of the
 * following:") — its items decide. A sentence written without a marker, or failing with the markers it
 * has, is held to every source the model was shown, keeping those that support it (a model often cites
 * the wrong one of its sources). A check that cannot run passes nothing.
 */
async function checkSentence(
  verifier: SentenceVerifier,
  piece: AnswerPiece,
  shownSources: readonly number[],
  context: { signal: AbortSignal | undefined; logger: Logger },
): Promise<{ checked: CheckedSentence; failedToCheck: boolean } | null> {
  let checked: CheckedSentence;
  let failedToCheck = false;
  try {
    checked = await verifier.check(piece.text);
    if (checked.kind === "lead-in" || (checked.cited.length === 0 && /:\s*$/.test(piece.text))) return null;
    // Written without a marker, or with markers of sources that do not hold it: held to every source the
    // model was shown, keeping the markers of those that support it.
    const unmarked = checked.cited.length === 0 && !REFUSAL.test(piece.text) && !/\[\d{1,3}\]/.test(piece.text);
    if (unmarked || (checked.cited.length > 0 && !checked.supported))
      checked = await verifier.check(withMarkers(piece.text.replace(/\s?\[\d{1,3}\]/g, ""), shownSources));
  } catch (error) {
    if (context.signal?.aborted) throw error;
    context.logger.warn({ err: toFolioError(error, "verification_failed") }, "a sentence could not be checked");
    checked = { text: piece.text, cited: [], kind: "claim", support: null, supported: false, kept: null, quotes: [] };
    failedToCheck = true;
  }
  // Document text: debug only (what was checked and why it failed, for reading a run by hand).
  context.logger.debug(
    { sentence: piece.text, kept: checked.kept, unverified: checked.unverifiedClaims ?? [], support: checked.support },
    "sentence checked",
  );
  return { checked, failedToCheck };
}

/**
 * Markdown links copied from a source ("[leave year](https://www.opm.gov/…)") shown as their words only,
 * once the sentence, link included, has passed the check: a reply's links are Folio's own.
 */
function withoutLinkSyntax(sentence: string): string {
  return sentence.replace(/\[([^\]\n]+)\]\((?:[^()\s]|\([^()\s]*\))*\)/g, "$1");
}

/** The sentence with markers put before its closing punctuation ("covered [1][2]."). */
function withMarkers(sentence: string, sources: readonly number[]): string {
  const markers = sources.map((n) => `[${n}]`).join("");
  const trimmed = sentence.trimEnd();
  const end = /[.!?:;]["”]?$/u.exec(trimmed);
  return end ? `${trimmed.slice(0, end.index)} ${markers}${end[0]}` : `${trimmed} ${markers}`;
}

/** What one draft's sentences have decided so far (writeVerifiedAnswer, takeSentence). */
type DraftState = {
  verifier: ReturnType<typeof createSentenceVerifier> | null;
  /** The sources the prompt included: a sentence is held to these. */
  shownSources: number[];
  /** The checked text shown so far. */
  shown: string;
  /** Whether the first sentence with a claim passed: the answer stands or falls on it. */
  firstClaim: "pending" | "passed" | "failed";
  stopped: boolean;
  quotes: Map<number, SupportingQuote>;
  summary: AnswerVerificationSummary;
};

/** One complete sentence: checked, then shown, dropped, or the decision that the draft stops. */
async function* takeSentence(
  piece: AnswerPiece,
  state: DraftState,
  judging: {
    question: string;
    signal: AbortSignal | undefined;
    logger: Logger;
    repeats: ((sentence: string) => boolean) | undefined;
    separator: string | undefined;
    since: () => number;
  },
): AsyncGenerator<AnswerEvent, void> {
  const { verifier, summary, quotes } = state;
  const { question, signal, logger } = judging;
  if (verifier === null) return;
  const checkStart = performance.now();
  const result = await checkSentence(verifier, piece, state.shownSources, { signal, logger });
  summary.latencyMs += Math.round(performance.now() - checkStart);
  if (result === null) return;
  const { checked } = result;
  if (result.failedToCheck && state.firstClaim === "pending") summary.outcome = "unchecked";
  const refusal = checked.cited.length === 0 && REFUSAL.test(piece.text);
  if (checked.cited.length > 0) summary.citedSentences += 1;
  if (!checked.supported || checked.kept === null) {
    summary.unsupportedSentences += 1;
    if (state.firstClaim === "pending") {
      state.firstClaim = "failed";
      if (summary.outcome !== "unchecked")
        summary.outcome = refusal && summary.citedSentences === 0 ? "refusal" : "unsupported";
      state.stopped = true;
    }
    return;
  }
  const kept = withoutLinkSyntax(checked.kept);
  // Saying again what is shown (the direct answer) is not shown, and decides nothing: the next does.
  if (judging.repeats?.(kept)) {
    summary.supportedSentences += 1;
    return;
  }
  // A true sentence about something else does not open an answer (addresses-question.ts).
  if (state.firstClaim === "pending" && !addressesQuestion(kept, question)) {
    summary.unsupportedSentences += 1;
    state.firstClaim = "failed";
    state.stopped = true;
    logger.debug({ sentence: kept }, "checked, but not about the question");
    return;
  }
  summary.supportedSentences += 1;
  if (state.firstClaim === "pending") state.firstClaim = "passed";
  for (const [n, quote] of checked.quotes)
    if (quote.support > (quotes.get(n)?.support ?? Number.NEGATIVE_INFINITY)) quotes.set(n, quote);
  const separator = state.shown === "" ? (judging.separator ?? "") : /\n/.test(piece.separator) ? "\n" : " ";
  const delta = `${separator}${kept}`;
  state.shown += delta;
  summary.timeToFirstSentenceMs ??= judging.since();
  summary.outcome = "verified";
  yield { type: "delta", text: delta };
}

export async function* writeVerifiedAnswer(options: {
  question: string;
  sources: NumberedSource[];
  /** Statements already checked, each with its [n], given to the model as facts. */
  facts?: readonly string[];
  signal?: AbortSignal;
  llm: LlmAnswering;
  logger: Logger;
  /** Whether a checked sentence only repeats what the answer already shows (it is then not shown again). */
  repeats?: (sentence: string) => boolean;
  /** Put before the first sentence shown ("\n" after a direct answer already shown). */
  separator?: string;
}): AsyncGenerator<AnswerEvent, ModelAnswer> {
  const { question, sources, signal, logger } = options;
  const facts = options.facts ?? [];
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  const summary: AnswerVerificationSummary = {
    outcome: "unsupported",
    citedSentences: 0,
    supportedSentences: 0,
    unsupportedSentences: 0,
    latencyMs: 0,
  };
  const draft = mergeWithQueueReports(options.llm.writer, { question, sources, facts }, signal);
  const state: DraftState = {
    verifier: null,
    shownSources: sources.map((source) => source.n),
    shown: "",
    firstClaim: "pending",
    stopped: false,
    quotes: new Map<number, SupportingQuote>(),
    summary,
  };
  const judging = { question, signal, logger, repeats: options.repeats, separator: options.separator, since };
  const take = (piece: AnswerPiece) => takeSentence(piece, state, judging);
  let text = "";
  let done = 0;

  try {
    for await (const piece of draft.pieces) {
      if (piece.kind === "queued") {
        yield {
          type: "status",
          status: "queued",
          message: `The language model is busy — you are number ${piece.position} in line…`,
        };
        continue;
      }
      if (piece.kind === "prompt") {
        summary.promptTokens = piece.prompt.promptTokens;
        state.shownSources = piece.prompt.included;
        state.verifier = createSentenceVerifier({
          sources,
          question,
          embedder: options.llm.embedder,
          threshold: options.llm.supportThreshold ?? DEFAULT_SUPPORT_THRESHOLD,
          shown: piece.prompt.shown,
          facts,
          signal,
        });
        continue;
      }
      if (piece.kind !== "text") continue;
      summary.timeToFirstTokenMs ??= since();
      text += piece.text;
      const complete = completePieces(text, false);
      for (; done < complete.length && !state.stopped; done += 1) yield* take(complete[done] as AnswerPiece);
      if (state.stopped) break;
    }
    if (!state.stopped) {
      const complete = completePieces(text, true);
      for (; done < complete.length && !state.stopped; done += 1) yield* take(complete[done] as AnswerPiece);
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    const failure = toFolioError(error, "llm_error");
    logger.warn({ err: failure, code: failure.code }, "language model failed: answering without it");
    if (state.shown === "") summary.outcome = "unavailable";
  } finally {
    await draft.stop();
  }
  summary.totalMs = since();
  logger.debug({ draft: text }, "model draft");
  logger.info({ ...summary }, "answer verified");
  const verified = summary.outcome === "verified";
  return {
    outcome: summary.outcome,
    text: verified ? state.shown : "",
    quotes: verified ? state.quotes : new Map(),
    verification: summary,
  };
}
