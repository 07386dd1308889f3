/**
 * The prose candidates of a question, scored: every answer window (answer-windows.ts) of the first few
 * search results that suits what is asked (a whole list only for a list or steps question, a section's
 * opening only for a definition, steps or an open question), each with its features and its likelihood —
 * by words for all, by meaning too for the best of them when an embedder is at hand. Shared by the window
 * reader and by every reader that scores a passage it found, so all prose answers stand on one scale.
 */
import type { SearchResult } from "../../domain/types.js";
import { analyzeText } from "../../retrieval/text-analyzer.js";
import type { QuotedPassage } from "../citations/citations.js";
import type { NumberedSource } from "../generate/generator.js";
import { type AskedAnswer, askedAnswer } from "../question/asked-answer.js";
import { statedQuantities } from "./answer-expressions.js";
import { answerLikelihood, type LikelihoodModel, MEANING_MODEL, WORDS_ONLY_MODEL } from "./answer-likelihood.js";
import { type AnswerWindow, answerWindows } from "./answer-windows.js";
import { plainUnitText } from "./passage-units.js";
import { contentTerms } from "./sentence-scoring.js";
import { type PassageMeaning, windowPassage } from "./window-meaning.js";
import {
  type QuestionTerms,
  type TermFrequencies,
  type WindowFeatures,
  weighQuestionTerms,
  windowFeatures,
} from "./window-scoring.js";

export type ScoredCandidate = { window: AnswerWindow; features: WindowFeatures; likelihood: number };

export type CandidateQuestion = {
  /** The information need: a follow-up carries the thread's question. */
  need: string;
  /** The asker's own question. */
  question: string;

  meaning?: PassageMeaning;
  /** How many passages of the searched spaces hold each of the question's terms; absent: unknown. */
  corpus?: TermFrequencies;
  /**
   * The results that may answer: those about what the question names ("Who is Corning's CEO?" is not
   * answered from Nike's report). Absent: all of them.
   */
  answering?: (results: readonly SearchResult[]) => Promise<(result: SearchResult) => boolean>;
};

/**
 * What a finder's structural test adds to a passage's log-odds. The window model cannot see those tests;
 * where both answered (bench/conversations.jsonl and handbook-dev, keyword-only, 2026-11-28) the finders'
 * answers held the expected answer 0.60–1.00 of the time (definition 4/4, figure 17/22, list 3/5, yes/no
 * 3/5) against the window reader's 0.25–0.44, and the window reader won by 0.01–0.25 in likelihood.
 */
const FOUND_EVIDENCE = 1.5;
/** Results whose prose is read: the answer is in the first few when it is found at all. */
export const WINDOW_SOURCES = 6;
/** Windows embedded per question: the best by words. ~20 short windows cost one batch of the embedder. */
const MEANING_CANDIDATES = 16;

/** A follow-up's own question says what it asks ("And for a Level 4?" asks what the thread asked). */
function askedOf(question: CandidateQuestion): AskedAnswer {
  const own = askedAnswer(question.question);
  return own.kind !== "any" ? own : askedAnswer(question.need);
}

/** Whether a window suits what is asked: a whole list answers a list or steps, a section's opening a definition. */
export function suits(window: AnswerWindow, asked: AskedAnswer): boolean {
  if (window.kind === "list") return asked.kind === "list" || asked.kind === "steps";
  if (window.kind === "section") return ["definition", "steps", "any"].includes(asked.kind);
  return true;
}

type Reading = { asked: AskedAnswer; terms: QuestionTerms; quantities: ReturnType<typeof statedQuantities> };

function readingOf(question: CandidateQuestion, windows: AnswerWindow[]): Reading {
  const ownQuantities = statedQuantities(question.question);
  return {
    asked: askedOf(question),
    terms: weighQuestionTerms(contentTerms(question.need), windows, question.corpus, analyzeText(question.need)),
    // The case a follow-up states is its own ("once I pass 15 years"), else the thread's.
    quantities: ownQuantities.length > 0 ? ownQuantities : statedQuantities(question.need),
  };
}

function scoreAll(windows: AnswerWindow[], reading: Reading, model: LikelihoodModel): ScoredCandidate[] {
  return windows.map((window) => {
    const features = windowFeatures(window, reading.terms, reading.asked, reading.quantities);
    return { window, features, likelihood: answerLikelihood(features, window.kind, model) };
  });
}

export type ProseEvidence = {
  /** What the question asks for. */
  asked: AskedAnswer;
  /** The likelihood an answer needs to be given at all: below it, the documents do not hold one. */
  answerable: number;
  /** Every suitable window of the first WINDOW_SOURCES results' prose, best first; read once per question. */
  candidates(): Promise<ScoredCandidate[]>;
  /**
   * Whether the documents hold an answer by meaning: the most likely candidate is close enough in meaning
   * to the question (MEANING_MODEL.relevantMeaning). Without an embedder, always true: the likelihood by
   * words alone decides.
   */
  holdsAnswer(): Promise<boolean>;
  /**
   * A passage a finder picked by its own structural test (a defining phrase with the term as subject, a
   * list introduced by a line naming the subject, a deciding sentence naming the question's names, a stated
   * figure of the measure and period): scored like any candidate, with that test counted (FOUND_EVIDENCE).
   */
  scoreFound(source: NumberedSource, passage: QuotedPassage, kind?: AnswerWindow["kind"]): Promise<number>;
  /** A passage scored like any candidate, with no test of its own counted. */
  scoreWindow(source: NumberedSource, passage: QuotedPassage, kind?: AnswerWindow["kind"]): Promise<number>;
};

/** The prose evidence of one question's results: its candidates and the scale every found passage is put on. */
export function proseEvidence(
  question: CandidateQuestion,
  results: readonly SearchResult[],
  signal?: AbortSignal,
): ProseEvidence {
  const sources = results.slice(0, WINDOW_SOURCES).map((result, index) => ({ n: index + 1, result }));
  const all = sources.flatMap(answerWindows);
  const reading = readingOf(question, all);
  let candidates: Promise<ScoredCandidate[]> | undefined;
  const answeringWindows = async () => {
    const answers = await question.answering?.(results.slice(0, WINDOW_SOURCES));
    return answers === undefined ? all : all.filter((window) => answers(window.source.result));
  };
  return {
    asked: reading.asked,
    answerable: (question.meaning === undefined ? WORDS_ONLY_MODEL : MEANING_MODEL).answerable,
    candidates() {
      candidates ??= answeringWindows().then((windows) => rankCandidates(question, reading, windows, signal));
      return candidates;
    },
    async holdsAnswer() {
      if (question.meaning === undefined) return true;
      const [best] = await this.candidates();
      // A table row's cells read as text are far in meaning from any question about them: the bar was
      // set on prose windows, and a row's likelihood decides alone.
      if (best?.window.kind === "row") return true;
      return (best?.features.meaning ?? 0) >= MEANING_MODEL.relevantMeaning;
    },
    scoreFound: (source, passage, kind = "sentence") =>
      scorePassage(question, reading, source, passage, kind, FOUND_EVIDENCE),
    scoreWindow: (source, passage, kind = "sentence") => scorePassage(question, reading, source, passage, kind, 0),
  };
}

async function rankCandidates(
  question: CandidateQuestion,
  reading: Reading,
  all: AnswerWindow[],
  signal: AbortSignal | undefined,
): Promise<ScoredCandidate[]> {
  const windows = all.filter((window) => suits(window, reading.asked));
  const byWords = scoreAll(windows, reading, WORDS_ONLY_MODEL).sort(
    (left, right) => right.likelihood - left.likelihood,
  );
  if (question.meaning === undefined || byWords.length === 0) return byWords;
  signal?.throwIfAborted();
  const best = byWords.slice(0, MEANING_CANDIDATES);
  const meanings = await question.meaning(
    question.need,
    best.map((candidate) => windowPassage(candidate.window)),
    signal,
  );
  return best
    .map((candidate, index) => {
      const features = { ...candidate.features, meaning: meanings[index] ?? null };
      return { ...candidate, features, likelihood: answerLikelihood(features, candidate.window.kind, MEANING_MODEL) };
    })
    .sort((left, right) => right.likelihood - left.likelihood);
}

async function scorePassage(
  question: CandidateQuestion,
  reading: Reading,
  source: NumberedSource,
  passage: QuotedPassage,
  kind: AnswerWindow["kind"],
  evidence: number,
): Promise<number> {
  const window: AnswerWindow = {
    source,
    kind,
    units: [{ kind: "sentence", text: passage.text, start: passage.start, end: passage.end, depth: 0, block: 0 }],
    context: (source.result.provenance.headingPath ?? []).join(" › "),
    text: plainUnitText(passage.text),
  };
  const features = windowFeatures(window, reading.terms, reading.asked, reading.quantities);
  const [model, meaning] =
    question.meaning === undefined
      ? [WORDS_ONLY_MODEL, null]
      : [MEANING_MODEL, (await question.meaning(question.need, [windowPassage(window)]))[0] ?? null];
  return answerLikelihood({ ...features, meaning }, kind, model, evidence);
}
