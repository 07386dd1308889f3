/**
 * How alike a new question and an approved one must be for the approved answer to be reused: the
 * shipped default for bge-small-en-v1.5 and its calibration. Its own module so configuration can read
 * the default without loading the answer library.
 */

/**
 * Cosine similarity of bge-small-en-v1.5 question embeddings at or above which, guards passing, an
 * approved answer is reused: calibrated on the first half of bench/approved-answer-pairs.jsonl for
 * precision ≥ 0.95 (bench/approved-answers-eval.ts; figures in docs/benchmarks.md: precision 1 and
 * recall 0.394 on the held-out half, 1 and 0.45 on the fresh set). Another embedding model needs its own
 * calibration; FOLIO_APPROVED_ANSWER_THRESHOLD overrides it.
 */
export const DEFAULT_APPROVED_ANSWER_THRESHOLD = 0.945;
