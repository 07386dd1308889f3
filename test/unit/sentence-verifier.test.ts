/**
 * One sentence at a time (what the streaming writer uses): a sentence restating a checked fact the
 * model was given stands on that fact — its numbers and words are the fact's — while its quote is
 * still the source's own passage; without the fact the same sentence is no source's. One item of a
 * list the source runs together is evidence on its own, quoted with its own offsets.
 */
import { describe, expect, it } from "vitest";
import type { NumberedSource } from "../../src/answer/generate/generator.js";
import { createSentenceVerifier } from "../../src/answer/generate/sentence-verifier.js";
import type { Embedder } from "../../src/embedding/embedder.js";

const ROW = "Rent and other deposits; 2019: 5,120; 2018: 5,687";
const FACT = "Rent and other deposits for 2018 were $5,687 thousand (about $5.7 million) [1].";
const CLAIM = "Rent and other deposits were about $5.7 million in 2018 [1].";

const SOURCE: NumberedSource = {
  n: 1,
  result: {
    chunkId: "c1",
    documentId: "d1",
    spaceId: "console:test",
    file: "report.html",
    title: "Annual report",
    mediaType: "text/html",
    pageStart: 1,
    pageEnd: 1,
    score: 1,
    text: ROW,
    provenance: {},
    kind: "text",
  },
};

/** The claim is the fact's twin and far from the row (as a rounded figure in other words would be). */
const VECTORS: Record<string, number[]> = {
  [ROW]: [1, 0, 0],
  "Rent and other deposits for 2018 were $5,687 thousand (about $5.7 million).": [0, 1, 0],
  "Rent and other deposits were about $5.7 million in 2018.": [0, 1, 0],
};
const EMBEDDER: Embedder = {
  modelId: "fake",
  dimensions: 3,
  embedQuery: async () => [0, 0, 1],
  embedPassages: async (texts) =>
    texts.map((text) => {
      const vector = VECTORS[text];
      if (!vector) throw new Error(`no vector for "${text}"`);
      return vector;
    }),
  close: async () => {},
};

describe("a sentence restating a checked fact", () => {
  it("stands on the fact, quoting the source's own row", async () => {
    const verifier = createSentenceVerifier({ sources: [SOURCE], embedder: EMBEDDER, threshold: 0.8, facts: [FACT] });
    const checked = await verifier.check(CLAIM);
    expect(checked).toMatchObject({ supported: true, kept: CLAIM, support: 1 });
    expect(checked.quotes).toEqual([[1, { text: ROW, start: 0, end: ROW.length, support: 1 }]]);
  });

  it("is no source's without the fact", async () => {
    const verifier = createSentenceVerifier({ sources: [SOURCE], embedder: EMBEDDER, threshold: 0.8 });
    expect(await verifier.check(CLAIM)).toMatchObject({ supported: false, kept: null, support: 0 });
  });
});

describe("a list item copied from a source", () => {
  const LIST =
    "To be eligible for VLTP, you must have all of the following: - Exhausted all leave balances (annual, sick, award) - Have an anticipated negative leave balance of at least 24 hours";
  const ITEM = "- Exhausted all leave balances (annual, sick, award)";
  const list: NumberedSource = { n: 1, result: { ...SOURCE.result, text: LIST } };
  const embedder: Embedder = {
    ...EMBEDDER,
    embedPassages: async (texts) =>
      texts.map((text) =>
        text === ITEM || text === "Exhausted all leave balances (annual, sick, award)" ? [0, 1, 0] : [1, 0, 0],
      ),
  };

  it("is supported by that item, quoted with its offsets in the source", async () => {
    const verifier = createSentenceVerifier({ sources: [list], embedder, threshold: 0.8 });
    const checked = await verifier.check("- Exhausted all leave balances (annual, sick, award) [1]");
    const start = LIST.indexOf(ITEM);
    expect(checked).toMatchObject({ supported: true, support: 1 });
    expect(checked.quotes).toEqual([[1, { text: ITEM, start, end: start + ITEM.length, support: 1 }]]);
  });
});
