/**
 * Answering with a language model: the model writes a draft, which is checked against the sources
 * (verify-answer.ts) before any of it reaches the asker. Only verified sentences stream (as one delta
 * once the check is done); until then the asker sees statuses. A draft is unchecked text a document may
 * have steered, so it is never shown, not even for the seconds before the check replaces it. When the
 * check fails, or the model is unreachable, busy, times out or fails, the extractive answer (quotes
 * from the sources) takes over with a note saying why — never an empty or broken message. While the
 * model is busy the asker is told their place in line.
 */
import type { Embedder } from "../../embedding/embedder.js";
import { toFolioError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { AnswerEvent, AnswerVerificationSummary } from "../answer-events.js";
import type { AnswerGenerator, NumberedSource } from "./generator.js";
import { type SupportingQuote, verifyAnswer } from "./verify-answer.js";

export const LLM_UNAVAILABLE_NOTE = "(the language model is unavailable; showing the best passages)";
export const UNVERIFIED_NOTE =
  "(the model's answer could not be checked against the sources; showing the best passages)";

export type LlmAnswering = {
  generator: AnswerGenerator;
  /** Compares the draft's sentences with the sources' sentences. */
  embedder: Embedder;
  /** Cosine a sentence needs with a cited source's sentence (verify-answer.ts). */
  supportThreshold?: number;
};

export type WrittenAnswer = {
  /** The final text with [n] markers (not yet renumbered). */
  text: string;
  /** The supporting sentence of each cited source; empty for an extractive fallback. */
  quotes: ReadonlyMap<number, SupportingQuote>;
  /** The model said the sources do not hold the answer (and claimed nothing). */
  refusal: boolean;
  verification: AnswerVerificationSummary;
};

type Piece = { kind: "text"; text: string } | { kind: "queued"; position: number } | { kind: "end" };

/**
 * The generator's text and its place-in-line reports as one stream: the reports arrive by callback
 * while the iterator waits for the model, so both are queued here and read in order.
 */
async function* mergeWithQueueReports(
  generator: AnswerGenerator,
  question: string,
  sources: NumberedSource[],
  signal: AbortSignal | undefined,
): AsyncGenerator<Piece> {
  const pending: Piece[] = [];
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
      for await (const text of generator.generate(question, sources, signal, {
        onQueued: (position) => push({ kind: "queued", position }),
      }))
        push({ kind: "text", text });
      push({ kind: "end" });
    } catch (error) {
      failure = { error };
      push({ kind: "end" });
    }
  })();
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

export async function* writeVerifiedAnswer(options: {
  question: string;
  sources: NumberedSource[];
  signal?: AbortSignal;
  llm: LlmAnswering;
  /** The extractive generator: what the asker gets when the model's answer cannot be used. */
  fallback: AnswerGenerator;
  logger: Logger;
}): AsyncGenerator<AnswerEvent, WrittenAnswer> {
  const { question, sources, signal, logger } = options;
  let draft = "";
  let unavailable = false;
  try {
    for await (const piece of mergeWithQueueReports(options.llm.generator, question, sources, signal)) {
      if (piece.kind === "queued") {
        yield {
          type: "status",
          status: "queued",
          message: `The language model is busy — you are number ${piece.position} in line…`,
        };
        continue;
      }
      if (piece.kind !== "text") continue;
      draft += piece.text;
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    const failure = toFolioError(error, "llm_error");
    logger.warn({ err: failure, code: failure.code }, "language model failed: answering from the best passages");
    unavailable = true;
  }

  if (!unavailable) {
    yield { type: "status", status: "checking", message: "Checking the answer against the sources…" };
    const started = performance.now();
    try {
      const verification = await verifyAnswer({
        answer: draft,
        sources,
        question,
        embedder: options.llm.embedder,
        threshold: options.llm.supportThreshold,
        signal,
      });
      const summary: AnswerVerificationSummary = {
        outcome: verification.outcome,
        citedSentences: verification.citedSentences,
        supportedSentences: verification.supportedSentences,
        unsupportedSentences: verification.unsupportedSentences,
        latencyMs: Math.round(performance.now() - started),
      };
      logger.info(summary, "answer verified");
      if (verification.outcome === "verified") {
        yield { type: "delta", text: verification.text };
        return { text: verification.text, quotes: verification.quotes, refusal: false, verification: summary };
      }
      if (verification.outcome === "refusal")
        return { text: "", quotes: new Map(), refusal: true, verification: summary };
      return yield* answerExtractively(options, UNVERIFIED_NOTE, summary);
    } catch (error) {
      if (signal?.aborted) throw error;
      logger.warn(
        { err: toFolioError(error, "verification_failed") },
        "verification failed: answering from the best passages",
      );
    }
  }
  return yield* answerExtractively(options, unavailable ? LLM_UNAVAILABLE_NOTE : UNVERIFIED_NOTE, {
    outcome: unavailable ? "unavailable" : "unchecked",
    citedSentences: 0,
    supportedSentences: 0,
    unsupportedSentences: 0,
    latencyMs: 0,
  });
}

/** The extractive answer under a note, streamed (nothing of the draft was shown, so nothing is replaced). */
async function* answerExtractively(
  options: { question: string; sources: NumberedSource[]; signal?: AbortSignal; fallback: AnswerGenerator },
  note: string,
  verification: AnswerVerificationSummary,
): AsyncGenerator<AnswerEvent, WrittenAnswer> {
  let text = note;
  yield { type: "delta", text: note };
  for await (const piece of options.fallback.generate(options.question, options.sources, options.signal)) {
    const separated = text === note ? `\n${piece.replace(/^\n/, "")}` : piece;
    text += separated;
    yield { type: "delta", text: separated };
  }
  return { text, quotes: new Map(), refusal: false, verification };
}
