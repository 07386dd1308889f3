import { describe, expect, it } from "vitest";
import { answerInConversation } from "../../adapters/teams/teams-answer.js";
import type { OutgoingActivity } from "../../adapters/teams/teams-message-format.js";
import type { AnswerEvent } from "../../src/answer/answer-events.js";
import type { FolioCore } from "../../src/folio-core.js";
import { silentLogger } from "../../src/logger.js";

function coreYielding(events: AnswerEvent[]): FolioCore {
  return {
    async *answerQuestion() {
      for (const event of events) yield event;
    },
  } as unknown as FolioCore;
}

async function run(events: AnswerEvent[], stream: boolean, now: () => number = () => 0) {
  const sent: OutgoingActivity[] = [];
  const outcome = await answerInConversation({
    core: coreYielding(events),
    logger: silentLogger,
    send: async (activity) => {
      sent.push(structuredClone(activity));
      return `m${sent.length}`;
    },
    question: "q",
    spaceId: "teams:t:c",
    spaceIds: ["teams:t:c"],
    history: [],
    requestId: "req-1",
    stream,
    updateIntervalMs: 1_000,
    timeoutMs: 5_000,
    now,
  });
  return { sent, outcome };
}

const done: AnswerEvent = {
  type: "done",
  answer: { requestId: "req-1", answer: "Yes [1].", noContext: false, citations: [], timingsMs: {} },
};

describe("answerInConversation", () => {
  it("throttles streamed text to the update interval and closes the stream with the final message", async () => {
    let clock = 0;
    const { sent, outcome } = await run(
      [{ type: "delta", text: "Y" }, { type: "delta", text: "e" }, { type: "delta", text: "s" }, done],
      true,
      () => {
        clock += 400;
        return clock;
      },
    );
    const kinds = sent.map((activity) => [
      activity.type,
      (activity.entities?.[0] as { streamType?: string } | undefined)?.streamType,
    ]);
    expect(kinds).toEqual([
      ["typing", "informative"],
      ["typing", "streaming"],
      ["message", "final"],
    ]);
    expect(sent[1]?.entities?.[0]).toEqual({
      type: "streaminfo",
      streamType: "streaming",
      streamId: "m1",
      streamSequence: 2,
    });
    expect(outcome).toEqual({ status: "answered", messageIds: ["m1", "m3"], text: "Yes [1]." });
  });

  it("shows typing, then the answer, where it cannot stream", async () => {
    const { sent } = await run([{ type: "delta", text: "Yes" }, done], false);
    expect(sent.map((activity) => activity.type)).toEqual(["typing", "message"]);
    expect(sent[1]?.entities?.some((entity) => entity.type === "streaminfo")).toBe(false);
  });

  it("ends an open stream with an apology and the reference id when the core fails", async () => {
    const { sent, outcome } = await run(
      [{ type: "error", code: "llm_busy", message: "The model is busy.", requestId: "req-1" }],
      true,
    );
    expect(outcome.status).toBe("failed");
    expect(sent.at(-1)).toEqual({
      type: "message",
      text: "Sorry — something went wrong while answering. The model is busy. Reference: `req-1`",
      entities: [{ type: "streaminfo", streamType: "final", streamId: "m1" }],
    });
  });
});
