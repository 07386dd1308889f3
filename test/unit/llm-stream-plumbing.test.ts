import { describe, expect, it } from "vitest";
import { createChunkChannel } from "../../src/llm/chunk-channel.js";
import { createRequestDeadline } from "../../src/llm/request-deadline.js";

describe("createChunkChannel", () => {
  it("delivers chunks pushed before and after the reader waits, then the failure after them", async () => {
    const channel = createChunkChannel<string>();
    channel.push("a");
    const read: string[] = [];
    const reading = (async () => {
      for await (const chunk of channel) read.push(chunk);
    })().then(
      () => null,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    channel.push("b");
    channel.push("c");
    channel.fail(new Error("cut"));
    channel.push("ignored");
    expect(((await reading) as Error).message).toBe("cut");
    expect(read).toEqual(["a", "b", "c"]);
  });

  it("ends cleanly on close", async () => {
    const channel = createChunkChannel<number>();
    channel.push(1);
    channel.close();
    const read: number[] = [];
    for await (const chunk of channel) read.push(chunk);
    expect(read).toEqual([1]);
  });
});

describe("createRequestDeadline", () => {
  it("says llm_timeout when the timer fires and llm_aborted when the caller aborts", async () => {
    const timed = createRequestDeadline({ timeoutMs: 10 });
    expect(timed.stoppedError()).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(timed.signal.aborted).toBe(true);
    expect(timed.stoppedError()?.code).toBe("llm_timeout");
    expect(timed.stoppedError()?.message).toBe("The language model did not finish within 10 ms.");
    timed.dispose();

    const controller = new AbortController();
    const aborted = createRequestDeadline({ signal: controller.signal, timeoutMs: 10_000 });
    controller.abort();
    expect(aborted.signal.reason).toBe(aborted.stoppedError());
    expect(aborted.stoppedError()?.code).toBe("llm_aborted");
    aborted.dispose();

    const early = createRequestDeadline({ signal: AbortSignal.abort(), timeoutMs: 10_000 });
    expect(early.stoppedError()?.code).toBe("llm_aborted");
    early.dispose();
  });
});
