/**
 * Metrics observed from outside the core: questions by adapter and outcome with their stage timings,
 * uploads with pages, duplicate chat events, the LLM's waiting line and writing speed — read back from
 * the Prometheus text a scraper would get, with exact counts.
 */
import { describe, expect, it } from "vitest";
import type { AnswerEvent } from "../../src/answer/answer-events.js";
import { FolioError } from "../../src/errors.js";
import type { FolioCore } from "../../src/folio-core.js";
import type { IngestResult } from "../../src/ingest/ingest-result.js";
import type { ChatMessage, LanguageModel, StreamOptions } from "../../src/llm/language-model.js";
import { createSequencePool } from "../../src/llm/sequence-pool.js";
import { observeCore } from "../../src/observability/observed-core.js";
import { observeLanguageModel } from "../../src/observability/observed-language-model.js";
import { createPrometheusMetrics } from "../../src/observability/prometheus-metrics.js";

/** The value of one sample line (`name{labels} value`) in the exposition text; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const answered = (noContext: boolean, timingsMs: Record<string, number>): AnswerEvent[] => [
  { type: "status", status: "searching", message: "Searching your documents…" },
  { type: "delta", text: "Up to $1000 [1]." },
  { type: "citations", citations: [] },
  {
    type: "done",
    answer: { requestId: "r", answer: "Up to $1000 [1].", noContext, citations: [], timingsMs },
  },
];

/** A core whose answers and uploads follow a script, one entry per call. */
function scriptedCore(answers: AnswerEvent[][], uploads: Array<IngestResult | Error>): FolioCore {
  return {
    async *answerQuestion() {
      const events = answers.shift() ?? [];
      for (const event of events) yield event;
    },
    async ingestFile() {
      const next = uploads.shift();
      if (next instanceof Error) throw next;
      if (next === undefined) throw new Error("no scripted upload left");
      return next;
    },
    listDocuments: async () => [],
    deleteDocument: async () => false,
    getDocument: async () => null,
    markEventProcessed: async (eventId) => !eventId.endsWith("again"),
    releaseEvent: async () => {},
    recordFeedback: async () => {},
    signedDocumentUrl: () => "http://folio.local/files/x",
  };
}

async function drain(events: AsyncIterable<AnswerEvent>): Promise<AnswerEvent[]> {
  const seen: AnswerEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe("Prometheus metrics of an observed core", () => {
  it("counts questions by adapter and outcome and times each stage", async () => {
    const metrics = createPrometheusMetrics({ processMetrics: false });
    const core = scriptedCore(
      [
        answered(false, { retrieval: 40, "retrieval.embed": 10, "retrieval.rerank": 20, generation: 300, total: 350 }),
        answered(true, { retrieval: 30, total: 35 }),
        [{ type: "error", code: "vector_store_unavailable", message: "Search is unavailable.", requestId: "r" }],
        [{ type: "error", code: "aborted", message: "The question was cancelled.", requestId: "r" }],
      ],
      [],
    );
    const slack = observeCore(core, metrics, "slack");
    const context = { spaceIds: ["console:test"], history: [], requestId: "r" };
    const events = await drain(slack.answerQuestion("How much?", context));
    expect(events.map((event) => event.type)).toEqual(["status", "delta", "citations", "done"]);
    await drain(slack.answerQuestion("Unknown?", context));
    await drain(observeCore(core, metrics, "console").answerQuestion("Broken?", context));
    await drain(slack.answerQuestion("Cancelled?", context));

    const text = await metrics.render();
    expect(sample(text, 'folio_questions_total{adapter="slack",outcome="answered"}')).toBe(1);
    expect(sample(text, 'folio_questions_total{adapter="slack",outcome="noContext"}')).toBe(1);
    expect(sample(text, 'folio_questions_total{adapter="console",outcome="error"}')).toBe(1);
    expect(sample(text, 'folio_questions_total{adapter="slack",outcome="cancelled"}')).toBe(1);
    expect(sample(text, 'folio_questions_in_flight{adapter="slack"}')).toBe(0);
    expect(sample(text, 'folio_question_stage_duration_seconds_count{stage="retrieval"}')).toBe(2);
    expect(sample(text, 'folio_question_stage_duration_seconds_sum{stage="retrieval"}')).toBeCloseTo(0.07, 6);
    expect(sample(text, 'folio_question_stage_duration_seconds_sum{stage="rerank"}')).toBeCloseTo(0.02, 6);
    expect(sample(text, 'folio_question_stage_duration_seconds_sum{stage="embed"}')).toBeCloseTo(0.01, 6);
    expect(sample(text, 'folio_question_stage_duration_seconds_count{stage="generation"}')).toBe(1);
    // total: the two answers' own totals plus the failed question's measured time.
    expect(sample(text, 'folio_question_stage_duration_seconds_count{stage="total"}')).toBe(3);
    expect(sample(text, 'folio_question_stage_duration_seconds_count{stage="time_to_first_token"}')).toBe(2);
    expect(sample(text, 'folio_question_stage_duration_seconds_bucket{le="0.025",stage="rerank"}')).toBe(1);
    expect(sample(text, 'folio_question_stage_duration_seconds_bucket{le="0.01",stage="rerank"}')).toBe(0);
  });

  it("counts a question the adapter stopped reading as cancelled, not as in flight", async () => {
    const metrics = createPrometheusMetrics({ processMetrics: false });
    const core = observeCore(scriptedCore([answered(false, { total: 5 })], []), metrics, "console");
    for await (const event of core.answerQuestion("q", { spaceIds: [], history: [], requestId: "r" })) {
      if (event.type === "delta") break;
    }
    const text = await metrics.render();
    expect(sample(text, 'folio_questions_total{adapter="console",outcome="cancelled"}')).toBe(1);
    expect(sample(text, 'folio_questions_in_flight{adapter="console"}')).toBe(0);
  });

  it("counts uploads by outcome with their pages, and duplicate chat events", async () => {
    const metrics = createPrometheusMetrics({ processMetrics: false });
    const result = (status: IngestResult["status"], pages: number | null): IngestResult => ({
      file: "a.pdf",
      documentId: status === "rejected" ? null : "d",
      status,
      pages,
      chunks: 3,
    });
    const core = observeCore(
      scriptedCore(
        [],
        [result("ingested", 12), result("unchanged", 12), result("rejected", null), new Error("disk full")],
      ),
      metrics,
      "slack",
    );
    const input = { bytes: new Uint8Array([1]), fileName: "a.pdf", spaceId: "slack:T:C", uploader: null };
    await core.ingestFile(input);
    await core.ingestFile(input);
    await core.ingestFile(input);
    await expect(core.ingestFile(input)).rejects.toThrow("disk full");
    expect(await core.markEventProcessed("slack:Ev1")).toBe(true);
    expect(await core.markEventProcessed("slack:Ev1-again")).toBe(false);

    const text = await metrics.render();
    for (const outcome of ["ingested", "unchanged", "rejected", "error"]) {
      expect(sample(text, `folio_ingestion_jobs_total{adapter="slack",outcome="${outcome}"}`)).toBe(1);
    }
    // Only newly ingested pages count: an unchanged file was not processed again.
    expect(sample(text, "folio_ingestion_pages_total")).toBe(12);
    expect(sample(text, "folio_ingestion_pages_per_second_count")).toBe(1);
    expect(sample(text, "folio_ingestion_jobs_in_flight")).toBe(0);
    expect(sample(text, 'folio_ingestion_duration_seconds_count{outcome="error"}')).toBe(1);
    expect(sample(text, 'folio_chat_events_deduplicated_total{adapter="slack"}')).toBe(1);
  });
});

/** A model with one sequence that writes the words of `reply` one by one once it holds the sequence. */
function oneSequenceModel(reply: string): LanguageModel & { release(): void } {
  const pool = createSequencePool(["sequence"], { queueLimit: 4 });
  let gate: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    gate = resolve;
  });
  return {
    name: "fake.gguf",
    capabilities: { parallelSequences: 1, exactTokenCounts: true },
    contextTokens: 2048,
    async *stream(_messages: ChatMessage[], options: StreamOptions = {}) {
      const sequence = await pool.acquire({ onQueued: options.onQueued });
      try {
        await opened;
        for (const word of reply.split(" ")) yield `${word} `;
      } finally {
        pool.release(sequence);
      }
    },
    countTokens: (text) => text.trim().split(/\s+/).length,
    close: async () => {},
    release: () => gate(),
  };
}

describe("Prometheus metrics of an observed language model", () => {
  it("shows questions waiting for the model, then the tokens it wrote", async () => {
    const metrics = createPrometheusMetrics({ processMetrics: false });
    const model = oneSequenceModel("one two three four");
    const observed = observeLanguageModel(model, metrics);
    const heard: number[] = [];
    const read = async (onQueued?: (position: number) => void) => {
      let text = "";
      for await (const chunk of observed.stream([{ role: "user", content: "q" }], onQueued ? { onQueued } : {}))
        text += chunk;
      return text;
    };
    const first = read();
    const second = read((position) => heard.push(position));
    const third = read();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sample(await metrics.render(), "folio_llm_queue_depth")).toBe(2);
    // The asker's own onQueued still hears its place in line.
    expect(heard).toEqual([1]);

    model.release();
    expect(await Promise.all([first, second, third])).toEqual([
      "one two three four ",
      "one two three four ",
      "one two three four ",
    ]);
    const text = await metrics.render();
    expect(sample(text, "folio_llm_queue_depth")).toBe(0);
    expect(sample(text, "folio_llm_generated_tokens_total")).toBe(12);
    expect(sample(text, "folio_llm_tokens_per_second_count")).toBe(3);
  });

  it("passes the model's failures through and counts no tokens for them", async () => {
    const metrics = createPrometheusMetrics({ processMetrics: false });
    const failing: LanguageModel = {
      name: "down",
      capabilities: { parallelSequences: 1, exactTokenCounts: false },
      contextTokens: 100,
      // biome-ignore lint/correctness/useYield: a model that fails before writing anything
      async *stream() {
        throw new FolioError("llm_unavailable", "The model server does not answer.");
      },
      countTokens: () => 0,
      close: async () => {},
    };
    const observed = observeLanguageModel(failing, metrics);
    await expect(async () => {
      for await (const _ of observed.stream([{ role: "user", content: "q" }])) {
        // nothing arrives
      }
    }).rejects.toThrow("The model server does not answer.");
    expect(sample(await metrics.render(), "folio_llm_generated_tokens_total")).toBe(0);
  });
});
