/**
 * Writing the reply once the readers have chosen (answer-question.ts decides the plan): the no-context
 * reply with the closest sources; or the language model's answer, shown sentence by sentence as each
 * passes the check (write-verified-answer.ts), with the reader's own answer standing when the model's
 * does not; or, without a model, the reader's direct answer and the extractive generator's quotes. The
 * [n] markers become citations (citations.ts).
 */
import type { PageText } from "../domain/types.js";
import type { Logger } from "../logger.js";
import { throwIfAborted } from "./answer-aborted.js";
import type { AnswerEvent, AnswerVerificationSummary, Citation } from "./answer-events.js";
import { buildCitations, type LinkForCitation, type QuotedPassage } from "./citations/citations.js";
import type { DirectAnswer } from "./compose/direct-answer.js";
import type { AnswerGenerator, NumberedSource } from "./generate/generator.js";
import { repeatsShownText } from "./generate/repeated-statement.js";
import {
  LLM_UNAVAILABLE_NOTE,
  type LlmAnswering,
  type ModelAnswer,
  writeVerifiedAnswer,
} from "./generate/write-verified-answer.js";

export const NO_CONTEXT_ANSWER =
  "I couldn't find this in the documents available here. The closest sources are below — they may help, but they do not answer the question.";

/** When the search returns nothing at all there are no closest sources to point to. */
export const NO_SOURCES_ANSWER = "I couldn't find anything about this in the documents available here.";

/** Quotes of the extractive generator shown after a direct answer (only those that support it). */
const QUOTES_AFTER_DIRECT_ANSWER = 1;

/** What answer-question.ts decided: which reply to write, from what. */
export type AnswerPlan = {
  /** The question as searched (spelling repaired). */
  asked: string;
  /** The question as the model reads it (a follow-up with the question before it). */
  askedOfModel: string;
  /** The search query, for the closest sources' quotes. */
  query: string;
  sources: NumberedSource[];
  /** Said before the answer: a name the question gives that no document does. */
  caveat: string | undefined;
  /** Why the documents cannot answer (a name or a year they do not cover), or null. */
  uncovered: string | null;
  /** The readers found no answer. */
  noContext: boolean;
  /** The language model is asked (the sources are plausibly about the question). */
  askModel: boolean;
  directAnswer: DirectAnswer | null;
  /** The reader's answer handed to the model as checked facts, and shown before its sentences. */
  modelFacts: string[];
};

/** What writing the reply needs besides the plan. */
export type ReplyTools = {
  generator: AnswerGenerator;
  llm: LlmAnswering | null;
  linkForCitation: LinkForCitation;
  pageTexts: (documentId: string) => Promise<PageText[]>;
  closestSources: (sources: NumberedSource[], query: string) => Promise<Citation[]>;
  signal: AbortSignal | undefined;
  logger: Logger;
};

export type WrittenReply = {
  answerText: string;
  citations: Citation[];
  noContext: boolean;
  verification?: AnswerVerificationSummary;
};

/** Streams the reply the plan calls for and returns it with its citations. */
export async function* writeReply(plan: AnswerPlan, tools: ReplyTools): AsyncGenerator<AnswerEvent, WrittenReply> {
  const { sources } = plan;
  if (plan.noContext && !plan.askModel) return yield* writeNoContext(plan, tools);
  yield {
    type: "status",
    status: "reading",
    message: `Reading ${sources.length} source${sources.length === 1 ? "" : "s"}…`,
  };
  yield { type: "status", status: "writing", message: "Writing the answer…" };
  const written = plan.askModel && tools.llm ? yield* writeWithModel(plan, tools.llm, tools) : null;
  const verification = written?.verification;
  const withVerification = <T extends object>(reply: T) =>
    verification === undefined ? reply : { ...reply, verification };
  // The model saying the documents do not answer stands, unless the reader found a direct answer.
  const refused = plan.noContext || (written?.outcome === "refusal" && plan.directAnswer === null);
  if (written?.outcome !== "verified" && refused) return withVerification(yield* writeNoContext(plan, tools));
  const furtherSources: Array<{ n: number; claim: string }> = [];
  const { generated, supportingQuotes } =
    written?.outcome === "verified"
      ? // The reader's quotes stand beside the model's only when its answer was shown (a quoted window is not).
        { generated: written.text, supportingQuotes: new Map([...written.quotes, ...shownQuotes(plan)]) }
      : // The reader's own answer stands; what the model was shown (the lead) is not shown twice.
        yield* writeExtractively(plan, tools, {
          furtherSources,
          shown: written?.lead ?? "",
          note: written?.outcome === "unavailable" ? LLM_UNAVAILABLE_NOTE : undefined,
        });
  throwIfAborted(tools.signal);
  const { answer, citations } = await buildCitations(
    generated,
    sources,
    tools.pageTexts,
    tools.linkForCitation,
    supportingQuotes,
    furtherSources,
  );
  // An answer that cites nothing is the generator saying the sources do not hold the answer:
  // treat it as no-context and show the closest sources, never an unsupported answer.
  if (citations.length === 0)
    return withVerification({
      answerText: answer,
      citations: await tools.closestSources(sources, plan.query),
      noContext: true,
    });
  return withVerification({ answerText: answer, citations, noContext: false });
}

function shownQuotes(plan: AnswerPlan): ReadonlyMap<number, QuotedPassage> {
  return plan.modelFacts.length > 0 && plan.directAnswer !== null ? plan.directAnswer.quotes : new Map();
}

/** The reply when nothing found answers: no sources at all, none relevant, or a name or year not covered. */
async function* writeNoContext(plan: AnswerPlan, tools: ReplyTools): AsyncGenerator<AnswerEvent, WrittenReply> {
  const answerText = noContextText(plan.sources.length, plan.uncovered);
  yield { type: "delta", text: answerText };
  return { answerText, citations: await tools.closestSources(plan.sources, plan.query), noContext: true };
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
async function* writeWithModel(
  plan: AnswerPlan,
  llm: LlmAnswering,
  tools: Pick<ReplyTools, "signal" | "logger">,
): AsyncGenerator<AnswerEvent, WrittenByModel> {
  const lead = `${plan.caveat ?? ""}${plan.modelFacts.join("")}`;
  if (lead !== "") yield { type: "delta", text: lead };
  const written = yield* writeVerifiedAnswer({
    question: plan.askedOfModel,
    sources: plan.sources,
    facts: plan.modelFacts,
    signal: tools.signal,
    llm,
    logger: tools.logger,
    repeats: (sentence) => repeatsShownText(sentence, lead),
    separator: lead === "" ? "" : "\n",
  });
  return { ...written, text: `${lead}${written.text}`, lead };
}

/**
 * The extractive answer, streamed: the caveat and the direct answer, then the generator's quotes — after
 * a direct answer only one that supports it; the others' markers go to `furtherSources`.
 */
async function* writeExtractively(
  plan: AnswerPlan,
  tools: Pick<ReplyTools, "signal" | "generator">,
  options: {
    furtherSources: Array<{ n: number; claim: string }>;
    /** Text of the answer already streamed (the lead shown before the model was asked): not streamed again. */
    shown: string;
    /** Said before the quotes (the language model is unavailable). */
    note: string | undefined;
  },
): AsyncGenerator<
  AnswerEvent,
  { generated: string; supportingQuotes: ReadonlyMap<number, QuotedPassage> | undefined }
> {
  const { directAnswer, caveat } = plan;
  const { signal } = tools;
  const { shown } = options;
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
  for await (const text of tools.generator.generate(plan.asked, plan.sources, signal)) {
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

/** The reply when nothing found answers: no sources at all, none relevant, or a name or year not covered. */
function noContextText(sourceCount: number, uncovered: string | null): string {
  if (sourceCount === 0) return NO_SOURCES_ANSWER;
  return uncovered === null ? NO_CONTEXT_ANSWER : `${uncovered} The closest sources are below.`;
}
