import { describe, expect, it } from "vitest";
import { FolioError } from "../../src/errors.js";
import { createSequencePool } from "../../src/llm/sequence-pool.js";

async function rejectionOf(promise: Promise<unknown>): Promise<FolioError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof FolioError)) throw new Error(`expected a FolioError, got ${String(error)}`);
  return error;
}

describe("createSequencePool", () => {
  it("lends free items first, then queues in order, then refuses with llm_busy", async () => {
    const pool = createSequencePool(["a", "b"], { queueLimit: 2 });
    expect(await pool.acquire()).toBe("a");
    expect(await pool.acquire()).toBe("b");
    const positions: Array<[string, number]> = [];
    const third = pool.acquire({ onQueued: (position) => positions.push(["third", position]) });
    const fourth = pool.acquire({ onQueued: (position) => positions.push(["fourth", position]) });
    const busy = await rejectionOf(pool.acquire());
    expect(busy.code).toBe("llm_busy");
    expect(busy.retryable).toBe(true);
    expect(busy.message).toBe(
      "The model is busy: 2 answer(s) in progress and 2 question(s) already in line. Please ask again in a minute.",
    );
    expect(busy.details).toEqual({ running: 2, waiting: 2 });
    expect(pool.waiting).toBe(2);

    pool.release("b");
    expect(await third).toBe("b");
    expect(positions).toEqual([
      ["third", 1],
      ["fourth", 2],
      ["fourth", 1],
    ]);
    pool.release("a");
    expect(await fourth).toBe("a");
    pool.release("a");
    pool.release("b");
    expect(pool.free).toBe(2);
    expect(pool.waiting).toBe(0);
  });

  it("takes an aborted request out of line with llm_aborted and moves those behind it up", async () => {
    const pool = createSequencePool([1], { queueLimit: 3 });
    await pool.acquire();
    const controller = new AbortController();
    const leaving = pool.acquire({ signal: controller.signal });
    const positions: number[] = [];
    const staying = pool.acquire({ onQueued: (position) => positions.push(position) });
    controller.abort();
    const aborted = await rejectionOf(leaving);
    expect(aborted.code).toBe("llm_aborted");
    expect(positions).toEqual([2, 1]);
    expect(pool.waiting).toBe(1);
    pool.release(1);
    expect(await staying).toBe(1);
  });

  it("sends everyone in line away with the given error when the model closes", async () => {
    const pool = createSequencePool(["only"], { queueLimit: 2 });
    await pool.acquire();
    const waiting = [pool.acquire(), pool.acquire()];
    pool.rejectWaiting(new FolioError("llm_unavailable", "closed", { retryable: true }));
    expect((await Promise.all(waiting.map(rejectionOf))).map((error) => error.code)).toEqual([
      "llm_unavailable",
      "llm_unavailable",
    ]);
    expect(pool.waiting).toBe(0);
  });

  it("refuses at once with a queue limit of 0 and rejects an already aborted signal", async () => {
    const pool = createSequencePool(["only"], { queueLimit: 0 });
    await pool.acquire();
    expect((await rejectionOf(pool.acquire())).code).toBe("llm_busy");
    expect((await rejectionOf(pool.acquire({ signal: AbortSignal.abort() }))).code).toBe("llm_aborted");
  });
});
