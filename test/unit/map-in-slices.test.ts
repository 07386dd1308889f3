import { describe, expect, it } from "vitest";
import { mapInSlices } from "../../src/workers/map-in-slices.js";
import { countEventLoopTurns } from "../support/event-loop-turns.js";

describe("mapInSlices", () => {
  it("maps every item in order with its index, letting the event loop turn between slices", async () => {
    const items = Array.from({ length: 10 }, (_, index) => `item-${index}`);
    const turnsSeenBy: number[] = [];
    const loop = countEventLoopTurns();
    const mapped = await mapInSlices(
      items,
      (item, index) => {
        turnsSeenBy.push(loop.seen());
        return `${index}:${item}`;
      },
      4,
    );
    loop.stop();
    expect(mapped).toEqual(items.map((item, index) => `${index}:${item}`));
    // Slices of 4, 4 and 2: the loop turned between them and never inside one.
    expect(turnsSeenBy.slice(0, 4).every((seen) => seen === turnsSeenBy[0])).toBe(true);
    expect(turnsSeenBy[4]).toBeGreaterThan(turnsSeenBy[3] ?? 0);
    expect(turnsSeenBy[8]).toBeGreaterThan(turnsSeenBy[7] ?? 0);
    expect(turnsSeenBy[5]).toBe(turnsSeenBy[4]);
  });

  it("returns an empty list for no items without waiting", async () => {
    expect(await mapInSlices([], () => 1)).toEqual([]);
  });
});
