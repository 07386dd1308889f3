/**
 * The LLM rewrite of thread follow-ups with a fake language model: what the model is asked (recent
 * turns only, greedy, one line, its own timeout), which replies are used and which fall back to the
 * rule-based rewrite with what reason, model failures and a busy model falling back, the asker's
 * abort propagating — and answerQuestion searching the rewrite while the generator keeps the asker's words.
 */
import { describe, expect, it } from "vitest";
import type { AnswerEvent, ConversationTurn } from "../../src/answer/answer-events.js";
import { createAnswerService } from "../../src/answer/answer-question.js";
import type { AnswerGenerator } from "../../src/answer/generate/generator.js";
import { loadAnswerPrompts } from "../../src/answer/generate/prompt-templates.js";
import {
  createLlmFollowUpRewriter,
  DEFAULT_REWRITE_TIMEOUT_MS,
  renderRecentTurns,
  validateStandaloneQuestion,
} from "../../src/answer/question/llm-follow-up-rewrite.js";
import { rewriteQuestion } from "../../src/answer/question/rewrite-question.js";
import { ConfigError, loadConfig } from "../../src/config/config.js";
import type { SearchResult } from "../../src/domain/types.js";
import { FolioError } from "../../src/errors.js";
import type { ChatMessage, LanguageModel, StreamOptions } from "../../src/llm/language-model.js";
import { type LogFields, type Logger, silentLogger } from "../../src/logger.js";

const HISTORY: ConversationTurn[] = [
  { role: "user", text: "How many vacation days do new employees get?" },
  { role: "assistant", text: "New employees get 15 vacation days a year [1]." },
];
const FOLLOW_UP = "Does it roll over to next year?";
const RULES_QUERY = rewriteQuestion(FOLLOW_UP, HISTORY);
const SHOWN_HISTORY =
  "User: How many vacation days do new employees get?\nAssistant: New employees get 15 vacation days a year.";

type Behaviour =
  | { reply: string; finishReason?: "stop" | "length" }
  | { error: FolioError }
  | { queue: true }
  | { waitForAbort: true };

type Call = { messages: ChatMessage[]; options: StreamOptions | undefined };

/** A language model that plays one behaviour per call and records what it was asked. */
function fakeModel(behaviour: Behaviour): LanguageModel & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    name: "fake-model",
    capabilities: { parallelSequences: 1, exactTokenCounts: false },
    contextTokens: 2048,
    calls,
    countTokens: (text) => text.split(/\s+/).filter((word) => word !== "").length,
    close: async () => {},
    async *stream(messages, options) {
      calls.push({ messages, options });
      if ("error" in behaviour) throw behaviour.error;
      if ("queue" in behaviour || "waitForAbort" in behaviour) {
        if ("queue" in behaviour) options?.onQueued?.(1);
        await new Promise<void>((resolve) => {
          if (options?.signal?.aborted) resolve();
          options?.signal?.addEventListener("abort", () => resolve(), { once: true });
        });
        throw new FolioError("llm_aborted", "aborted");
      }
      yield behaviour.reply;
      options?.onFinish?.({ finishReason: behaviour.finishReason ?? "stop" });
    },
  };
}

type Line = { level: string; fields: LogFields; message: string };
function recordingLogger(lines: Line[]): Logger {
  const logger: Logger = {
    debug: (fields, message) => lines.push({ level: "debug", fields, message }),
    info: (fields, message) => lines.push({ level: "info", fields, message }),
    warn: (fields, message) => lines.push({ level: "warn", fields, message }),
    error: (fields, message) => lines.push({ level: "error", fields, message }),
    child: () => logger,
  };
  return logger;
}

async function rewriterFor(model: LanguageModel, logger: Logger = silentLogger) {
  return createLlmFollowUpRewriter({ model, prompt: (await loadAnswerPrompts()).rewriteFollowUp, logger });
}

function check(reply: string, overrides: Partial<Parameters<typeof validateStandaloneQuestion>[0]> = {}) {
  return validateStandaloneQuestion({
    reply,
    finishReason: "stop",
    question: FOLLOW_UP,
    shownHistory: SHOWN_HISTORY,
    rulesAddContext: true,
    ...overrides,
  });
}

describe("validateStandaloneQuestion", () => {
  it("accepts a one-line question that keeps the follow-up's words and adds the thread's subject", () => {
    expect(check("Do new employees' vacation days roll over to next year?")).toEqual({
      valid: true,
      question: "Do new employees' vacation days roll over to next year?",
    });
  });

  it("removes a label and quotes around the line, nothing else", () => {
    expect(check('Standalone question: "Do vacation days roll over to next year?"')).toEqual({
      valid: true,
      question: "Do vacation days roll over to next year?",
    });
  });

  it.each([
    ["", "empty"],
    ["   ", "empty"],
    ["Do vacation days roll over\nto next year?", "several_lines"],
    [`Do vacation days roll over to next year?${" vacation".repeat(30)}?`, "too_long"],
    ["I'm sorry, I cannot rewrite this question?", "refusal"],
    ["Unfortunately the conversation does not say whether it rolls over to next year?", "refusal"],
    ["Yes, vacation days roll over to next year.", "not_a_question"],
    ["Vacation days roll over to next year [1]?", "not_a_question"],
    ["Vacation days roll over to next year.", "not_a_question"],
    ["Do vacation days carry over?", "dropped_words"],
    ["Does sick leave roll over to next year?", "words_from_outside_the_thread"],
    ["Does it roll over to next year?", "no_subject_added"],
  ])("refuses %j (%s)", (reply, reason) => {
    expect(check(reply)).toEqual({ valid: false, reason });
  });

  it("refuses a reply the model could not finish (it hit its token limit)", () => {
    expect(check("Do vacation days roll over to next year?", { finishReason: "length" })).toEqual({
      valid: false,
      reason: "cut_off",
    });
  });

  it("accepts the follow-up unchanged when it already stands alone", () => {
    const question = "How many vacation days do contractors get each year?";
    expect(check(question, { question, rulesAddContext: false })).toEqual({ valid: true, question });
  });

  it("does not ask for a question mark when the follow-up was an instruction", () => {
    expect(check("List vacation days for new employees", { question: "List them", rulesAddContext: true })).toEqual({
      valid: true,
      question: "List vacation days for new employees",
    });
  });
});

describe("renderRecentTurns", () => {
  const countTokens = (text: string) => text.split(/\s+/).filter((word) => word !== "").length;

  it("shows the last turns without citation markers, and drops the follow-up when the thread ends with it", async () => {
    const history: ConversationTurn[] = [
      { role: "user", text: "Old question about parking?" },
      { role: "assistant", text: "Parking is free [2]." },
      ...HISTORY,
      { role: "user", text: FOLLOW_UP },
    ];
    expect(
      await renderRecentTurns({ question: FOLLOW_UP, history, maxTurns: 2, historyTokens: 400, countTokens }),
    ).toBe(SHOWN_HISTORY);
  });

  it("drops the oldest turns past the token budget, keeping at least the newest one, cut at a word", async () => {
    const long = `${"word ".repeat(200)}end`;
    const history: ConversationTurn[] = [...HISTORY, { role: "assistant", text: long }];
    const shown = await renderRecentTurns({
      question: FOLLOW_UP,
      history,
      maxTurns: 4,
      historyTokens: 20,
      countTokens,
    });
    expect(shown).toBe(`Assistant: ${"word ".repeat(99)}word…`);
  });
});

describe("createLlmFollowUpRewriter", () => {
  it("asks the model once, greedily, for one short line under its own timeout, with the recent turns", async () => {
    const model = fakeModel({ reply: "Do vacation days roll over to next year?" });
    const rewrite = await (await rewriterFor(model)).rewrite({ question: FOLLOW_UP, history: HISTORY });
    expect(rewrite).toEqual({ query: "Do vacation days roll over to next year?", method: "llm" });
    expect(model.calls).toHaveLength(1);
    const [call] = model.calls;
    expect(call?.options).toMatchObject({
      temperature: 0,
      stop: ["\n"],
      maxTokens: 64,
      timeoutMs: DEFAULT_REWRITE_TIMEOUT_MS,
    });
    expect(call?.messages).toHaveLength(1);
    expect(call?.messages[0]?.role).toBe("user");
    expect(call?.messages[0]?.content).toContain(`Conversation:\n${SHOWN_HISTORY}\n\nLast question: ${FOLLOW_UP}`);
  });

  it("falls back to the rule-based rewrite when the reply is not usable, logging the reason", async () => {
    const lines: Line[] = [];
    const model = fakeModel({ reply: "Yes, 5 days roll over to next year." });
    const rewrite = await (await rewriterFor(model, recordingLogger(lines))).rewrite({
      question: FOLLOW_UP,
      history: HISTORY,
    });
    expect(rewrite).toEqual({ query: RULES_QUERY, method: "rules", fallbackReason: "not_a_question" });
    const fallback = lines.find((line) => line.message.startsWith("follow-up rewritten by rules"));
    expect(fallback?.level).toBe("info");
    expect(fallback?.fields).toMatchObject({
      reason: "not_a_question",
      model: "fake-model",
      prompt: "rewrite-follow-up v2",
    });
  });

  it.each([
    ["llm_timeout", new FolioError("llm_timeout", "too slow", { retryable: true })],
    ["llm_busy", new FolioError("llm_busy", "line full", { retryable: true })],
    ["llm_unavailable", new FolioError("llm_unavailable", "down", { retryable: true })],
    ["llm_error", new Error("a bug in a provider")],
  ])("falls back when the model fails (%s), with a warning", async (reason, error) => {
    const lines: Line[] = [];
    const model = fakeModel({ error: error as FolioError });
    const rewrite = await (await rewriterFor(model, recordingLogger(lines))).rewrite({
      question: FOLLOW_UP,
      history: HISTORY,
    });
    expect(rewrite).toEqual({ query: RULES_QUERY, method: "rules", fallbackReason: reason });
    expect(lines.find((line) => line.level === "warn")?.fields).toMatchObject({ reason });
  });

  it("gives up at once when the rewrite would wait in line for the model", async () => {
    const model = fakeModel({ queue: true });
    const rewrite = await (await rewriterFor(model)).rewrite({ question: FOLLOW_UP, history: HISTORY });
    expect(rewrite).toEqual({ query: RULES_QUERY, method: "rules", fallbackReason: "llm_queued" });
  });

  it("lets the asker's abort propagate instead of falling back", async () => {
    const model = fakeModel({ waitForAbort: true });
    const controller = new AbortController();
    const rewriting = (await rewriterFor(model)).rewrite({
      question: FOLLOW_UP,
      history: HISTORY,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 10);
    await expect(rewriting).rejects.toMatchObject({ code: "llm_aborted" });
  });

  it("does not ask the model when the thread holds nothing but the follow-up", async () => {
    const model = fakeModel({ reply: "unused?" });
    const rewrite = await (await rewriterFor(model)).rewrite({
      question: FOLLOW_UP,
      history: [{ role: "user", text: FOLLOW_UP }],
    });
    expect(rewrite).toEqual({ query: FOLLOW_UP, method: "rules" });
    expect(model.calls).toHaveLength(0);
  });
});

describe("answerQuestion with the LLM follow-up rewrite", () => {
  const RESULT: SearchResult = {
    chunkId: "c1",
    documentId: "doc-vacation",
    spaceId: "console:test",
    file: "vacation.pdf",
    title: "Vacation",
    mediaType: "application/pdf",
    pageStart: 1,
    pageEnd: 1,
    score: 3,
    text: "Unused vacation days roll over to next year, up to five days.",
    provenance: { pageStart: 1, pageEnd: 1, charStart: 0, charEnd: 62 },
    kind: "text",
  };

  async function ask(model: LanguageModel, signal?: AbortSignal) {
    const searched: string[] = [];
    const asked: string[] = [];
    const generator: AnswerGenerator = {
      async *generate(question) {
        asked.push(question);
        yield "Unused vacation days roll over to next year [1].";
      },
    };
    const answers = createAnswerService({
      retriever: {
        search: async (request) => {
          searched.push(request.query);
          return [RESULT];
        },
      },
      generator,
      followUpRewriter: await rewriterFor(model),
      linkForCitation: ({ documentId, page }) => `https://folio.test/files/${documentId}#page=${page}`,
      pageTexts: async () => [{ pageNumber: 1, text: RESULT.text }],
      logger: silentLogger,
    });
    const events: AnswerEvent[] = [];
    for await (const event of answers.answerQuestion(FOLLOW_UP, {
      spaceIds: ["console:test"],
      history: HISTORY,
      requestId: "r1",
      ...(signal ? { signal } : {}),
    }))
      events.push(event);
    return { searched, asked, events };
  }

  it("searches the model's rewrite; the generator still gets the asker's own question", async () => {
    const { searched, asked, events } = await ask(fakeModel({ reply: "Do vacation days roll over to next year?" }));
    expect(searched).toEqual(["Do vacation days roll over to next year?"]);
    expect(asked).toEqual([FOLLOW_UP]);
    expect(events.filter((event) => event.type === "status").map((event) => event.status)).toEqual([
      "rewriting",
      "searching",
      "reading",
      "writing",
    ]);
    expect(events.at(-1)?.type).toBe("done");
  });

  it("searches the rule-based rewrite when the model fails", async () => {
    const { searched, events } = await ask(fakeModel({ error: new FolioError("llm_unavailable", "down") }));
    expect(searched).toEqual([RULES_QUERY]);
    expect(events.at(-1)?.type).toBe("done");
  });

  it("ends with one aborted error event when the asker cancels during the rewrite", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    const { searched, events } = await ask(fakeModel({ waitForAbort: true }), controller.signal);
    expect(searched).toEqual([]);
    expect(events.at(-1)).toEqual({
      type: "error",
      code: "aborted",
      message: "The question was cancelled.",
      requestId: "r1",
    });
  });
});

describe("FOLIO_LLM_REWRITE_TIMEOUT_SECONDS", () => {
  it("defaults to 8 s, takes 0 (rules only) and reports a bad value", () => {
    expect(loadConfig({}).llmRewriteTimeoutSeconds).toBe(8);
    expect(loadConfig({ FOLIO_LLM_REWRITE_TIMEOUT_SECONDS: "0" }).llmRewriteTimeoutSeconds).toBe(0);
    let caught: unknown;
    try {
      loadConfig({ FOLIO_LLM_REWRITE_TIMEOUT_SECONDS: "soon" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).problems).toEqual([
      { variable: "FOLIO_LLM_REWRITE_TIMEOUT_SECONDS", problem: '"soon" must be a whole number from 0 to 600' },
    ]);
  });
});
