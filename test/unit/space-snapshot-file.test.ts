import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PostingLists } from "../../src/stores/posting-lists.js";
import { readSpaceFile, type SpaceRows, writeSpaceFile } from "../../src/stores/space-snapshot-file.js";

function rowsWithFarSlots(): SpaceRows {
  const slots = 70_010;
  const postings = new PostingLists();
  postings.add(11, 0, 1.5);
  postings.add(11, 70_000, 0.25); // a gap past 16 bits
  postings.add(12, 5, 3);
  return {
    chunkIds: Array.from({ length: slots }, (_, slot) => `chunk-${slot}`),
    documentIds: Array.from({ length: slots }, (_, slot) => `doc-${slot % 3}`),
    alive: Array.from({ length: slots }, (_, slot) => slot !== 5),
    keyOfSlot: Array.from({ length: slots }, (_, slot) => (slot === 5 ? -1 : slot)),
    postings,
  };
}

describe("space snapshot file", () => {
  let directory = "";
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "folio-space-file-"));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("reads back the slots and postings it wrote", async () => {
    const file = path.join(directory, "space.space");
    const bytes = await writeSpaceFile(file, rowsWithFarSlots());
    expect((await stat(file)).size).toBe(bytes);
    const rows = await readSpaceFile(file, bytes);
    expect(rows).not.toBeNull();
    if (!rows) return;
    expect(rows.chunkIds[70_000]).toBe("chunk-70000");
    expect(rows.documentIds.slice(0, 4)).toEqual(["doc-0", "doc-1", "doc-2", "doc-0"]);
    expect(rows.alive[5]).toBe(false);
    expect(rows.keyOfSlot[5]).toBe(-1);
    expect(rows.keyOfSlot[70_000]).toBe(70_000);
    const scores = new Float64Array(70_010);
    rows.postings.accumulate(11, 2, scores);
    rows.postings.accumulate(12, 1, scores);
    expect([scores[0], scores[5], scores[70_000]]).toEqual([3, 3, 0.5]);
    expect(rows.postings.postingCount).toBe(3);
  });

  it("refuses a file of the earlier layout, a truncated one and one whose size is not the manifest's", async () => {
    const file = path.join(directory, "space.space");
    const bytes = await writeSpaceFile(file, rowsWithFarSlots());
    const content = await readFile(file);
    expect(await readSpaceFile(file, bytes + 1)).toBeNull();

    const earlier = Buffer.from(content);
    earlier.write("FOLIOSP1", 0, "ascii");
    await writeFile(file, earlier);
    expect(await readSpaceFile(file, bytes)).toBeNull();

    await writeFile(file, content.subarray(0, bytes - 10));
    expect(await readSpaceFile(file, bytes - 10)).toBeNull();

    const corrupt = Buffer.from(content);
    corrupt.writeUInt16LE(0, bytes - 8 - 2); // the last gap unit made an escape with nothing after it
    await writeFile(file, corrupt);
    expect(await readSpaceFile(file, bytes)).toBeNull();
    expect(await readSpaceFile(path.join(directory, "missing.space"), bytes)).toBeNull();
  });
});
