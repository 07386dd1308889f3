/**
 * Measures approved-answer reuse on labelled question pairs and calibrates its threshold: a probe
 * question either should reuse one approved question's answer ("match") or must reuse none
 * ("no_match"). Pure: the driver (bench/approved-answers-eval.ts) scores the probes with the real
 * library and hands the outcomes here.
 */

export type ReuseProbeOutcome = {
  id: string;
  /** The approved question the probe was written against; halves are split by it, never within it. */
  group: string;
  kind: string;
  expected: "match" | "no_match";
  /** The most similar approved question the guards let through, whatever its similarity; null when none. */
  best: { question: string; similarity: number } | null;
  /**
   * Whether reusing `best` would be right: it is the expected approved question of a "match" probe, or a
   * question the labels accept as equivalent to the probe (a near miss of one question may be another's paraphrase).
   */
  bestIsRight: boolean;
};

export type ReuseMetrics = {
  threshold: number;
  probes: number;
  shouldMatch: number;
  reused: number;
  correctReuses: number;
  /** correct reuses / reuses (1 when nothing was reused). */
  precision: number;
  /** correct reuses of "match" probes / probes that should match. */
  recall: number;
  /** Probes whose reuse was wrong: a near miss answered, or a paraphrase given another question's answer. */
  wrongReuses: ReuseProbeOutcome[];
};

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export function isReused(outcome: ReuseProbeOutcome, threshold: number): boolean {
  return outcome.best !== null && outcome.best.similarity >= threshold;
}

export function measureReuse(outcomes: ReuseProbeOutcome[], threshold: number): ReuseMetrics {
  const reused = outcomes.filter((outcome) => isReused(outcome, threshold));
  const correct = reused.filter((outcome) => outcome.bestIsRight);
  const correctMatches = correct.filter((outcome) => outcome.expected === "match");
  const shouldMatch = outcomes.filter((outcome) => outcome.expected === "match").length;
  return {
    threshold: round(threshold),
    probes: outcomes.length,
    shouldMatch,
    reused: reused.length,
    correctReuses: correct.length,
    precision: reused.length === 0 ? 1 : round(correct.length / reused.length),
    recall: shouldMatch === 0 ? 0 : round(correctMatches.length / shouldMatch),
    wrongReuses: reused.filter((outcome) => !outcome.bestIsRight),
  };
}

/**
 * The lowest threshold (so the highest recall) at which precision on these outcomes is at least
 * `minimumPrecision`. Thresholds tried are the similarities that occur and the step just above each,
 * on a 0.005 grid (just above a wrong reuse is where it stops being reused); 1 when none will do.
 */
export function calibrateThreshold(outcomes: ReuseProbeOutcome[], minimumPrecision: number): number {
  const steps = outcomes
    .map((outcome) => outcome.best?.similarity)
    .filter((similarity): similarity is number => similarity !== undefined)
    .map((similarity) => Math.floor(similarity * 200));
  const candidates = [...new Set(steps.flatMap((step) => [step, step + 1]))]
    .sort((left, right) => left - right)
    .map((step) => step / 200);
  for (const threshold of candidates) {
    if (threshold <= 1 && measureReuse(outcomes, threshold).precision >= minimumPrecision) return threshold;
  }
  return 1;
}

/** Splits by group with a stable hash, so a question's paraphrases and near misses stay on one side. */
export function splitByGroup(outcomes: ReuseProbeOutcome[]): {
  calibration: ReuseProbeOutcome[];
  heldOut: ReuseProbeOutcome[];
} {
  const groups = [...new Set(outcomes.map((outcome) => outcome.group))].sort(
    (left, right) => stableHash(left) - stableHash(right) || left.localeCompare(right),
  );
  const calibrationGroups = new Set(groups.filter((_, index) => index % 2 === 0));
  return {
    calibration: outcomes.filter((outcome) => calibrationGroups.has(outcome.group)),
    heldOut: outcomes.filter((outcome) => !calibrationGroups.has(outcome.group)),
  };
}

/** FNV-1a of the text: a fixed, seedless order. */
function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
