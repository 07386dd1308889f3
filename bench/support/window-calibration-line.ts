/**
 * One question's line of window-reader calibration data: the candidate windows the reader itself would
 * weigh (prose-evidence.ts: every suitable window by words, the best of them by meaning too), each with
 * its features and a label — the share of the expected answer its text states — for
 * bench/calibrate-window-reader.ts. Shared by the conversation and TAT-QA feature dumps.
 */
import type { AnswerWindow } from "../../src/answer/evidence/answer-windows.js";
import { assessRelevance } from "../../src/answer/evidence/no-context.js";
import { proseEvidence } from "../../src/answer/evidence/prose-evidence.js";
import { contentTerms } from "../../src/answer/evidence/sentence-scoring.js";
import type { PassageMeaning } from "../../src/answer/evidence/window-meaning.js";
import type { SearchResult } from "../../src/domain/types.js";
import { informationNeed } from "../../src/retrieval/information-need.js";
import { termId } from "../../src/retrieval/text-analyzer.js";
import type { Catalog } from "../../src/stores/catalog.js";

export async function windowCalibrationLine(input: {
  /** Which half a question is in: odd values are the tuning half. */
  conversationIndex: number;
  question: string;
  /** What was searched: a follow-up with its thread, else the question. */
  query: string;
  results: SearchResult[];
  refusal: boolean;
  catalog: Catalog;
  meaning: PassageMeaning | null;
  label: (window: AnswerWindow) => number;
}): Promise<Record<string, unknown>> {
  const need = informationNeed(input.query);
  const terms = [...contentTerms(need)];
  const statistics = await input.catalog.getTermStatistics(
    [...new Set(input.results.map((result) => result.spaceId))],
    terms.map(termId),
  );
  const corpus = {
    passages: statistics.chunkCount,
    frequencies: new Map(terms.map((term) => [term, statistics.documentFrequencies.get(termId(term)) ?? 0])),
  };
  const prose = proseEvidence(
    { need, question: input.question, corpus, ...(input.meaning === null ? {} : { meaning: input.meaning }) },
    input.results,
  );
  const candidates = await prose.candidates();
  return {
    conversationIndex: input.conversationIndex,
    question: input.question,
    asked: prose.asked,
    refusal: input.refusal,
    coverage: assessRelevance(need, input.results.slice(0, 5)).coverage,
    windows: candidates.map(({ window, features }) => ({
      n: window.source.n,
      kind: window.kind,
      text: window.text.slice(0, 300),
      context: window.context,
      ...features,
      label: input.label(window),
    })),
  };
}
