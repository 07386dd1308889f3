/**
 * How the hybrid retriever searches: its settings and their defaults, apart from the retriever itself so
 * that the configuration (which fills them from FOLIO_RETRIEVAL_* and FOLIO_RRF_*) loads no search code.
 */
import type { FusionParameters } from "../stores/vector-index.js";
import { DEFAULT_TARGETING_SETTINGS, type TargetingSettings } from "./document-targeting.js";
import type { RetrievalMode } from "./retriever.js";

export type RetrievalSettings = {
  /** The mode used when a request names none. */
  defaultMode: RetrievalMode;
  /** Candidates each list (dense, sparse) contributes to fusion. */
  candidates: number;
  fusion: FusionParameters;
  /** How many fused results the cross-encoder rescores. */
  rerankCandidates: number;
  /** Characters of each passage the cross-encoder reads (its cost grows with length). */
  rerankPassageCharacters: number;
  /** Preference for documents whose titles the question names; null turns it off. */
  targeting: TargetingSettings | null;
  /** Preference for the passages of a financial statement the question names (statement-targeting.ts). */
  statementTargeting: boolean;
};

/**
 * Fusion weights were tuned on SciFact's train split (809 queries; `bench/tune-fusion.ts`) and checked
 * on Northwind, never on SciFact's test queries: at k = 60, dense weight 2 gave nDCG@10 0.7528 on train
 * (weight 1: 0.7514) and 209 of 249 Northwind page hits@5 (weight 1: 206). A smaller k (5–10) was
 * ~0.008 better on train and equal on Northwind; k stays at the customary 60.
 */
export const DEFAULT_RETRIEVAL_SETTINGS: RetrievalSettings = {
  defaultMode: "hybrid",
  candidates: 50,
  fusion: { k: 60, denseWeight: 2, sparseWeight: 1 },
  rerankCandidates: 20,
  rerankPassageCharacters: 1200,
  targeting: DEFAULT_TARGETING_SETTINGS,
  statementTargeting: true,
};
