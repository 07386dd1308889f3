/**
 * The answer library: approved question/answer pairs per space, added from completed questionnaires,
 * listed, removed, and matched against new questions. A new question matches an approved one when
 * their embeddings (the configured embedder, both sides embedded alike, without the query instruction)
 * are at least `threshold` alike AND no near-miss guard (near-miss-guards.ts) finds that they ask
 * different things. Without an embedder (FOLIO_EMBED_MODEL=none) the match is strictly lexical
 * (lexical-similarity.ts) under the same guards.
 */

import type { ApprovedAnswerMatch, ApprovedAnswerSource } from "../answer/approved-answer-source.js";
import type { Embedder } from "../embedding/embedder.js";
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { ApprovedAnswerForMatching, ApprovedAnswerRecord, ApprovedAnswerStore } from "./approved-answer-store.js";
import { DEFAULT_APPROVED_ANSWER_THRESHOLD } from "./approved-answer-threshold.js";
import { LEXICAL_MATCH_THRESHOLD, lexicalSimilarity } from "./lexical-similarity.js";
import { findNearMiss, type NearMiss } from "./near-miss-guards.js";
import { type QuestionAnswerColumns, readQuestionAnswerPairs } from "./read-question-answer-pairs.js";

export { DEFAULT_APPROVED_ANSWER_THRESHOLD };

/** One stored question scored against a new one, with what the guards found. */
export type ScoredCandidate = {
  record: ApprovedAnswerForMatching;
  similarity: number;
  nearMiss: NearMiss | null;
};

export type AddQuestionnaireRequest = {
  spaceId: string;
  fileName: string;
  bytes: Uint8Array;
  addedBy: string | null;
  columns?: QuestionAnswerColumns;
};

export type AddQuestionnaireResult = {
  file: string;
  spaceId: string;
  added: number;
  /** Pairs from an earlier file of the same name in this space, replaced by these. */
  replaced: number;
  questionColumn: string;
  answerColumn: string;
  sheets: string[];
  /** Rows with a question but no answer (or the reverse), left out. */
  skippedRows: number;
};

export type ApprovedAnswerLibraryOptions = {
  store: ApprovedAnswerStore;
  /** Null: strict lexical matching (FOLIO_EMBED_MODEL=none). */
  embedder: Embedder | null;
  threshold?: number;
  lexicalThreshold?: number;
  /** How long a space's stored questions are kept in memory between reads (default 30 s). */
  cacheMs?: number;
  logger: Logger;
};

const DEFAULT_CACHE_MS = 30_000;

/** What is compared: the question's words, whitespace collapsed. */
function matchingText(question: string): string {
  return question.replace(/\s+/g, " ").trim();
}

function dot(left: number[], right: number[]): number {
  let sum = 0;
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) sum += (left[index] ?? 0) * (right[index] ?? 0);
  return sum;
}

/**
 * The approved answer to reuse among scored candidates: the most similar one the guards let through,
 * if it reaches the threshold. One the guards stop never hides a less similar one that passes.
 */
export function chooseApprovedAnswer(candidates: ScoredCandidate[], threshold: number): ScoredCandidate | undefined {
  const passing = candidates
    .filter((candidate) => candidate.nearMiss === null)
    .sort((left, right) => right.similarity - left.similarity)[0];
  return passing !== undefined && passing.similarity >= threshold ? passing : undefined;
}

export function toApprovedAnswerMatch(record: ApprovedAnswerRecord, similarity: number): ApprovedAnswerMatch {
  return {
    answer: record.answer,
    origin: {
      file: record.file,
      ...(record.sheet === null ? {} : { sheet: record.sheet }),
      ...(record.row === null ? {} : { row: record.row }),
      ...(record.addedBy === null ? {} : { addedBy: record.addedBy }),
      addedAt: record.addedAt.toISOString(),
    },
    similarity: Math.round(similarity * 1000) / 1000,
  };
}

export class ApprovedAnswerLibrary implements ApprovedAnswerSource {
  readonly threshold: number;
  readonly mode: "embedding" | "lexical";
  private readonly store: ApprovedAnswerStore;
  private readonly embedder: Embedder | null;
  private readonly logger: Logger;
  /**
   * Each space's stored questions with their vectors, read once and kept for `cacheMs`: every chat
   * question is matched, and reading hundreds of vectors per question cost more than embedding it.
   * This process forgets a space when it adds or removes; another replica's change shows within `cacheMs`.
   */
  private readonly cached = new Map<string, { at: number; records: Promise<ApprovedAnswerForMatching[]> }>();
  private readonly cacheMs: number;

  constructor(options: ApprovedAnswerLibraryOptions) {
    this.store = options.store;
    this.embedder = options.embedder;
    this.mode = options.embedder ? "embedding" : "lexical";
    this.threshold = options.embedder
      ? (options.threshold ?? DEFAULT_APPROVED_ANSWER_THRESHOLD)
      : (options.lexicalThreshold ?? LEXICAL_MATCH_THRESHOLD);
    this.logger = options.logger;
    this.cacheMs = options.cacheMs ?? DEFAULT_CACHE_MS;
  }

  async match(spaceId: string, question: string): Promise<ApprovedAnswerMatch | undefined> {
    const chosen = chooseApprovedAnswer(await this.score(spaceId, question), this.threshold);
    if (!chosen) return undefined;
    this.logger.debug(
      { space: spaceId, approvedAnswerId: chosen.record.id, similarity: chosen.similarity },
      "approved answer matched",
    );
    return toApprovedAnswerMatch(chosen.record, chosen.similarity);
  }

  /**
   * Every approved answer of the space scored against the question, most similar first. The guards look
   * only at candidates that could reach the threshold, unless `guardAll` (evaluation, calibration).
   */
  async score(
    spaceId: string,
    question: string,
    options: { signal?: AbortSignal; guardAll?: boolean } = {},
  ): Promise<ScoredCandidate[]> {
    const { signal } = options;
    const guardFloor = options.guardAll ? Number.NEGATIVE_INFINITY : this.threshold - 0.1;
    const asked = matchingText(question);
    if (asked === "") return [];
    const records = await this.recordsOf(spaceId);
    if (records.length === 0) return [];
    const similarities = this.embedder
      ? await this.embeddingSimilarities(asked, records, this.embedder, signal)
      : records.map((record) => lexicalSimilarity(asked, record.question));
    return records
      .map((record, index) => {
        const similarity = similarities[index] ?? 0;
        // Guards only where they can change the outcome: candidates far below any threshold are skipped.
        const nearMiss = similarity >= guardFloor ? findNearMiss(asked, record.question) : null;
        return { record, similarity, nearMiss };
      })
      .sort((left, right) => right.similarity - left.similarity);
  }

  private recordsOf(spaceId: string): Promise<ApprovedAnswerForMatching[]> {
    const now = Date.now();
    const hit = this.cached.get(spaceId);
    if (hit && now - hit.at < this.cacheMs) return hit.records;
    const records = this.store.listForMatching(spaceId);
    this.cached.set(spaceId, { at: now, records });
    // A failed read is not kept: the next question reads again.
    records.catch(() => this.cached.delete(spaceId));
    return records;
  }

  private async embeddingSimilarities(
    asked: string,
    records: ApprovedAnswerForMatching[],
    embedder: Embedder,
    signal?: AbortSignal,
  ): Promise<number[]> {
    // Stored questions without a vector of this model (added keyword-only, or before a change of model) are embedded once, now.
    const stale = records.filter((record) => record.embedding === null || record.embeddingModel !== embedder.modelId);
    if (stale.length > 0) {
      const vectors = await embedder.embedPassages(
        stale.map((record) => matchingText(record.question)),
        { priority: "interactive", signal },
      );
      const embeddings = stale.map((record, index) => ({ id: record.id, vector: vectors[index] ?? [] }));
      await this.store.saveEmbeddings(embedder.modelId, embeddings);
      embeddings.forEach(({ vector }, index) => {
        const record = stale[index];
        if (record) {
          record.embedding = vector;
          record.embeddingModel = embedder.modelId;
        }
      });
    }
    const [askedVector] = await embedder.embedPassages([asked], { priority: "interactive", signal });
    if (!askedVector) throw new FolioError("embedding_failed", "The embedder returned no vector for the question.");
    return records.map((record) => dot(askedVector, record.embedding ?? []));
  }

  /** Reads a completed questionnaire's question/answer pairs and stores them as this space's approved answers. */
  async addQuestionnaire(request: AddQuestionnaireRequest): Promise<AddQuestionnaireResult> {
    const read = await readQuestionAnswerPairs(request.bytes, request.fileName, request.columns ?? {});
    const vectors = this.embedder
      ? await this.embedder.embedPassages(
          read.pairs.map((pair) => matchingText(pair.question)),
          { priority: "background" },
        )
      : null;
    const embedder = this.embedder;
    this.cached.delete(request.spaceId);
    const { added, replaced } = await this.store.addFromFile({
      spaceId: request.spaceId,
      file: request.fileName,
      addedBy: request.addedBy,
      entries: read.pairs.map((pair, index) => {
        const vector = vectors?.[index];
        return {
          question: pair.question,
          answer: pair.answer,
          sheet: pair.sheet,
          row: pair.row,
          ...(embedder && vector ? { embedding: { model: embedder.modelId, vector } } : {}),
        };
      }),
    });
    // Again after the write: a question matched meanwhile may have cached the old pairs.
    this.cached.delete(request.spaceId);
    this.logger.info(
      { space: request.spaceId, file: request.fileName, added: added.length, replaced },
      "approved answers added",
    );
    return {
      file: request.fileName,
      spaceId: request.spaceId,
      added: added.length,
      replaced,
      questionColumn: read.questionColumn,
      answerColumn: read.answerColumn,
      sheets: read.sheets,
      skippedRows: read.skippedRows,
    };
  }

  list(spaceId: string): Promise<ApprovedAnswerRecord[]> {
    return this.store.list(spaceId);
  }

  remove(spaceId: string, id: string): Promise<boolean> {
    this.cached.delete(spaceId);
    return this.store.remove(spaceId, id).finally(() => this.cached.delete(spaceId));
  }
}
