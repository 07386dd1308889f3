/**
 * The metrics port: what Folio tells its operators about questions, uploads, the language model and
 * chat-event de-duplication. Core code and the observing wrappers speak only this interface; the
 * Prometheus exposition (prometheus-metrics.ts) is one implementation, `noMetrics` another.
 */

/** How a question ended: answered from the sources, "not in the documents", failed, or cancelled by the asker. */
export type QuestionOutcome = "answered" | "noContext" | "error" | "cancelled";

/** Stages of a question timed in seconds; `timeToFirstToken` is when the asker first sees answer text. */
export const QUESTION_STAGES = ["retrieval", "embed", "rerank", "generation", "total", "timeToFirstToken"] as const;
export type QuestionStage = (typeof QUESTION_STAGES)[number];

/** ingested/unchanged/rejected as reported by ingestion; error: it threw instead of reporting. */
export type IngestionOutcome = "ingested" | "unchanged" | "rejected" | "error";

export type QuestionObservation = {
  /** Who asked: console, slack, teams, cli… */
  adapter: string;
  outcome: QuestionOutcome;
  /** Milliseconds per stage that ran; a stage that did not run is absent. */
  stagesMs: Partial<Record<QuestionStage, number>>;
};

export type IngestionObservation = {
  adapter: string;
  outcome: IngestionOutcome;
  pages: number;
  durationMs: number;
};

export type GenerationObservation = {
  /** Tokens the model wrote for one answer (the model's own count where it has one). */
  tokens: number;
  /** From the first streamed text to the end of the stream. */
  durationMs: number;
};

export interface FolioMetrics {
  questionStarted(adapter: string): void;
  questionFinished(observation: QuestionObservation): void;
  ingestionStarted(adapter: string): void;
  ingestionFinished(observation: IngestionObservation): void;
  /** A chat event (or file share) another delivery or replica had already taken. */
  duplicateEventSkipped(adapter: string): void;
  /** Questions waiting in line for a free language-model sequence. */
  languageModelQueueDepth(depth: number): void;
  languageModelGenerated(observation: GenerationObservation): void;
  /** A request refused with "busy" (back-pressure), by the route that refused it. */
  requestRefused(reason: "busy" | "draining", route: string): void;
}

/** The text a scraper reads at GET /metrics. */
export interface MetricsExposition {
  readonly contentType: string;
  render(): Promise<string>;
}

/** Drops every observation: tests and one-shot CLI commands that serve no /metrics. */
export const noMetrics: FolioMetrics = {
  questionStarted() {},
  questionFinished() {},
  ingestionStarted() {},
  ingestionFinished() {},
  duplicateEventSkipped() {},
  languageModelQueueDepth() {},
  languageModelGenerated() {},
  requestRefused() {},
};
