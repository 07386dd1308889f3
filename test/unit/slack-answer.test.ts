import { describe, expect, it } from "vitest";
import { createSlackAdapter } from "../../adapters/slack/slack-adapter.js";
import {
  answerInThread,
  type NativeStreaming,
  STREAM_TEXT_LIMIT,
  splitStreamText,
} from "../../adapters/slack/slack-answer.js";
import type { AnswerEvent } from "../../src/answer/answer-events.js";
import type { FolioCore } from "../../src/folio-core.js";
import { silentLogger } from "../../src/logger.js";

type Call = { method: string; args: Record<string, unknown> };

/** A Web API platform error as the client throws it for `{ ok: false, error }`. */
function platformError(error: string) {
  return Object.assign(new Error(`An API error occurred: ${error}`), {
    code: "slack_webapi_platform_error",
    data: { ok: false, error },
  });
}

/**
 * The chat methods answerInThread uses, recorded. `streaming` is how chat.startStream answers: like a
 * workspace with the streaming API, or with the error of one without it.
 */
function createFakeClient(calls: Call[], streaming: "supported" | "unknown_method" | "not_allowed" = "unknown_method") {
  let ts = 0;
  const record = (method: string) => async (args: Record<string, unknown>) => {
    calls.push({ method, args });
    return { ok: true };
  };
  return {
    chat: {
      postMessage: async (args: Record<string, unknown>) => {
        calls.push({ method: "chat.postMessage", args });
        ts += 1;
        return { ok: true, ts: `${ts}.0` };
      },
      update: record("chat.update"),
      delete: record("chat.delete"),
      startStream: async (args: Record<string, unknown>) => {
        calls.push({ method: "chat.startStream", args });
        if (streaming !== "supported") throw platformError(streaming);
        ts += 1;
        return { ok: true, ts: `${ts}.0` };
      },
      appendStream: record("chat.appendStream"),
      stopStream: record("chat.stopStream"),
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

async function run(
  events: (clock: { now: number }) => AsyncIterable<AnswerEvent>,
  threadTs: string | null = "100.0",
  native?: { mode: "supported" | "unknown_method" | "not_allowed"; support: NativeStreaming },
) {
  const calls: Call[] = [];
  const clock = { now: 0 };
  const outcome = await answerInThread({
    client: createFakeClient(calls, native?.mode) as never,
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
    streaming: native ? { recipientUserId: "U1", recipientTeamId: "T1", support: native.support } : null,
    now: () => clock.now,
  });
  return { calls, outcome };
}

/** Status, then four deltas at 300, 1200, 1500 and 2300 ms, then the answer. */
async function* fourDeltas(clock: { now: number }): AsyncIterable<AnswerEvent> {
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

  it("streams through chat.startStream / appendStream / stopStream, throttled, then formats the message", async () => {
    const support: NativeStreaming = { state: "unknown" };
    const { calls, outcome } = await run(fourDeltas, "100.0", { mode: "supported", support });
    expect(outcome).toEqual({ status: "answered", messageTs: "2.0" });
    expect(support.state).toBe("available");
    expect(calls.map((call) => [call.method, call.args.ts ?? null, call.args.markdown_text ?? call.args.text])).toEqual(
      [
        ["chat.postMessage", null, "Searching your documents…"],
        ["chat.startStream", null, "One two"],
        ["chat.delete", "1.0", undefined],
        ["chat.appendStream", "2.0", " three [1]."],
        ["chat.stopStream", "2.0", undefined],
        ["chat.update", "2.0", "One two three [1]."],
      ],
    );
    expect(calls[1]?.args).toMatchObject({ thread_ts: "100.0", recipient_user_id: "U1", recipient_team_id: "T1" });
    expect(((calls.at(-1)?.args.blocks ?? []) as Array<{ type: string }>).map((block) => block.type)).toEqual([
      "section",
      "actions",
    ]);
  });

  it("streams a quoted link lure and a bare URL as text, in every streaming call and in the edits", async () => {
    const lure = "“[Verify your account here](https://evil.example/login) or www.evil.example.” [1]";
    const events = async function* (clock: { now: number }): AsyncIterable<AnswerEvent> {
      clock.now = 1_000;
      yield { type: "delta", text: lure };
      yield answerDone;
    };
    const streamed = await run(events, "100.0", { mode: "supported", support: { state: "unknown" } });
    expect(streamed.calls.find((call) => call.method === "chat.startStream")?.args.markdown_text).toBe(
      "“[Verify your account here]\\(hxxps://evil[.]example/login) or www[.]evil[.]example.” [1]",
    );
    const edited = await run(events);
    expect(edited.calls.find((call) => call.method === "chat.update")?.args.text).toBe(
      "“[Verify your account here](hxxps://evil[.]example/login) or www[.]evil[.]example.” [1] …",
    );
  });

  it("sends what is still buffered with chat.stopStream", async () => {
    const { calls } = await run(
      async function* (clock) {
        clock.now = 1_000;
        yield { type: "delta", text: "One" };
        clock.now = 1_100;
        yield { type: "delta", text: " two" };
        yield answerDone;
      },
      "100.0",
      { mode: "supported", support: { state: "unknown" } },
    );
    expect(calls.map((call) => [call.method, call.args.markdown_text])).toEqual([
      ["chat.postMessage", undefined],
      ["chat.startStream", "One"],
      ["chat.delete", undefined],
      ["chat.stopStream", " two"],
      ["chat.update", undefined],
    ]);
  });

  it("falls back to throttled edits on unknown_method, and does not ask again", async () => {
    const support: NativeStreaming = { state: "unknown" };
    const first = await run(fourDeltas, "100.0", { mode: "unknown_method", support });
    expect(support.state).toBe("unavailable");
    expect(first.calls.map((call) => [call.method, call.args.text ?? call.args.markdown_text])).toEqual([
      ["chat.postMessage", "Searching your documents…"],
      ["chat.startStream", "One two"],
      ["chat.update", "One two …"],
      ["chat.update", "One two three [1]. …"],
      ["chat.update", "One two three [1]."],
    ]);
    const second = await run(fourDeltas, "100.0", { mode: "unknown_method", support });
    expect(second.calls.map((call) => call.method)).not.toContain("chat.startStream");
    expect(second.outcome.status).toBe("answered");
  });

  it("falls back for one answer on an error that says nothing about the workspace", async () => {
    const support: NativeStreaming = { state: "unknown" };
    const calls: Call[] = [];
    const client = createFakeClient(calls, "supported");
    client.chat.startStream = async (args) => {
      calls.push({ method: "chat.startStream", args });
      throw platformError("channel_not_found");
    };
    const clock = { now: 0 };
    const outcome = await answerInThread({
      client: client as never,
      core: createFakeCore(fourDeltas, clock),
      logger: silentLogger,
      channel: "C1",
      threadTs: "100.0",
      question: "q",
      spaceId: "slack:T:C1",
      spaceIds: ["slack:T:C1"],
      history: [],
      requestId: "req-1",
      updateIntervalMs: 1_000,
      timeoutMs: 10_000,
      streaming: { recipientUserId: "U1", recipientTeamId: "T1", support },
      now: () => clock.now,
    });
    expect(outcome.status).toBe("answered");
    expect(support.state).toBe("unknown");
    expect(calls.filter((call) => call.method === "chat.startStream")).toHaveLength(1);
  });

  it("closes the stream and puts the apology in the streamed message when the core fails mid-answer", async () => {
    const { calls, outcome } = await run(
      async function* (clock) {
        clock.now = 1_000;
        yield { type: "delta", text: "One" };
        throw new Error("database gone");
      },
      "100.0",
      { mode: "supported", support: { state: "unknown" } },
    );
    expect(outcome).toEqual({ status: "failed", messageTs: "2.0" });
    expect(calls.slice(-2).map((call) => [call.method, call.args.ts, call.args.text])).toEqual([
      ["chat.stopStream", "2.0", undefined],
      ["chat.update", "2.0", "Sorry — something went wrong while answering. Reference: `req-1`"],
    ]);
  });

  it("keeps every streaming call under Slack's markdown_text limit", async () => {
    const long = "word ".repeat(5_000); // 25,000 characters in one delta
    const { calls } = await run(
      async function* (clock) {
        clock.now = 1_000;
        yield { type: "delta", text: long };
        clock.now = 2_000;
        yield { type: "delta", text: long };
        yield answerDone;
      },
      "100.0",
      { mode: "supported", support: { state: "unknown" } },
    );
    const streamCalls = calls.filter((call) => call.method.endsWith("Stream"));
    const texts = streamCalls.map((call) => String(call.args.markdown_text ?? ""));
    expect(texts.every((text) => text.length <= STREAM_TEXT_LIMIT)).toBe(true);
    expect(texts.join("")).toBe(long + long);
    // 25,000 = 12,000 + 12,000 + 1,000, twice; the stop has nothing left to send.
    expect(texts.map((text) => text.length)).toEqual([12_000, 12_000, 1_000, 12_000, 12_000, 1_000, 0]);
    expect(streamCalls.map((call) => call.method)).toEqual([
      "chat.startStream",
      ...Array.from({ length: 5 }, () => "chat.appendStream"),
      "chat.stopStream",
    ]);
  });

  it("splits stream text without separating the halves of an emoji", () => {
    expect(splitStreamText("abcdef", 4)).toEqual(["abcd", "ef"]);
    expect(splitStreamText("abc😀def", 4)).toEqual(["abc", "😀de", "f"]);
    expect(splitStreamText("", 4)).toEqual([]);
  });

  it("never streams natively at the top level (chat.startStream needs a thread)", async () => {
    const { calls } = await run(fourDeltas, null, { mode: "supported", support: { state: "unknown" } });
    expect(calls.map((call) => call.method)).not.toContain("chat.startStream");
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

describe("answerInThread with native feedback and an assistant status", () => {
  /** chat.update refuses a `context_actions` block unless the workspace has native feedback. */
  function createFeedbackClient(calls: Call[], nativeFeedbackSupported: boolean) {
    return {
      chat: {
        postMessage: async (args: Record<string, unknown>) => {
          calls.push({ method: "chat.postMessage", args });
          return { ok: true, ts: "1.0" };
        },
        update: async (args: Record<string, unknown>) => {
          calls.push({ method: "chat.update", args });
          const blocks = (args.blocks ?? []) as Array<{ type: string }>;
          if (!nativeFeedbackSupported && blocks.some((block) => block.type === "context_actions"))
            throw platformError("invalid_blocks");
          return { ok: true };
        },
      },
    };
  }

  async function answerWith(
    nativeFeedbackSupported: boolean,
    support: { state: "unknown" | "available" | "unavailable" },
    statusAccepted = true,
  ) {
    const calls: Call[] = [];
    const statuses: string[] = [];
    const outcome = await answerInThread({
      client: createFeedbackClient(calls, nativeFeedbackSupported) as never,
      core: createFakeCore(
        async function* () {
          yield { type: "status", status: "searching", message: "Searching your documents…" };
          yield { type: "delta", text: "One two three [1]." };
          yield answerDone;
        },
        { now: 0 },
      ),
      logger: silentLogger,
      channel: "D1",
      threadTs: "100.0",
      question: "q",
      spaceId: "slack:T:user:U1",
      spaceIds: ["slack:T:user:U1"],
      history: [],
      requestId: "req-1",
      updateIntervalMs: 0,
      timeoutMs: 10_000,
      nativeFeedback: support,
      showStatus: async (message) => {
        statuses.push(message);
        return statusAccepted;
      },
      now: () => 0,
    });
    const blockTypes = (call: Call | undefined) =>
      ((call?.args.blocks ?? []) as Array<{ type: string }>).map((block) => block.type);
    return { calls, statuses, outcome, blockTypes };
  }

  it("shows progress as the status instead of a placeholder and ends with native feedback_buttons", async () => {
    const support = { state: "unknown" as const };
    const { calls, statuses, outcome, blockTypes } = await answerWith(true, support);
    expect(outcome.status).toBe("answered");
    expect(statuses).toEqual(["Searching your documents…"]);
    expect(calls.some((call) => call.args.text === "Searching your documents…")).toBe(false);
    expect(calls[0]?.method).toBe("chat.postMessage");
    expect(blockTypes(calls.at(-1))).toEqual(["section", "context_actions"]);
    expect(support.state).toBe("available");
  });

  it("posts the placeholder after all when Slack refuses the status (a DM thread outside the assistant)", async () => {
    const { calls, statuses } = await answerWith(true, { state: "unknown" }, false);
    expect(statuses).toEqual(["Searching your documents…"]);
    expect(calls[0]).toEqual({
      method: "chat.postMessage",
      args: { channel: "D1", thread_ts: "100.0", text: "Searching your documents…" },
    });
  });

  it("falls back to ordinary buttons when the workspace refuses feedback_buttons, and remembers it", async () => {
    const support: { state: "unknown" | "available" | "unavailable" } = { state: "unknown" };
    const first = await answerWith(false, support);
    expect(first.outcome.status).toBe("answered");
    expect(first.calls.filter((call) => call.method === "chat.update").map(first.blockTypes)).toEqual([
      ["section", "context_actions"],
      ["section", "actions"],
    ]);
    expect(support.state).toBe("unavailable");

    const second = await answerWith(false, support);
    expect(second.calls.filter((call) => call.method === "chat.update").map(second.blockTypes)).toEqual([
      ["section", "actions"],
    ]);
  });
});
