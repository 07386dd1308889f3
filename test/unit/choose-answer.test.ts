import { describe, expect, it } from "vitest";
import { DirectAnswer } from "../../src/answer/compose/direct-answer.js";
import type { ProseEvidence } from "../../src/answer/evidence/prose-evidence.js";
import { chooseAmong } from "../../src/answer/readers/choose-answer.js";
import type { Reader, ReaderInput, Reading } from "../../src/answer/readers/reader.js";

function prose(options: { holdsAnswer?: boolean; best?: number } = {}): ProseEvidence {
  return {
    asked: { kind: "any", unit: null },
    answerable: 0.3,
    candidates: async () => [],
    holdsAnswer: async () => options.holdsAnswer ?? true,
    scoreFound: async () => 0,
    scoreWindow: async () => 0,
  };
}

function input(evidence: ProseEvidence = prose()): ReaderInput {
  return { prose: evidence, sources: [] } as unknown as ReaderInput;
}

/** A reader that answers "<name>" with a fixed score, recording that it was asked. */
function reader(name: string, score: number, options: Partial<Reading> & { ceiling?: number } = {}) {
  const asked: string[] = [];
  const fake: Reader = {
    name,
    ceiling: options.ceiling ?? 1,
    async read() {
      asked.push(name);
      const direct = new DirectAnswer([]);
      direct.addLine(name);
      return { reader: name, grounds: "text", score, direct, uncovered: null, missingNames: [], ...options };
    },
  };
  return { fake, asked };
}

describe("chooseAmong", () => {
  it("keeps the most likely answer, the earlier reader's on equal scores", async () => {
    const chosen = await chooseAmong(
      [reader("list", 0.6).fake, reader("window", 0.8).fake, reader("later", 0.8).fake],
      input(),
    );
    expect([chosen.reader, chosen.score, chosen.direct?.text()]).toEqual(["window", 0.8, "window"]);
  });

  it("ends the choice at a reading that says the documents do not cover what was asked", async () => {
    const after = reader("window", 0.9);
    const chosen = await chooseAmong(
      [
        reader("figure", 0, {
          direct: null,
          uncovered: "The documents have figures for 2017–2019, not 2012.",
          missingNames: ["Nike"],
        }).fake,
        after.fake,
      ],
      input(),
    );
    expect(chosen).toMatchObject({
      direct: null,
      uncovered: "The documents have figures for 2017–2019, not 2012.",
      missingNames: ["Nike"],
    });
    expect(after.asked).toEqual([]);
  });

  it("gives no answer below the answerable bar, and quoted text only where the documents hold an answer", async () => {
    expect((await chooseAmong([reader("window", 0.29).fake], input())).reader).toBeNull();
    const noAnswer = input(prose({ holdsAnswer: false }));
    expect((await chooseAmong([reader("window", 0.9).fake], noAnswer)).reader).toBeNull();
    // Figures read from a table stand on their own.
    expect((await chooseAmong([reader("table", 0.95, { grounds: "figures" }).fake], noAnswer)).reader).toBe("table");
  });

  it("does not ask a reader that cannot beat the answer in hand", async () => {
    const window = reader("window", 0.7, { ceiling: 0.9 });
    const chosen = await chooseAmong(
      [reader("table", 0.95, { grounds: "figures", ceiling: 0.95 }).fake, window.fake],
      input(),
    );
    expect(chosen.reader).toBe("table");
    expect(window.asked).toEqual([]);
  });
});
