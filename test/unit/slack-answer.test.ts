import { describe, expect, it } from "vitest";
import { createSlackAdapter } from "../../adapters/slack/slack-adapter.js";
import { answerInThread } from "../../adapters/slack/slack-answer.js";
import type { AnswerEvent } from "../../src/answer/answer-events.js";
import type { FolioCore } from "../../src/folio-core.js";
import { silentLogger } from "../../src/logger.js";

type Call = { method: string; args: Record<string, unknown> };

/** The two Web API methods answerInThread uses, recorded. */
function createFakeClient(calls: Call[]) {
  let ts = 0;
  return {
    chat: {
      postMessage: async (args: Record<string, unknown>) => {
        calls.push({ method: "chat.postMessage", args });
        ts += 1;
        return { ok: true, ts: `${ts}.0` };
      },
      update: async (args: Record<string, unknown>) => {
        calls.push({ method: "chat.update", args });
        return { ok: true };
      },
    },
  };
}

function createFakeCore(events: (clock: { now: number }) => AsyncIterable<AnswerEvent>, clock: { now: number }) {
  return { answerQuestion: () => events(clock) } as unknown as FolioCore;
}

const answerDone: AnswerEvent = {
  type: "done",
  answer: { requestId: "req-1", answer: "One two three [1].", noContext: false, citations: [], timingsMs: {} },
};

async function run(events: (clock: { now: number }) => AsyncIterable<AnswerEvent>, threadTs: string | null = "100.0") {
  const calls: Call[] = [];
  const clock = { now: 0 };
  const outcome = await answerInThread({
    client: createFakeClient(calls) as never,
    core: createFakeCore(events, clock),
    logger: silentLogger,
    channel: "C1",
    threadTs,
    question: "q",
    spaceId: "slack:T:C1",
    spaceIds: ["slack:T:C1"],
    history: [],
    requestId: "req-1",
    updateIntervalMs: 1_000,
    timeoutMs: 10_000,
    now: () => clock.now,
  });
  return { calls, outcome };
}

describe("answerInThread", () => {
  it("posts the placeholder, throttles streamed edits to one per interval, then the final answer", async () => {
    const { calls, outcome } = await run(async function* (clock) {
      yield { type: "status", status: "searching", message: "Searching your documents…" };
      for (const [at, text] of [
        [300, "One"],
        [1_200, " two"],
        [1_500, " three"],
        [2_300, " [1]."],
      ] as const) {
        clock.now = at;
        yield { type: "delta", text };
      }
      yield answerDone;
    });
    expect(outcome).toEqual({ status: "answered", messageTs: "1.0" });
    expect(calls.map((call) => [call.method, call.args.text])).toEqual([
      ["chat.postMessage", "Searching your documents…"],
      ["chat.update", "One two …"],
      ["chat.update", "One two three [1]. …"],
      ["chat.update", "One two three [1]."],
    ]);
    expect(calls[0]?.args.thread_ts).toBe("100.0");
    expect(((calls.at(-1)?.args.blocks ?? []) as Array<{ type: string }>).map((block) => block.type)).toEqual([
      "section",
      "actions",
    ]);
  });

  it("answers at the top level when there is no thread", async () => {
    const { calls } = await run(async function* () {
      yield answerDone;
    }, null);
    expect(calls[0]?.args).toEqual({ channel: "C1", text: "Searching your documents…" });
  });

  it("replaces the placeholder with an apology and the reference id when the core fails", async () => {
    const failing = await run(async function* () {
      yield { type: "status", status: "searching", message: "Searching your documents…" };
      throw new Error("database gone");
    });
    expect(failing.outcome.status).toBe("failed");
    expect(failing.calls.at(-1)?.args.text).toBe("Sorry — something went wrong while answering. Reference: `req-1`");

    const errorEvent = await run(async function* () {
      yield {
        type: "error",
        code: "llm_unreachable",
        message: "The language model is not reachable.",
        requestId: "req-1",
      };
    });
    expect(errorEvent.calls.at(-1)?.args.text).toBe(
      "Sorry — something went wrong while answering. The language model is not reachable. Reference: `req-1`",
    );
  });
});

describe("createSlackAdapter", () => {
  const core = {} as FolioCore;
  const slack = {
    botToken: "xoxb-1",
    signingSecret: "secret",
    appToken: null,
    apiUrl: "http://127.0.0.1:9",
    adminUserIds: [],
  };

  it("mounts POST /slack/events in HTTP mode and nothing in Socket Mode", () => {
    const http = createSlackAdapter({ core, slack, librarySpaceId: null, logger: silentLogger });
    expect(http.routes.map((route) => [route.method, route.path])).toEqual([["POST", "/slack/events"]]);
    const socket = createSlackAdapter({
      core,
      slack: { ...slack, signingSecret: null, appToken: "xapp-1" },
      librarySpaceId: null,
      logger: silentLogger,
    });
    expect(socket.routes).toEqual([]);
  });

  it("refuses a configuration with neither signing secret nor app token", () => {
    expect(() =>
      createSlackAdapter({
        core,
        slack: { ...slack, signingSecret: null },
        librarySpaceId: null,
        logger: silentLogger,
      }),
    ).toThrow(expect.objectContaining({ code: "slack_not_configured" }));
  });
});
