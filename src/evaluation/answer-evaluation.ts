/**
 * `folio eval answers`: for QA sets whose reference answers cite `file.pdf#page=N` (Northwind), ingests
 * the documents into a throw-away space through the normal ingestion path, then asks every question
 * and measures whether the gold page is among the retrieved chunks' pages (hit@1, hit@5), whether a
 * citation points at a gold page (hit@cited), how often the answer is "not in the documents", and latency.
 */
import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Answer } from "../answer/answer-events.js";
import type { Folio } from "../composition-root.js";
import { FolioError } from "../errors.js";
import { summarizeLatency } from "./latency.js";

export type AnswerEvaluationReport = {
  dataset: string;
  questions: number;
  documents: { ingested: number; rejected: number };
  pageHitAt1: number;
  pageHitAt5: number;
  pageHitAtCited: number;
  noContextRate: number;
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

function ratio(count: number, total: number): number {
  return total === 0 ? 0 : Math.round((count / total) * 1000) / 1000;
}

export async function runAnswerEvaluation(
  folio: Folio,
  options: { datasetPath: string; docsDir: string; k?: number; onProgress?: (message: string) => void },
): Promise<AnswerEvaluationReport> {
  const k = options.k ?? 5;
  const lines = (await readFile(options.datasetPath, "utf8")).split("\n").filter((line) => line.trim().length > 0);
  const questions = lines
    .map((line) => JSON.parse(line) as { question?: string; truth?: string; answer?: string })
    .map((entry) => ({ question: entry.question ?? "", gold: goldPagesOf(entry.truth ?? entry.answer ?? "") }))
    .filter((entry) => entry.question.length > 0 && entry.gold.length > 0);
  if (questions.length === 0) {
    throw new FolioError(
      "dataset_unusable",
      `No question in ${options.datasetPath} cites a page as "file.pdf#page=N".`,
    );
  }
  const spaceId = `eval:${randomUUID()}`;
  const files = (await readdir(options.docsDir)).filter((name) => !name.startsWith(".")).sort();
  let ingested = 0;
  let rejected = 0;
  try {
    for (const fileName of files) {
      const bytes = new Uint8Array(await readFile(path.join(options.docsDir, fileName)));
      const result = await folio.ingestion.ingestFile({ bytes, fileName, spaceId, uploader: null });
      if (result.status === "rejected") rejected += 1;
      else ingested += 1;
      options.onProgress?.(`ingested ${fileName}: ${result.status}`);
    }
    await folio.sparseVectors.rebuild(spaceId);

    let hitAt1 = 0;
    let hitAt5 = 0;
    let hitCited = 0;
    let noContext = 0;
    const latencies: number[] = [];
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
        if (event.type === "done") answer = event.answer;
      }
      latencies.push(performance.now() - started);
      if (answer?.noContext) noContext += 1;
      if (
        answer &&
        !answer.noContext &&
        answer.citations.some((citation) => isGold(citation.file, citation.pageStart, citation.pageEnd))
      )
        hitCited += 1;
      if ((index + 1) % 50 === 0) options.onProgress?.(`asked ${index + 1}/${questions.length} questions`);
    }
    return {
      dataset: path.basename(options.datasetPath),
      questions: questions.length,
      documents: { ingested, rejected },
      pageHitAt1: ratio(hitAt1, questions.length),
      pageHitAt5: ratio(hitAt5, questions.length),
      pageHitAtCited: ratio(hitCited, questions.length),
      noContextRate: ratio(noContext, questions.length),
      latencyMs: summarizeLatency(latencies),
    };
  } finally {
    for (const document of await folio.catalog.listDocuments(spaceId)) await folio.core.deleteDocument(document.id);
  }
}
