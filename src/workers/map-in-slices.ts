/**
 * Maps a long list on the main thread in slices, letting the event loop turn between them, so CPU work
 * proportional to a document's size (term counting of a 500-page filing: about a second on a busy
 * 2-core machine) never holds a Slack, Teams or console request for longer than one slice.
 */
import { setImmediate as nextTurn } from "node:timers/promises";

export async function mapInSlices<Item, Result>(
  items: readonly Item[],
  map: (item: Item, index: number) => Result,
  sliceSize = 32,
): Promise<Result[]> {
  const results: Result[] = [];
  for (let start = 0; start < items.length; start += sliceSize) {
    if (start > 0) await nextTurn();
    const end = Math.min(start + sliceSize, items.length);
    for (let index = start; index < end; index += 1) results.push(map(items[index] as Item, index));
  }
  return results;
}
