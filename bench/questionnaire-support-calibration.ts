/**
 * `npx tsx bench/questionnaire-support-calibration.ts`: calibrates the support test of
 * src/questionnaire/answer/answer-support.ts on Northwind (250 page-cited questions, `../shared/data/northwind-rag-qa`),
 * kept apart from the enterprise questions the precision of "answered" is reported on. Each question is
 * answered once through the chat pipeline (`core.answerQuestion`, as a questionnaire row is); then, per
 * share of the question's content words one quote must hold, it prints how many rows would be
 * "answered" and of those how many cite a gold page (precision), with and without the direct-answer rule.
 *
 * Configuration from the environment as for `folio` (FOLIO_EMBED_MODEL=none: keyword-only).
 */
import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Answer } from "../src/answer/answer-events.js";
import { createFolio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import { goldPagesOf } from "../src/evaluation/answer-evaluation.js";
import {
  deleteEvaluationSpace,
  ingestIntoEvaluationSpace,
  newEvaluationSpaceId,
} from "../src/evaluation/evaluation-space.js";
import { createLogger } from "../src/logger.js";
import {
  judgeSupport,
  MIN_SHARED,
  passageCoverage,
  questionTerms,
} from "../src/questionnaire/answer/answer-support.js";
import { sharedData } from "../test/support/shared-paths.js";

const THRESHOLDS = [0, 0.34, 0.4, 0.5, 0.6, 0.67, 0.75, 0.8, 1];

const config = loadConfig(process.env, process.cwd());
const folio = await createFolio(config, createLogger({ level: "warn" }), {
  embeddingCacheDir: path.join(config.dataDir, "embedding-cache"),
});
try {
  const docsDir = sharedData("northwind-rag-qa", "pdfs");
  const spaceId = newEvaluationSpaceId();
  const files = (await readdir(docsDir)).filter((name) => name.endsWith(".pdf")).sort();
  await ingestIntoEvaluationSpace(
    folio,
    spaceId,
    files.map((file) => path.join(docsDir, file)),
  );
  const fileOf = new Map(
    (await folio.catalog.listDocuments(spaceId)).map((document) => [document.id, document.fileName]),
  );
  const entries = (await readFile(sharedData("northwind-rag-qa", "ground_truth.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { question: string; truth: string })
    .map((entry) => ({ question: entry.question, gold: goldPagesOf(entry.truth) }))
    .filter((entry) => entry.gold.length > 0);
  const measured: Array<{ noContext: boolean; direct: boolean; coverage: number; hit: boolean; shipped: boolean }> = [];
  for (const entry of entries) {
    let answer: Answer | null = null;
    for await (const event of folio.core.answerQuestion(entry.question, {
      spaceIds: [spaceId],
      history: [],
      requestId: randomUUID(),
    })) {
      if (event.type === "done") answer = event.answer;
    }
    if (!answer) throw new Error(`no answer for ${entry.question}`);
    const terms = questionTerms(entry.question);
    // The best single quote's share of the question's words (with enough words shared to count).
    const coverage = Math.max(
      0,
      ...answer.citations.map((citation) => {
        const { shared, ratio } = passageCoverage(terms, citation.quote);
        return shared >= Math.min(MIN_SHARED, terms.length) ? ratio : 0;
      }),
    );
    const hit =
      !answer.noContext &&
      answer.citations.some((citation) =>
        entry.gold.some(
          (gold) =>
            gold.file === fileOf.get(citation.documentId) &&
            citation.pageStart !== null &&
            gold.page >= citation.pageStart &&
            gold.page <= (citation.pageEnd ?? citation.pageStart),
        ),
      );
    measured.push({
      noContext: answer.noContext,
      direct: answer.value !== undefined,
      coverage,
      hit,
      shipped: judgeSupport(entry.question, answer).supported,
    });
  }
  await deleteEvaluationSpace(folio, spaceId);
  const withSources = measured.filter((row) => !row.noContext);
  const table = THRESHOLDS.map((threshold) => {
    const byQuote = withSources.filter((row) => row.coverage >= threshold && row.coverage > 0);
    const answered = withSources.filter((row) => row.direct || (row.coverage >= threshold && row.coverage > 0));
    const hits = answered.filter((row) => row.hit).length;
    return {
      minCoverage: threshold,
      answered: answered.length,
      precision: Number((hits / Math.max(1, answered.length)).toFixed(3)),
      answeredByQuoteAlone: byQuote.length,
      precisionByQuoteAlone: Number((byQuote.filter((row) => row.hit).length / Math.max(1, byQuote.length)).toFixed(3)),
    };
  });
  process.stdout.write(
    `${JSON.stringify(
      {
        embedder: folio.embedder?.modelId ?? "none",
        questions: measured.length,
        notFound: measured.length - withSources.length,
        hitAtCitedWithSources: Number(
          (withSources.filter((row) => row.hit).length / Math.max(1, withSources.length)).toFixed(3),
        ),
        directAnswers: {
          rows: withSources.filter((row) => row.direct).length,
          hits: withSources.filter((row) => row.direct && row.hit).length,
        },
        table,
        // The support test as shipped: coverage, the quantity and definition checks, the document's name.
        shipped: {
          answered: measured.filter((row) => row.shipped).length,
          precision: Number(
            (
              measured.filter((row) => row.shipped && row.hit).length /
              Math.max(1, measured.filter((row) => row.shipped).length)
            ).toFixed(3),
          ),
        },
      },
      null,
      2,
    )}\n`,
  );
} finally {
  await folio.close();
}
