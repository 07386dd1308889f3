/**
 * The answer pipeline's event contract with small fakes for retrieval and generation: event order,
 * the `done` payload of DESIGN.md, no-context replies with the closest sources, safe error events
 * and cancellation through the abort signal.
 */
import { describe, expect, it } from "vitest";
import type { AnswerContext, AnswerEvent, ConversationTurn } from "../../src/answer/answer-events.js";
import { createAnswerService } from "../../src/answer/answer-question.js";
import { createExtractiveGenerator } from "../../src/answer/generate/extractive-generator.js";
import type { AnswerGenerator } from "../../src/answer/generate/generator.js";
import { NO_SOURCES_ANSWER } from "../../src/answer/write-answer.js";
import type { PageText, SearchResult } from "../../src/domain/types.js";
import { FolioError } from "../../src/errors.js";
import type { LogFields, Logger } from "../../src/logger.js";
import type { Retriever, SearchRequest } from "../../src/retrieval/retriever.js";
import { tablePassage } from "../support/answer-fixtures.js";

const PAGES: PageText[] = [
  {
    pageNumber: 1,
    text: "PerksPlus is the wellness program. Employees may expense up to $1000 for fitness programs each year.",
  },
  { pageNumber: 2, text: "Gym memberships and yoga classes are covered. Claims are due by the end of January." },
];

function result(overrides: Partial<SearchResult> & Pick<SearchResult, "chunkId" | "text">): SearchResult {
  return {
    documentId: "doc-perks",
    spaceId: "console:test",
    file: "perksplus.pdf",
    title: "PerksPlus",
    mediaType: "application/pdf",
    pageStart: 1,
    pageEnd: 1,
    score: 3,
    provenance: {},
    kind: "text",
    ...overrides,
  };
}

const PERKS_CHUNK = result({
  chunkId: "c1",
  text: `${PAGES[0]?.text}\n${PAGES[1]?.text}`,
  pageStart: 1,
  pageEnd: 2,
  provenance: { pageStart: 1, pageEnd: 2, charStart: 0, charEnd: PAGES[1]?.text.length ?? 0 },
});
const CLAIMS_CHUNK = result({
  chunkId: "c2",
  documentId: "doc-claims",
  file: "claims.pdf",
  title: "Claims",
  text: "Employees submit fitness program claims through the benefits portal with a receipt.",
  pageStart: 4,
  pageEnd: 4,
});

/** A retriever that returns fixed results and records its requests. */
function fakeRetriever(results: SearchResult[] | (() => Promise<SearchResult[]>)) {
  const requests: SearchRequest[] = [];
  const retriever: Retriever = {
    async search(request) {
      requests.push(request);
      return typeof results === "function" ? results() : results;
    },
  };
  return { retriever, requests };
}

/** A generator that streams fixed pieces (an LLM stand-in) and records what it was given. */
function scriptedGenerator(pieces: string[], options: { afterPiece?: (index: number) => void } = {}) {
  const calls: Array<{ question: string; sources: number[] }> = [];
  const generator: AnswerGenerator = {
    async *generate(question, sources) {
      calls.push({ question, sources: sources.map((source) => source.n) });
      for (const [index, piece] of pieces.entries()) {
        yield piece;
        options.afterPiece?.(index);
      }
    },
  };
  return { generator, calls };
}

function recordingLogger() {
  const entries: Array<{ level: string; fields: LogFields; message: string }> = [];
  const make = (bound: LogFields): Logger => ({
    debug: (fields, message) => entries.push({ level: "debug", fields: { ...bound, ...fields }, message }),
    info: (fields, message) => entries.push({ level: "info", fields: { ...bound, ...fields }, message }),
    warn: (fields, message) => entries.push({ level: "warn", fields: { ...bound, ...fields }, message }),
    error: (fields, message) => entries.push({ level: "error", fields: { ...bound, ...fields }, message }),
    child: (fields) => make({ ...bound, ...fields }),
  });
  return { logger: make({}), entries };
}

function service(
  retriever: Retriever,
  generator: AnswerGenerator = createExtractiveGenerator(),
  logger: Logger = recordingLogger().logger,
) {
  const pageRequests: string[] = [];
  const answers = createAnswerService({
    retriever,
    generator,
    linkForCitation: ({ documentId, page }) => `https://folio.test/files/${documentId}${page ? `#page=${page}` : ""}`,
    pageTexts: async (documentId) => {
      pageRequests.push(documentId);
      return documentId === "doc-perks" ? PAGES : [];
    },
    logger,
  });
  return { answers, pageRequests };
}

function context(overrides: Partial<AnswerContext> = {}): AnswerContext {
  return { spaceIds: ["console:test"], history: [], requestId: "req-42", ...overrides };
}

async function collect(events: AsyncIterable<AnswerEvent>): Promise<AnswerEvent[]> {
  const collected: AnswerEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

const kinds = (events: AnswerEvent[]) =>
  events.map((event) => (event.type === "status" ? `status:${event.status}` : event.type));

describe("answerQuestion", () => {
  it("streams status, deltas, citations and done, in that order", async () => {
    const { retriever, requests } = fakeRetriever([PERKS_CHUNK, CLAIMS_CHUNK]);
    const { answers } = service(retriever);
    const events = await collect(
      answers.answerQuestion("How much can employees expense for fitness programs?", context()),
    );
    expect(kinds(events)).toEqual([
      "status:searching",
      "status:reading",
      "status:writing",
      "delta",
      "citations",
      "done",
    ]);
    expect(requests).toEqual([
      {
        query: "How much can employees expense for fitness programs?",
        spaceIds: ["console:test"],
        limit: 20,
        signal: undefined,
        timingsMs: {},
        onQueryCorrected: expect.any(Function),
      },
    ]);
  });

  it("reports each retrieval stage's time (embedding, reranking…) in the answer's timings", async () => {
    const retriever: Retriever = {
      async search(request) {
        if (request.timingsMs) Object.assign(request.timingsMs, { embed: 4.5, hybrid: 12, rerank: 480 });
        return [PERKS_CHUNK, CLAIMS_CHUNK];
      },
    };
    const events = await collect(
      service(retriever).answers.answerQuestion("How much can employees expense for fitness programs?", context()),
    );
    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("no done event");
    expect(done.answer.timingsMs).toMatchObject({
      "retrieval.embed": 4.5,
      "retrieval.hybrid": 12,
      "retrieval.rerank": 480,
    });
    expect(done.answer.timingsMs.retrieval).toBeGreaterThanOrEqual(0);
  });

  it("ends with the full answer object of DESIGN.md, whose text is the streamed deltas", async () => {
    const { answers } = service(fakeRetriever([PERKS_CHUNK, CLAIMS_CHUNK]).retriever);
    const events = await collect(
      answers.answerQuestion("How much can employees expense for fitness programs?", context()),
    );
    const deltas = events.flatMap((event) => (event.type === "delta" ? [event.text] : [])).join("");
    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("no done event");
    const citationsEvent = events.find((event) => event.type === "citations");
    expect(Object.keys(done.answer).sort()).toEqual([
      "answer",
      "citations",
      "noContext",
      "reading",
      "requestId",
      "timingsMs",
    ]);
    // The reader whose answer opens the reply, and how likely it states what was asked.
    expect(done.answer.reading?.reader).toBe("figure");
    expect(done.answer.reading?.score).toBeGreaterThan(0.3);
    expect(done.answer).toMatchObject({
      requestId: "req-42",
      answer: deltas,
      noContext: false,
    });
    // The stated figure is the direct answer; the claims sentence states none of its figures, so it is
    // not quoted after it (it supports no part of the answer).
    expect(deltas).toBe("“Employees may expense up to $1000 for fitness programs each year.” [1]");
    expect(done.answer.citations).toEqual([
      {
        n: 1,
        documentId: "doc-perks",
        title: "PerksPlus",
        file: "perksplus.pdf",
        pageStart: 1,
        pageEnd: 1,
        quote: "Employees may expense up to $1000 for fitness programs each year.",
        url: "https://folio.test/files/doc-perks#page=1",
        // The extractive answer quotes it: renderers leave the quote out of the source list.
        quotedInAnswer: true,
      },
      {
        n: 2,
        documentId: "doc-claims",
        title: "Claims",
        file: "claims.pdf",
        pageStart: 4,
        pageEnd: 4,
        quote: "Employees submit fitness program claims through the benefits portal with a receipt.",
        url: "https://folio.test/files/doc-claims#page=4",
        // Listed under Sources with its quote, not quoted in the answer (it does not support the figure).
      },
    ]);
    expect(citationsEvent).toEqual({ type: "citations", citations: done.answer.citations });
    for (const name of ["retrieval", "generation", "total"])
      expect(done.answer.timingsMs[name]).toBeGreaterThanOrEqual(0);
    expect(done.answer.timingsMs.rewrite).toBeUndefined();
  });

  it("narrows a multi-page source to the page of its quote", async () => {
    const { answers, pageRequests } = service(fakeRetriever([PERKS_CHUNK]).retriever);
    const events = await collect(answers.answerQuestion("When are claims due for gym memberships?", context()));
    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("no done event");
    expect(done.answer.citations.map(({ pageStart, pageEnd, url }) => ({ pageStart, pageEnd, url }))).toEqual([
      { pageStart: 2, pageEnd: 2, url: "https://folio.test/files/doc-perks#page=2" },
    ]);
    expect(pageRequests).toEqual(["doc-perks"]);
  });

  it("rewrites a follow-up with the thread before searching, and says so first", async () => {
    const { retriever, requests } = fakeRetriever([PERKS_CHUNK]);
    const { answers } = service(retriever);
    const history: ConversationTurn[] = [
      { role: "user", text: "How much can employees expense for fitness programs?" },
      { role: "assistant", text: "Up to $1000 [1]." },
    ];
    const events = await collect(answers.answerQuestion("When are they due?", context({ history })));
    expect(kinds(events).slice(0, 2)).toEqual(["status:rewriting", "status:searching"]);
    expect(requests[0]?.query).toBe("When are they due? How much can employees expense for fitness programs?");
    const done = events.at(-1);
    expect(done?.type === "done" && done.answer.timingsMs.rewrite).toBeGreaterThanOrEqual(0);
  });

  it("judges relevance and quotes with the words the retriever repaired, not the misspelt ones", async () => {
    const retriever: Retriever = {
      async search(request) {
        request.onQueryCorrected?.({
          text: "How much can employees expense for fitness programs?",
          corrections: [
            { from: "expnse", to: "expense" },
            { from: "fitnes", to: "fitness" },
          ],
        });
        return [PERKS_CHUNK];
      },
    };
    const generator = scriptedGenerator(["Up to $1000 [1]."]);
    const { answers } = service(retriever, generator.generator);
    const events = await collect(
      answers.answerQuestion("How much can employees expnse for fitnes programs?", context()),
    );
    // Misspelt, only 2 of the 4 content terms would be found in the source: no-context, no generation.
    expect(generator.calls).toEqual([
      { question: "How much can employees expense for fitness programs?", sources: [1] },
    ]);
    const done = events.at(-1);
    expect(done?.type === "done" && done.answer.noContext).toBe(false);
  });

  it("answers no-context with the closest sources when they cover too little of the question", async () => {
    const { retriever } = fakeRetriever([PERKS_CHUNK, CLAIMS_CHUNK]);
    const scripted = scriptedGenerator(["should never be generated [1]"]);
    const { answers } = service(retriever, scripted.generator);
    const events = await collect(
      answers.answerQuestion("What is the CEO's favourite pizza topping at the Dublin office?", context()),
    );
    expect(kinds(events)).toEqual(["status:searching", "delta", "citations", "done"]);
    // The names it gives are in no source: the reply says which, rather than only that nothing fits.
    const uncovered =
      "The documents available here don't mention CEO or Dublin, so I can't answer this from them. The closest sources are below.";
    expect(events[1]).toEqual({ type: "delta", text: uncovered });
    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("no done event");
    expect(done.answer.noContext).toBe(true);
    expect(done.answer.answer).toBe(uncovered);
    expect(done.answer.citations.map((citation) => [citation.n, citation.documentId])).toEqual([
      [1, "doc-perks"],
      [2, "doc-claims"],
    ]);
    expect(scripted.calls).toEqual([]);
  });

  it("says plainly that nothing was found when the search returns nothing", async () => {
    const { answers } = service(fakeRetriever([]).retriever);
    const events = await collect(answers.answerQuestion("Anything about parking?", context()));
    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("no done event");
    expect(done.answer).toMatchObject({ answer: NO_SOURCES_ANSWER, noContext: true, citations: [] });
  });

  it("lets the reader's answer stand when the extractive generator's lines cite nothing", async () => {
    // The generator only adds quotes that support the reader's answer; a line citing no source adds nothing.
    const scripted = scriptedGenerator(["The sources do not say. [7]"]);
    const { answers } = service(fakeRetriever([PERKS_CHUNK, CLAIMS_CHUNK]).retriever, scripted.generator);
    const events = await collect(answers.answerQuestion("Tell me about expensing fitness programs.", context()));
    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("no done event");
    expect(done.answer.answer).toBe("“Employees may expense up to $1000 for fitness programs each year.” [1]");
    expect(done.answer.noContext).toBe(false);
    expect(done.answer.citations.map((citation) => [citation.n, citation.documentId, citation.pageStart])).toEqual([
      [1, "doc-perks", 1],
    ]);
    expect(scripted.calls).toEqual([{ question: "Tell me about expensing fitness programs.", sources: [1, 2] }]);
  });

  it("reports a failure as one error event with its code and a safe message, and logs the details", async () => {
    const internals = new FolioError("catalog_unavailable", "connect ECONNREFUSED 10.0.0.5:5432 password=hunter2");
    const { logger, entries } = recordingLogger();
    const { answers } = service(
      fakeRetriever(() => Promise.reject(internals)).retriever,
      createExtractiveGenerator(),
      logger,
    );
    const events = await collect(answers.answerQuestion("How much for fitness?", context()));
    expect(kinds(events)).toEqual(["status:searching", "error"]);
    const error = events[1];
    if (error?.type !== "error") throw new Error("no error event");
    expect(error).toEqual({
      type: "error",
      code: "catalog_unavailable",
      message: expect.any(String),
      requestId: "req-42",
    });
    for (const leak of ["ECONNREFUSED", "10.0.0.5", "hunter2", "at ", "FolioError", "\n"])
      expect(error.message).not.toContain(leak);
    expect(entries.find((entry) => entry.level === "error")?.fields).toMatchObject({
      requestId: "req-42",
      code: "catalog_unavailable",
      err: internals,
    });
  });

  it("gives errors that are not FolioErrors the code answer_failed", async () => {
    const { answers } = service(
      fakeRetriever(() => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'text')")))
        .retriever,
    );
    const events = await collect(answers.answerQuestion("How much for fitness?", context()));
    const error = events.at(-1);
    expect(error).toMatchObject({ type: "error", code: "answer_failed", requestId: "req-42" });
    expect(error?.type === "error" && error.message).not.toContain("Cannot read");
  });

  it("reports a generator failure after streaming began as an error, not done", async () => {
    const failing: AnswerGenerator = {
      async *generate() {
        yield "Partial [1]";
        throw new Error("llama.cpp crashed at /opt/models/secret.gguf");
      },
    };
    const { answers } = service(fakeRetriever([PERKS_CHUNK]).retriever, failing);
    const events = await collect(answers.answerQuestion("Tell me about expensing fitness programs.", context()));
    expect(kinds(events).slice(-2)).toEqual(["delta", "error"]);
    expect(JSON.stringify(events.at(-1))).not.toContain("secret.gguf");
  });

  it("stops when the signal fires during generation: no more deltas, no citations, one aborted error", async () => {
    const controller = new AbortController();
    const scripted = scriptedGenerator(["First [1].", " Second [1].", " Third [1]."], {
      afterPiece: (index) => {
        if (index === 0) controller.abort();
      },
    });
    const { answers, pageRequests } = service(fakeRetriever([PERKS_CHUNK]).retriever, scripted.generator);
    const events = await collect(
      answers.answerQuestion("Tell me about expensing fitness programs.", context({ signal: controller.signal })),
    );
    expect(kinds(events)).toEqual(["status:searching", "status:reading", "status:writing", "delta", "error"]);
    expect(events.at(-1)).toEqual({
      type: "error",
      code: "aborted",
      message: "The question was cancelled.",
      requestId: "req-42",
    });
    expect(pageRequests).toEqual([]);
  });

  it("passes the signal to retrieval and reports an abort there as aborted, not as a failure", async () => {
    const controller = new AbortController();
    const { retriever, requests } = fakeRetriever(() => {
      controller.abort();
      return Promise.reject(new DOMException("This operation was aborted", "AbortError"));
    });
    const { logger, entries } = recordingLogger();
    const { answers } = service(retriever, createExtractiveGenerator(), logger);
    const events = await collect(
      answers.answerQuestion("How much for fitness?", context({ signal: controller.signal })),
    );
    expect(requests[0]?.signal).toBe(controller.signal);
    expect(events.at(-1)).toMatchObject({ type: "error", code: "aborted" });
    expect(entries.filter((entry) => entry.level === "error")).toEqual([]);
  });

  it("does not search at all when the signal has already fired", async () => {
    const controller = new AbortController();
    controller.abort();
    const { retriever, requests } = fakeRetriever([PERKS_CHUNK]);
    const { answers } = service(retriever);
    const events = await collect(
      answers.answerQuestion("How much for fitness?", context({ signal: controller.signal })),
    );
    expect(kinds(events)).toEqual(["error"]);
    expect(events[0]).toMatchObject({ code: "aborted" });
    expect(requests).toEqual([]);
  });

  it("answers a count with a count: an amount of money in a row that names the measure is no answer", async () => {
    const benefits = tablePassage(
      {
        chunkId: "acme-balance",
        documentId: "doc-acme",
        spaceId: "console:test",
        file: "acme-2018.pdf",
        title: "Acme 2018",
      },
      ["Employee benefits | $ 299 | $ 315", "Total other liabilities | $ 2,608 | $ 2,542"],
      ["(Millions)", "2018", "2017"],
    );
    const headcount = result({
      chunkId: "acme-people",
      documentId: "doc-acme",
      spaceId: "console:test",
      file: "acme-2018.pdf",
      title: "Acme 2018",
      text: "As of December 31, 2018, Acme had approximately 12,400 employees worldwide.",
    });
    const { answers } = service(fakeRetriever([benefits, headcount]).retriever);
    const done = (await collect(answers.answerQuestion("How many employees did Acme have in 2018?", context()))).at(-1);
    if (done?.type !== "done") throw new Error("no done event");
    const firstLine = done.answer.answer.split("\n")[0];
    expect(firstLine).not.toContain("299");
    expect(firstLine).toContain("approximately 12,400 employees");
  });
});
