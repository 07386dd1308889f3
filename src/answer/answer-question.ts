/**
 * The one call every adapter uses to answer: rewrite a follow-up into a standalone query, search the
 * asker's spaces, let the readers choose an answer (readers/choose-answer.ts), plan the reply from their
 * choice, and write it (write-answer.ts): the reader's answer with its citations, or, with a language
 * model, the model's sentences each shown once it passes the check against the sources, the reader's
 * answer standing when the model's does not. Source sentences that address the model are blanked before
 * any reader or generator reads them. Emits AnswerEvents; errors become one `error` event with a safe
 * message and the request id (details go to the log), and a fired abort signal ends the stream with one
 * `aborted` error event instead of a `done`.
 */
import type { PageText, SearchResult } from "../domain/types.js";
import { toFolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import { informationNeed } from "../retrieval/information-need.js";
import type { SpellingCorrection } from "../retrieval/query-spelling.js";
import type { Retriever } from "../retrieval/retriever.js";
import { AnswerAborted, throwIfAborted } from "./answer-aborted.js";
import type { Answer, AnswerContext, AnswerEvent } from "./answer-events.js";
import {
  buildCitation,
  isQuotedInAnswer,
  type LinkForCitation,
  numberCitations,
  uniqueCitations,
} from "./citations/citations.js";
import type { DirectAnswer } from "./compose/direct-answer.js";
import { coverNames, createDocumentFactsIndex, type DocumentFactsIndex } from "./evidence/evidence-coverage.js";
import { missingNamesCaveat } from "./evidence/figure-evidence.js";
import { assessRelevance } from "./evidence/no-context.js";
import { isPlausiblyAbout } from "./evidence/plausibly-about.js";
import { proseEvidence } from "./evidence/prose-evidence.js";
import { contentTerms } from "./evidence/sentence-scoring.js";
import type { LabelMeaning } from "./evidence/tables/label-meaning.js";
import type { PassageMeaning } from "./evidence/window-meaning.js";
import type { TermFrequencies } from "./evidence/window-scoring.js";
import type { AnswerGenerator, NumberedSource } from "./generate/generator.js";
import { guardSources } from "./generate/instruction-guard.js";
import type { LlmAnswering } from "./generate/write-verified-answer.js";
import { analyzeQuestion, namesInTitles, type QuestionAnalysis } from "./question/question-analysis.js";
import { type FollowUpRewriter, ruleBasedFollowUpRewriter } from "./question/rewrite-question.js";
import { type ChosenAnswer, chooseAnswer } from "./readers/choose-answer.js";
import type { ReaderInput, Reading } from "./readers/reader.js";
import { type AnswerPlan, writeReply } from "./write-answer.js";

export type AnswerServiceOptions = {
  /** Sources given to the generator. */
  topK?: number;
  /** Results asked of the retriever. */
  candidates?: number;
};

/** Results a figure is looked for among (the cells of table passages; the generator still reads the top few). */
const FIGURE_CANDIDATES = 50;

/** How many closest sources a no-context reply lists. */
const CLOSEST_SOURCES = 3;

const SAFE_FAILURE_MESSAGE =
  "Something went wrong while answering. Please try again; if it keeps happening, share the reference with your admin.";

const ABORTED_MESSAGE = "The question was cancelled.";

/** A dependency that is down, said honestly: what is unavailable, and that asking again later helps. */
const UNAVAILABLE_MESSAGES: Record<string, string> = {
  vector_store_unavailable:
    "Search is unavailable right now, so I cannot look through the documents. Please try again in a minute; if it keeps happening, share the reference with your admin.",
  catalog_unavailable:
    "Folio's database is unavailable right now, so I cannot look through the documents. Please try again in a minute; if it keeps happening, share the reference with your admin.",
};

export type AnswerService = {
  answerQuestion(question: string, context: AnswerContext): AsyncIterable<AnswerEvent>;
};

export type AnswerServiceDependencies = {
  retriever: Retriever;
  /** The extractive generator; with `llm`, the fallback when the model's answer cannot be used. */
  generator: AnswerGenerator;
  /** Present when a language model writes the answers (write-verified-answer.ts). */
  llm?: LlmAnswering | null;
  /** Makes a thread follow-up standalone for retrieval; the rule-based rewrite when absent. */
  followUpRewriter?: FollowUpRewriter | null;
  linkForCitation: LinkForCitation;
  pageTexts: (documentId: string) => Promise<PageText[]>;
  /** Matches a table's row labels with a question's measure by meaning (label-meaning.ts); absent without an embedder. */
  labelMeaning?: LabelMeaning;
  /** Candidate answers' meaning against the question (window-meaning.ts); absent without an embedder. */
  passageMeaning?: PassageMeaning;
  /** How many passages of the spaces hold each term (BM25's statistics), to weigh a question's words; absent: by its sources. */
  termFrequencies?: (spaceIds: string[], terms: string[]) => Promise<TermFrequencies>;
  /** A document's passages, to tell whether it names what a question names and which years it reports; none when absent. */
  documentPassages?: (documentId: string) => Promise<Array<Pick<SearchResult, "text" | "kind" | "provenance">>>;
  logger: Logger;
  options?: AnswerServiceOptions;
};

/** What one question is answered with: the service's dependencies and its settings. */
type Answering = {
  dependencies: AnswerServiceDependencies;
  topK: number;
  candidates: number;
  documentFacts: ReturnType<typeof createDocumentFactsIndex>;
};

export function createAnswerService(dependencies: AnswerServiceDependencies): AnswerService {
  const answering: Answering = {
    dependencies,
    topK: dependencies.options?.topK ?? 5,
    candidates: dependencies.options?.candidates ?? 20,
    documentFacts: createDocumentFactsIndex(dependencies.documentPassages ?? (async () => [])),
  };
  return { answerQuestion: (question, context) => answerQuestion(answering, question, context) };
}

/** The pipeline for one question, streamed as AnswerEvents (see the file's opening comment). */
async function* answerQuestion(
  answering: Answering,
  asAsked: string,
  context: AnswerContext,
): AsyncIterable<AnswerEvent> {
  const { dependencies } = answering;
  const logger = dependencies.logger.child({ requestId: context.requestId });
  const { signal } = context;
  const startedAt = performance.now();
  const timingsMs: Record<string, number> = {};
  const lap = (name: string, since: number) => {
    timingsMs[name] = Math.round(performance.now() - since);
  };
  const { pageTexts, closestSources } = citationSources(dependencies);
  try {
    throwIfAborted(signal);
    const rewriteStart = performance.now();
    const { question, query: rewritten } = yield* readWithThread(dependencies, asAsked, context, logger);
    if (context.history.length > 0) lap("rewrite", rewriteStart);
    yield { type: "status", status: "searching", message: "Searching your documents…" };
    const searched = await searchSpaces(answering, context, question, rewritten, timingsMs);
    const { asked, query } = searched;
    throwIfAborted(signal);
    // Sentences addressing the model ("ignore previous instructions…") are blanked before any reader or
    // generator reads them (offsets unchanged, so citations still point at the right place).
    const results = guardSources(searched.results.map((result, index) => ({ n: index + 1, result }))).map(
      (source) => source.result,
    );
    const given = results.slice(0, answering.topK).map((result, index) => ({ n: index + 1, result }));
    const composeStart = performance.now();
    const need = informationNeed(query);
    const analysis = analyzeQuestion(need, namesInTitles(results.map((result) => result.title)));
    // A name the question gives that no found document names, or a year the documents' tables and
    // the found sentences do not report, is a question these documents cannot answer: say so, never
    // quote another company's or another year's figures. No reader's answer likely enough: the same.
    const found = { need, question, analysis, results, sources: given, pageTexts };
    const chosen = await chooseFromResults(answering, context, logger, found);
    throwIfAborted(signal);
    lap("compose", composeStart);
    const score = Math.round(chosen.score * 1000) / 1000;
    logger.info(
      { results: results.length, reader: chosen.reader, score, spaces: context.spaceIds.length, kind: analysis.kind },
      "retrieval done",
    );
    const plan = planAnswer(chosen, { ...found, asked, query, context, llm: dependencies.llm != null });
    const generationStart = performance.now();
    const written = yield* writeReply(plan, {
      generator: dependencies.generator,
      llm: dependencies.llm ?? null,
      linkForCitation: dependencies.linkForCitation,
      pageTexts,
      closestSources,
      signal,
      logger,
    });
    if (!plan.noContext || plan.askModel) lap("generation", generationStart);
    throwIfAborted(signal);
    const { answerText, noContext, verification } = written;
    const citations = written.citations.map((citation) =>
      isQuotedInAnswer(answerText, citation) ? { ...citation, quotedInAnswer: true } : citation,
    );
    yield { type: "citations", citations };
    lap("total", startedAt);
    const { directAnswer } = plan;
    const answer: Answer = {
      requestId: context.requestId,
      answer: answerText,
      noContext,
      citations,
      timingsMs,
      ...(verification === undefined ? {} : { verification }),
      ...(directAnswer?.value === undefined || noContext ? {} : { value: directAnswer.value }),
      ...(directAnswer === null || noContext || chosen.reader === null
        ? {}
        : { reading: { reader: chosen.reader, score } }),
    };
    logger.info({ noContext, citations: citations.length, latencyMs: timingsMs.total }, "question answered");
    yield { type: "done", answer };
  } catch (error) {
    yield failureEvent(error, signal, logger, startedAt, context.requestId);
  }
}

/**
 * A follow-up made standalone for retrieval (rewrite-question.ts): "And the year before?" rewritten to
 * "What was Nike's net income in 2017?" is what is answered; a question read with the thread only for
 * its search keeps its own words.
 */
async function* readWithThread(
  dependencies: AnswerServiceDependencies,
  question: string,
  context: AnswerContext,
  logger: Logger,
): AsyncGenerator<AnswerEvent, { question: string; query: string }> {
  if (context.history.length === 0) return { question, query: question };
  yield { type: "status", status: "rewriting", message: "Reading the thread…" };
  const followUpRewriter = dependencies.followUpRewriter ?? ruleBasedFollowUpRewriter;
  const rewrite = await followUpRewriter.rewrite({
    question,
    history: context.history,
    signal: context.signal,
    logger,
  });
  return { question: rewrite.standalone ? rewrite.query : question, query: rewrite.query };
}

/**
 * Which reply to write, from the readers' choice. A figure for a company the documents do not name would
 * be another company's figure: refused. Asked about anything else, passages that cover the rest of the
 * question are still shown, after saying plainly that the name itself is not in the documents. With a
 * language model, it is asked whenever the sources are plausibly about the question (plausibly-about.ts):
 * a lower bar than an extractive answer needs, since it can still say the documents do not answer.
 */
function planAnswer(
  chosen: ChosenAnswer,
  found: Pick<ReaderInput, "need" | "analysis"> & {
    asked: string;
    query: string;
    context: AnswerContext;
    llm: boolean;
  },
): AnswerPlan {
  const sources = [...chosen.sources];
  const relevant = chosen.direct !== null;
  const directAnswer = unlessRepeated(chosen.direct, found.context);
  // The share of the question's terms the best sources hold (no-context.ts): the model's bar, and, when a
  // name is not in the documents, whether they still cover the rest of the question (the prose windows
  // are read only from results about the names asked, so none are left to say so).
  const coverage = assessRelevance(
    found.need,
    sources.map((source) => source.result),
  );
  const plausible = found.llm && (relevant || isPlausiblyAbout(coverage));
  const restIsAnswered = relevant || chosen.proseLikelihood >= chosen.answerable || coverage.relevant;
  const caveat =
    chosen.missingNames.length > 0 && !["figure", "comparison"].includes(found.analysis.kind) && restIsAnswered
      ? missingNamesCaveat(chosen.missingNames)
      : undefined;
  const uncovered = caveat === undefined ? chosen.uncovered : null;
  const { asked, query, context } = found;
  return {
    asked,
    // A follow-up the rewrite left as asked ("And once I pass 15 years?") is read with the question before it.
    askedOfModel:
      context.history.length === 0 || query === asked ? asked : `${asked} (a follow-up to: "${lastQuestion(context)}")`,
    query,
    sources,
    caveat,
    uncovered,
    noContext: uncovered !== null || (!relevant && caveat === undefined),
    askModel: plausible && uncovered === null && sources.length > 0,
    directAnswer,
    // A quoted window is what the model writes from, not a line to put before its answer.
    modelFacts: directAnswer === null || chosen.reader === "window" ? [] : [directAnswer.text()],
  };
}

/** What a failed or cancelled question tells the asker: one `error` event with a safe message. */
function failureEvent(
  error: unknown,
  signal: AbortSignal | undefined,
  logger: Logger,
  startedAt: number,
  requestId: string,
): AnswerEvent {
  if (error instanceof AnswerAborted || signal?.aborted) {
    logger.info({ latencyMs: Math.round(performance.now() - startedAt) }, "question cancelled");
    return { type: "error", code: "aborted", message: ABORTED_MESSAGE, requestId };
  }
  const failure = toFolioError(error, "answer_failed");
  logger.error({ err: failure, code: failure.code }, "answering failed");
  const message = UNAVAILABLE_MESSAGES[failure.code] ?? SAFE_FAILURE_MESSAGE;
  return { type: "error", code: failure.code, message, requestId };
}

/** Pages and closest sources for one question's citations. */
function citationSources(dependencies: AnswerServiceDependencies) {
  // Several citations often come from one document: read its pages once per question.
  const pagesByDocument = new Map<string, Promise<PageText[]>>();
  const pageTexts = (documentId: string) => {
    let pages = pagesByDocument.get(documentId);
    if (!pages) {
      pages = dependencies.pageTexts(documentId);
      pagesByDocument.set(documentId, pages);
    }
    return pages;
  };
  // Overlapping chunks of one document may offer the same sentence: it is listed once, numbered without gaps.
  const closestSources = async (sources: NumberedSource[], query: string) =>
    numberCitations(
      "",
      uniqueCitations(
        await Promise.all(
          sources
            .slice(0, CLOSEST_SOURCES)
            .map((source) => buildCitation(source, query, pageTexts, dependencies.linkForCitation)),
        ),
      ).citations,
    ).citations;
  return { pageTexts, closestSources };
}

/** Searches the asker's spaces; misspelt words the retriever repaired are repaired for relevance and quoting too. */
async function searchSpaces(
  answering: Answering,
  context: AnswerContext,
  question: string,
  query: string,
  timingsMs: Record<string, number>,
): Promise<{ results: SearchResult[]; query: string; asked: string }> {
  const retrievalStart = performance.now();
  const retrievalStages: Record<string, number> = {};
  let asked = question;
  let corrected = query;
  const results = await answering.dependencies.retriever.search({
    query,
    spaceIds: context.spaceIds,
    limit: answering.candidates,
    signal: context.signal,
    timingsMs: retrievalStages,
    onQueryCorrected(correction) {
      corrected = correction.text;
      asked = applyCorrections(question, correction.corrections);
    },
  });
  timingsMs.retrieval = Math.round(performance.now() - retrievalStart);
  // Stages of retrieval (embed, hybrid, rerank…) next to the total, so a slow answer shows why.
  for (const [stage, milliseconds] of Object.entries(retrievalStages)) timingsMs[`retrieval.${stage}`] = milliseconds;
  return { results, query: corrected, asked };
}

/** The answer the readers choose from the search's evidence (readers/choose-answer.ts). */
async function chooseFromResults(
  answering: Answering,
  context: AnswerContext,
  logger: Logger,
  found: Pick<ReaderInput, "need" | "question" | "analysis" | "results" | "sources" | "pageTexts">,
): Promise<ChosenAnswer> {
  const { labelMeaning, passageMeaning, termFrequencies, retriever } = answering.dependencies;
  const corpus = await termFrequencies?.(context.spaceIds, [...contentTerms(found.need)]);
  const observe = (reading: Reading) =>
    logger.debug(
      {
        reader: reading.reader,
        grounds: reading.grounds,
        score: Math.round(reading.score * 1000) / 1000,
        uncovered: reading.uncovered !== null,
        answer: reading.direct?.text().slice(0, 200),
      },
      "reading",
    );
  return chooseAnswer(
    {
      ...found,
      facts: answering.documentFacts,
      ...(labelMeaning === undefined ? {} : { labelMeaning }),
      prose: proseEvidence(
        {
          need: found.need,
          question: found.question,
          ...(passageMeaning === undefined ? {} : { meaning: passageMeaning }),
          ...(corpus === undefined ? {} : { corpus }),
          ...(found.analysis.entities.length === 0
            ? {}
            : { answering: (results) => aboutNames(found.analysis, results, answering.documentFacts) }),
        },
        found.results,
        context.signal,
      ),
      // A line item and its period, or a term, are words a row or a sentence prints as they are:
      // keyword search finds those exactly (where meaning ranks paraphrases above them) and costs no
      // embedding. A side of a comparison is a question, searched as questions are.
      search: (text, by) =>
        retriever.search({
          query: text,
          spaceIds: context.spaceIds,
          limit: Math.max(answering.candidates, FIGURE_CANDIDATES),
          ...(by === "keywords" ? { mode: "sparse" as const } : {}),
          signal: context.signal,
        }),
    },
    observe,
  );
}

/** The results about what the question names, or that name it in the passage itself. */
async function aboutNames(
  analysis: QuestionAnalysis,
  results: readonly SearchResult[],
  facts: DocumentFactsIndex,
): Promise<(result: SearchResult) => boolean> {
  const names = await coverNames(analysis.entities, [...results], facts, analysis.measureTerms);
  return (result) => names.aboutAsked.get(result.documentId) !== false || names.namingPassages.has(result.chunkId);
}

/**
 * A follow-up asks something new: the direct answer the thread's last reply already gave ("How many of
 * them were represented?" after the shares outstanding) is no answer to it.
 */
function unlessRepeated(direct: DirectAnswer | null, context: AnswerContext): DirectAnswer | null {
  const lastReply = context.history.findLast((turn) => turn.role === "assistant")?.text ?? "";
  // A quoted sentence may hold the new answer beside the old ("… on August 28, 2017, we acquired Whole
  // Foods Market … for $13.2 billion", then "How much did it pay for it?"): only a figure is dropped.
  return direct?.value !== undefined && lastReply !== "" && repeatsReply(direct.text(), lastReply) ? null : direct;
}

/** The thread's last question before this one. */
function lastQuestion(context: AnswerContext): string {
  return context.history.findLast((turn) => turn.role === "user")?.text ?? "";
}

/** Whether a direct answer's text is the thread's last reply's own first line again (markers aside). */
function repeatsReply(answer: string, reply: string): boolean {
  const plain = (text: string) =>
    text
      .replace(/\s?\[\d{1,3}\]/g, "")
      .replace(/\s+/g, " ")
      .trim();
  const firstLine = plain(reply.split("\n")[0] ?? "");
  return firstLine !== "" && plain(answer) === firstLine;
}

/** The asker's own words with the retriever's spelling repairs (a follow-up's query was rewritten). */
function applyCorrections(text: string, corrections: SpellingCorrection[]): string {
  return corrections.reduce((corrected, { from, to }) => corrected.replace(new RegExp(`\\b${from}\\b`, "g"), to), text);
}
