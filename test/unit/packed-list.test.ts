import { MessageChannel } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { packList, unpackList } from "../../src/workers/packed-list.js";
import { countEventLoopTurns } from "../support/event-loop-turns.js";

type Page = { page: number; text: string; lines: string[] };

describe("packList and unpackList", () => {
  const pages: Page[] = Array.from({ length: 7 }, (_, index) => ({
    page: index + 1,
    text: `Page ${index + 1} — revenue €${index},000`,
    lines: [`line ${index}`],
  }));

  it("packs a list into one transferable buffer per slice and rebuilds it in order", async () => {
    const packed = packList(pages, 3);
    expect(packed.slices).toHaveLength(3);
    expect(packed.slices.every((slice) => slice instanceof ArrayBuffer)).toBe(true);
    expect(await unpackList(packed)).toEqual(pages);
  });

  it("lets the event loop turn between slices", async () => {
    const packed = packList(pages, 3);
    const loop = countEventLoopTurns();
    await unpackList(packed);
    const turns = loop.stop();
    // Three slices: the loop turned before the second and before the third.
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  it("survives the trip through a real MessageChannel with its buffers transferred", async () => {
    const packed = packList(pages, 2);
    const { port1, port2 } = new MessageChannel();
    const received = new Promise<typeof packed>((resolve) => {
      port2.once("message", resolve);
    });
    port1.postMessage(packed, packed.slices);
    // Transferred: the sender's buffers are detached, nothing was copied.
    expect(packed.slices.every((slice) => slice.byteLength === 0)).toBe(true);
    expect(await unpackList(await received)).toEqual(pages);
    port1.close();
  });

  it("packs an empty list into no slices", async () => {
    const packed = packList([]);
    expect(packed.slices).toEqual([]);
    expect(await unpackList(packed)).toEqual([]);
  });
});
