/**
 * Carries a long list from a worker thread to the main thread in slices the main thread rebuilds one per
 * turn of its event loop. Posting the list as it is makes the receiving thread deserialise all of it in
 * one go before any timer or request runs: a 500-page filing's pages, blocks and chunks are 11 MB, tens of
 * milliseconds on the main thread and more on a busy machine. Each slice is serialised apart, in the
 * worker, into a buffer that is transferred (moved, not copied) with the message.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { deserialize, serialize } from "node:v8";

declare const itemType: unique symbol;

/** `slices`: the serialised slices, to be listed in postMessage's transfer list. */
export type PackedList<Item> = { slices: ArrayBuffer[]; readonly [itemType]?: Item };

export const DEFAULT_ITEMS_PER_SLICE = 32;

export function packList<Item>(items: readonly Item[], itemsPerSlice = DEFAULT_ITEMS_PER_SLICE): PackedList<Item> {
  const slices: ArrayBuffer[] = [];
  for (let start = 0; start < items.length; start += itemsPerSlice) {
    // A copy into a buffer of its own: a transferred buffer must not be shared with anything else.
    slices.push(new Uint8Array(serialize(items.slice(start, start + itemsPerSlice))).buffer);
  }
  return { slices };
}

export async function unpackList<Item>(packed: PackedList<Item>): Promise<Item[]> {
  const items: Item[] = [];
  for (const [index, slice] of packed.slices.entries()) {
    if (index > 0) await nextTurn();
    for (const item of deserialize(new Uint8Array(slice)) as Item[]) items.push(item);
  }
  return items;
}
