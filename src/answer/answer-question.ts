/**
 * The one call every adapter uses to answer: rewrite a follow-up into a standalone query, search the
 * asker's spaces, decide whether anything is relevant enough, stream the generator's text, and turn
 * its [n] markers into page-exact citations with signed links. With a language model, it is asked
 * whenever the sources are plausibly about the question, and each sentence it writes is shown once it
 * passes the check against the sources; when its answer does not stand, the reader's does
 * (write-verified-answer.ts). Source sentences that address the model are blanked before any generator
 * reads them. Emits AnswerEvents; errors become one
 * `error` event with a safe message and the request id (details go to the log), and a fired abort
 * signal ends the stream with one `aborted` error event instead of a `done`.
 */
import type { PageText, SearchResult } from "../domain/types.js";
import { toFolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import { informationNeed } from "../retrieval/information-need.js";
import type { SpellingCorrection } from "../retrieval/query-spelling.js";
import type { Retriever } from "../retrieval/retriever.js";
import type { Answer, AnswerContext, AnswerEvent, AnswerVerificationSummary, Citation } from "./answer-events.js";
import {
  buildCitation,
  buildCitations,
  isQuotedInAnswer,
  type LinkForCitation,
  numberCitations,
  type QuotedPassage,
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
import { repeatsShownText } from "./generate/repeated-statement.js";
import {
  LLM_UNAVAILABLE_NOTE,
  type LlmAnswering,
  type ModelAnswer,
  writeVerifiedAnswer,
} from "./generate/write-verified-answer.js";
import { analyzeQuestion, namesInTitles, type QuestionAnalysis } from "./question/question-analysis.js";
import { type FollowUpRewriter, ruleBasedFollowUpRewriter } from "./question/rewrite-question.js";
import { type ChosenAnswer, chooseAnswer } from "./readers/choose-answer.js";
import type { ReaderInput, Reading } from "./readers/reader.js";

export type AnswerServiceOptions = {
  /** Sources given to the generator. */
  topK?: number;
  /** Results asked of the retriever. */
  candidates?: number;
};

export const NO_CONTEXT_ANSWER =
  "I couldn't find this in the documents available here. The closest sources are below — they may help, but they do not answer the question.";

/** When the search returns nothing at all there are no closest sources to point to. */
export const NO_SOURCES_ANSWER = "I couldn't find anything about this in the documents available here.";

/** Quotes of the extractive generator shown after a direct answer (only those that support it). */
const QUOTES_AFTER_DIRECT_ANSWER = 1;

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

/** Thrown inside the pipeline when the asker's signal fires; becomes one `aborted` error event. */
class AnswerAborted extends Error {}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AnswerAborted();
}

/** What the model wrote (write-verified-answer.ts), and the checked text shown before it. */
type WrittenByModel = ModelAnswer & { lead: string };

/**
 * The language model writes the answer (write-verified-answer.ts): given the facts the code worked out
 * as checked statements with their [n], and shown sentence by sentence as each passes the check. The
 * lead (a caveat, the direct answer) is shown first: it is built from cited evidence only, so it needs
 * no check, and a model sentence that only repeats it is not shown again. `text` is the lead and the
 * model's sentences when the model's answer stands (outcome "verified"); otherwise the caller writes
 * the reader's answer after the lead already shown.
 */
async function* writeWithModel(options: {
  asked: string;
  sources: NumberedSource[];
  signal: AbortSignal | undefined;
  llm: LlmAnswering;
  logger: Logger;
  lead: string;
  checkedFacts: string[];
}): AsyncGenerator<AnswerEvent, WrittenByModel> {
  const { lead } = options;
  if (lead !== "") yield { type: "delta", text: lead };
  const written = yield* writeVerifiedAnswer({
    question: options.asked,
    sources: options.sources,
    facts: options.checkedFacts,
    signal: options.signal,
    llm: options.llm,
    logger: options.logger,
    repeats: (sentence) => repeatsShownText(sentence, lead),
    separator: lead === "" ? "" : "\n",
  });
  return { ...written, text: `${lead}${written.text}`, lead };
}

/**
 * The extractive answer, streamed: the caveat and the direct answer, then the generator's quotes — after
 * a direct answer only one that supports it; the others' markers go to `furtherSources`.
 */
async function* writeExtractively(options: {
  asked: string;
  sources: NumberedSource[];
  signal: AbortSignal | undefined;
  generator: AnswerGenerator;
  caveat: string | undefined;
  directAnswer: DirectAnswer | null;
  furtherSources: Array<{ n: number; claim: string }>;
  /** Text of the answer already streamed (the lead shown before the model was asked): not streamed again. */
  shown?: string;
  /** Said before the quotes (the language model is unavailable). */
  note?: string | undefined;
}): AsyncGenerator<
  AnswerEvent,
  { generated: string; supportingQuotes: ReadonlyMap<number, QuotedPassage> | undefined }
> {
  const { directAnswer, signal, caveat } = options;
  const shown = options.shown ?? "";
  const lead = `${caveat ?? ""}${directAnswer?.text() ?? ""}`;
  // The note opens an answer none of which is shown yet; after a lead already shown, it follows it.
  const noteFirst = options.note !== undefined && shown === "";
  let generated = noteFirst ? [options.note, lead].filter((part) => part !== "").join("\n") : lead;
  if (generated !== shown) yield { type: "delta", text: generated };
  if (options.note !== undefined && !noteFirst) {
    const note = `\n${options.note}`;
    generated += note;
    yield { type: "delta", text: note };
  }
  let lines = 0;
  for await (const text of options.generator.generate(options.asked, options.sources, signal)) {
    throwIfAborted(signal);
    // A figure's row is quoted under its citation: a quote of the same row would say it twice; a
    // quote that states none of the direct answer's figures is another source's, and stays under Sources.
    if (directAnswer?.repeatsQuotedRow(text)) continue;
    if (directAnswer !== null && !directAnswer.isSupportedBy(text)) {
      for (const match of text.matchAll(/\[(\d{1,3})\]/g))
        options.furtherSources.push({ n: Number(match[1]), claim: text.replace(/\[\d{1,3}\]/g, "") });
      continue;
    }
    // After a direct answer one quote gives context; more push the answer out of view.
    if (directAnswer !== null && lines >= QUOTES_AFTER_DIRECT_ANSWER) break;
    const line = generated !== "" && lines === 0 ? `\n${text.replace(/^\n/, "")}` : text;
    lines += 1;
    generated += line;
    yield { type: "delta", text: line };
  }
  return { generated, supportingQuotes: directAnswer === null ? undefined : directAnswer.quotes };
}

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
  const { dependencies, topK } = answering;
  const logger = dependencies.logger.child({ requestId: context.requestId });
  const { signal } = context;
  const startedAt = performance.now();
  const timingsMs: Record<string, number> = {};
  const lap = (name: string, since: number) => {
    timingsMs[name] = Math.round(performance.now() - since);
  };
  const { pageTexts, closestSources } = citationSources(dependencies);
  let question = asAsked;
  try {
    throwIfAborted(signal);
    let query = question;
    if (context.history.length > 0) {
      yield { type: "status", status: "rewriting", message: "Reading the thread…" };
      const rewriteStart = performance.now();
      const followUpRewriter = dependencies.followUpRewriter ?? ruleBasedFollowUpRewriter;
      const rewrite = await followUpRewriter.rewrite({ question, history: context.history, signal, logger });
      query = rewrite.query;
      // "And the year before?" rewritten to "What was Nike's net income in 2017?" is what is answered.
      if (rewrite.standalone) question = rewrite.query;
      lap("rewrite", rewriteStart);
    }
    yield { type: "status", status: "searching", message: "Searching your documents…" };
    const searched = await searchSpaces(answering, context, question, query, timingsMs);
    const { asked } = searched;
    query = searched.query;
    throwIfAborted(signal);
    // Sentences addressing the model ("ignore previous instructions…") are blanked before any reader or
    // generator reads them (offsets unchanged, so citations still point at the right place).
    const results = guardSources(searched.results.map((result, index) => ({ n: index + 1, result }))).map(
      (source) => source.result,
    );
    let sources: NumberedSource[] = results.slice(0, topK).map((result, index) => ({ n: index + 1, result }));
    const composeStart = performance.now();
    const need = informationNeed(query);
    const analysis = analyzeQuestion(need, namesInTitles(results.map((result) => result.title)));
    // A name the question gives that no found document names, or a year the documents' tables and
    // the found sentences do not report, is a question these documents cannot answer: say so, never
    // quote another company's or another year's figures. No reader's answer likely enough: the same.
    const chosen = await chooseFromResults(answering, context, logger, {
      need,
      question,
      analysis,
      results,
      sources,
      pageTexts,
    });
    sources = [...chosen.sources];
    throwIfAborted(signal);
    const directAnswer = unlessRepeated(chosen.direct, context);
    const relevant = chosen.direct !== null;
    lap("compose", composeStart);
    logger.info(
      {
        results: results.length,
        reader: chosen.reader,
        score: Math.round(chosen.score * 1000) / 1000,
        spaces: context.spaceIds.length,
        kind: analysis.kind,
      },
      "retrieval done",
    );

    let answerText: string;
    let citations: Citation[];
    // A figure for a company the documents do not name would be another company's figure: refused.
    // Asked about anything else, passages that cover the rest of the question are still shown, after
    // saying plainly that the name itself is not in the documents.
    // With a language model, it is asked whenever the sources are plausibly about the question: a
    // lower bar than an extractive answer needs, since it can still say the documents do not answer.
    const plausible =
      dependencies.llm != null &&
      (relevant || isPlausiblyAbout(assessRelevance(need, sources.map((source) => source.result))));
    const restIsAnswered = relevant || chosen.proseLikelihood >= chosen.answerable;
    const caveat =
      chosen.missingNames.length > 0 && !["figure", "comparison"].includes(analysis.kind) && restIsAnswered
        ? missingNamesCaveat(chosen.missingNames)
        : undefined;
    const uncovered = caveat === undefined ? chosen.uncovered : null;
    let noContext = uncovered !== null || (!relevant && caveat === undefined);
    let verification: AnswerVerificationSummary | undefined;
    const askModel = plausible && uncovered === null && sources.length > 0;
    // A quoted window is what the model writes from, not a line to put before its answer.
    const modelFacts = directAnswer === null || chosen.reader === "window" ? [] : [directAnswer.text()];
    if (noContext && !askModel) {
      answerText = noContextText(sources.length, uncovered);
      yield { type: "delta", text: answerText };
      citations = await closestSources(sources, query);
    } else {
      yield {
        type: "status",
        status: "reading",
        message: `Reading ${sources.length} source${sources.length === 1 ? "" : "s"}…`,
      };
      const generationStart = performance.now();
      let generated = "";
      let supportingQuotes: ReadonlyMap<number, QuotedPassage> | undefined;
      const furtherSources: Array<{ n: number; claim: string }> = [];
      yield { type: "status", status: "writing", message: "Writing the answer…" };
      let written: WrittenByModel | null = null;
      if (askModel && dependencies.llm) {
        written = yield* writeWithModel({
          // A follow-up the rewrite left as asked ("And once I pass 15 years?") is read with the question before it.
          asked:
            context.history.length === 0 || query === asked
              ? asked
              : `${asked} (a follow-up to: "${lastQuestion(context)}")`,
          sources,
          signal,
          llm: dependencies.llm,
          logger,
          lead: `${caveat ?? ""}${modelFacts.join("")}`,
          checkedFacts: modelFacts,
        });
        verification = written.verification;
        // The model saying the documents do not answer stands, unless the reader found a direct answer.
        if (written.outcome === "refusal" && directAnswer === null) noContext = true;
      }
      if (written?.outcome === "verified") {
        generated = written.text;
        supportingQuotes = new Map([...written.quotes, ...(directAnswer?.quotes ?? [])]);
        noContext = false;
      } else if (!noContext) {
        // The reader's own answer stands; what the model was shown (the lead) is not shown twice.
        ({ generated, supportingQuotes } = yield* writeExtractively({
          asked,
          sources,
          signal,
          generator: dependencies.generator,
          caveat,
          directAnswer,
          furtherSources,
          shown: written?.lead ?? "",
          note: written?.outcome === "unavailable" ? LLM_UNAVAILABLE_NOTE : undefined,
        }));
      }
      throwIfAborted(signal);
      lap("generation", generationStart);
      if (noContext) {
        answerText = noContextText(sources.length, uncovered);
        yield { type: "delta", text: answerText };
        citations = await closestSources(sources, query);
      } else {
        ({ answer: answerText, citations } = await buildCitations(
          generated,
          sources,
          pageTexts,
          dependencies.linkForCitation,
          supportingQuotes,
          furtherSources,
        ));
        // An answer that cites nothing is the generator saying the sources do not hold the answer:
        // treat it as no-context and show the closest sources, never an unsupported answer.
        if (citations.length === 0) {
          noContext = true;
          citations = await closestSources(sources, query);
        }
      }
    }
    throwIfAborted(signal);
    citations = citations.map((citation) =>
      isQuotedInAnswer(answerText, citation) ? { ...citation, quotedInAnswer: true } : citation,
    );
    yield { type: "citations", citations };
    lap("total", startedAt);
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
        : { reading: { reader: chosen.reader, score: Math.round(chosen.score * 1000) / 1000 } }),
    };
    logger.info(
      { noContext: answer.noContext, citations: citations.length, latencyMs: timingsMs.total },
      "question answered",
    );
    yield { type: "done", answer };
  } catch (error) {
    yield failureEvent(error, signal, logger, startedAt, context.requestId);
  }
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

/** The reply when nothing found answers: no sources at all, none relevant, or a name or year not covered. */
function noContextText(sourceCount: number, uncovered: string | null): string {
  if (sourceCount === 0) return NO_SOURCES_ANSWER;
  return uncovered === null ? NO_CONTEXT_ANSWER : `${uncovered} The closest sources are below.`;
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
