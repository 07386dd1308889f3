/**
 * `folio eval answers`: for QA sets whose reference answers cite `file.pdf#page=N` (Northwind), ingests
 * the documents into a throw-away space through the normal ingestion path, then asks every question
 * and measures whether the gold page is among the retrieved chunks' pages (hit@1, hit@5), whether a
 * citation points at a gold page (hit@cited), how often the answer is "not in the documents", and latency.
 * With a language model it also reports how many of the draft's cited sentences the sources support
 * (citation support rate), how often the extractive answer took over, and the time to the first token.
 */
import { randomUUID } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Answer } from "../answer/answer-events.js";
import type { Folio } from "../composition-root.js";
import { FolioError } from "../errors.js";
import { deleteEvaluationSpace, ingestIntoEvaluationSpace, newEvaluationSpaceId } from "./evaluation-space.js";
import { summarizeLatency } from "./latency.js";

export type AnswerEvaluationReport = {
  dataset: string;
  questions: number;
  documents: { ingested: number; rejected: number };
  pageHitAt1: number;
  pageHitAt5: number;
  pageHitAtCited: number;
  noContextRate: number;
  /** "llm" when a language model wrote the answers, else "extractive". */
  generator: "llm" | "extractive";
  /**
   * Draft sentences citing a source that verification accepted, over all such sentences (`citedSentences`);
   * null when extractive or when no draft cited anything.
   */
  citationSupportRate: number | null;
  citedSentences: number;
  /** Share of answered questions whose draft was replaced by the extractive answer (unsupported, or the model failed). */
  fallbackRate: number | null;
  /** Time to the first streamed text of the answer (a no-context reply's included). */
  timeToFirstTokenMs: { p50: number; p95: number };
  latencyMs: { p50: number; p95: number };
};

type GoldPage = { file: string; page: number };

/** `[file name.pdf#page=N]` (the name may hold spaces inside brackets) or a bare `file.pdf#page=N`. */
const CITATION = /\[([^[\]#]+?\.pdf)#page=(\d+)\]|([^\s[\]#]+\.pdf)#page=(\d+)/gi;

export function goldPagesOf(reference: string): GoldPage[] {
  return [...reference.matchAll(CITATION)].map((match) => ({
    file: (match[1] ?? match[3] ?? "").trim(),
    page: Number(match[2] ?? match[4]),
  }));
}

function pageRange(start: number | null, end: number | null): string {
  return end !== null && end !== start ? `${start}-${end}` : String(start);
}

function ratio(count: number, total: number): number {
  return total === 0 ? 0 : Math.round((count / total) * 1000) / 1000;
}

export async function runAnswerEvaluation(
  folio: Folio,
  options: {
    datasetPath: string;
    docsDir: string;
    k?: number;
    /** Ask only the first N questions (an LLM on a CPU takes seconds per answer). */
    limit?: number;
    /** Where to write one JSON line per question: gold pages, the top results' pages, the cited pages. */
    runOut?: string;
    onProgress?: (message: string) => void;
  },
): Promise<AnswerEvaluationReport> {
  const k = options.k ?? 5;
  const lines = (await readFile(options.datasetPath, "utf8")).split("\n").filter((line) => line.trim().length > 0);
  const questions = lines
    .map((line) => JSON.parse(line) as { question?: string; truth?: string; answer?: string })
    .map((entry) => ({ question: entry.question ?? "", gold: goldPagesOf(entry.truth ?? entry.answer ?? "") }))
    .filter((entry) => entry.question.length > 0 && entry.gold.length > 0)
    .slice(0, options.limit ?? Number.POSITIVE_INFINITY);
  if (questions.length === 0) {
    throw new FolioError(
      "dataset_unusable",
      `No question in ${options.datasetPath} cites a page as "file.pdf#page=N".`,
    );
  }
  const spaceId = newEvaluationSpaceId();
  const files = (await readdir(options.docsDir)).filter((name) => !name.startsWith(".")).sort();
  try {
    const space = await ingestIntoEvaluationSpace(
      folio,
      spaceId,
      files.map((fileName) => path.join(options.docsDir, fileName)),
      options.onProgress,
    );

    let hitAt1 = 0;
    let hitAt5 = 0;
    let hitCited = 0;
    let noContext = 0;
    const latencies: number[] = [];
    const firstTokenLatencies: number[] = [];
    let citedSentences = 0;
    let supportedSentences = 0;
    let verifiedAnswers = 0;
    let fallbacks = 0;
    const perQuestion: string[] = [];
    for (const [index, entry] of questions.entries()) {
      const isGold = (file: string, pageStart: number | null, pageEnd: number | null) =>
        entry.gold.some(
          (gold) =>
            gold.file === file && pageStart !== null && gold.page >= pageStart && gold.page <= (pageEnd ?? pageStart),
        );
      const results = await folio.retriever.search({ query: entry.question, spaceIds: [spaceId], limit: k });
      if (results[0] && isGold(results[0].file, results[0].pageStart, results[0].pageEnd)) hitAt1 += 1;
      if (results.slice(0, 5).some((result) => isGold(result.file, result.pageStart, result.pageEnd))) hitAt5 += 1;

      const started = performance.now();
      let answer: Answer | null = null;
      for await (const event of folio.core.answerQuestion(entry.question, {
        spaceIds: [spaceId],
        history: [],
        requestId: randomUUID(),
      })) {
        if (event.type === "delta" && firstTokenLatencies.length === latencies.length)
          firstTokenLatencies.push(performance.now() - started);
        if (event.type === "done") answer = event.answer;
      }
      latencies.push(performance.now() - started);
      if (firstTokenLatencies.length < latencies.length) firstTokenLatencies.push(performance.now() - started);
      const verification = answer?.verification;
      if (verification) {
        verifiedAnswers += 1;
        citedSentences += verification.citedSentences;
        supportedSentences += verification.supportedSentences;
        if (verification.outcome !== "verified" && verification.outcome !== "refusal") fallbacks += 1;
      }
      if (answer?.noContext) noContext += 1;
      if (
        answer &&
        !answer.noContext &&
        answer.citations.some((citation) => isGold(citation.file, citation.pageStart, citation.pageEnd))
      )
        hitCited += 1;
      perQuestion.push(
        JSON.stringify({
          question: entry.question,
          gold: entry.gold.map((gold) => `${gold.file}#${gold.page}`),
          top: results.map((result) => `${result.file}#${pageRange(result.pageStart, result.pageEnd)}`),
          noContext: answer?.noContext ?? null,
          answer: answer?.answer ?? null,
          timingsMs: answer?.timingsMs ?? null,
          cited: (answer?.citations ?? []).map(
            (citation) => `${citation.file}#${pageRange(citation.pageStart, citation.pageEnd)}`,
          ),
        }),
      );
      if ((index + 1) % 50 === 0) options.onProgress?.(`asked ${index + 1}/${questions.length} questions`);
    }
    if (options.runOut) await writeFile(options.runOut, `${perQuestion.join("\n")}\n`);
    return {
      dataset: path.basename(options.datasetPath),
      questions: questions.length,
      documents: { ingested: space.ingested, rejected: space.rejected.length },
      pageHitAt1: ratio(hitAt1, questions.length),
      pageHitAt5: ratio(hitAt5, questions.length),
      pageHitAtCited: ratio(hitCited, questions.length),
      noContextRate: ratio(noContext, questions.length),
      generator: folio.languageModel ? "llm" : "extractive",
      citationSupportRate: citedSentences > 0 ? ratio(supportedSentences, citedSentences) : null,
      citedSentences,
      fallbackRate: folio.languageModel ? ratio(fallbacks, verifiedAnswers) : null,
      timeToFirstTokenMs: summarizeLatency(firstTokenLatencies),
      latencyMs: summarizeLatency(latencies),
    };
  } finally {
    await deleteEvaluationSpace(folio, spaceId);
  }
}
