/**
 * The pure parts of approved-answer matching: the near-miss guards, choosing among scored candidates
 * under a threshold, the lexical fallback, calibration and the reuse metrics.
 */
import { describe, expect, it } from "vitest";
import {
  ApprovedAnswerLibrary,
  chooseApprovedAnswer,
  type ScoredCandidate,
  toApprovedAnswerMatch,
} from "../../src/answer-library/approved-answer-library.js";
import type { ApprovedAnswerForMatching, ApprovedAnswerStore } from "../../src/answer-library/approved-answer-store.js";
import { LEXICAL_MATCH_THRESHOLD, lexicalSimilarity } from "../../src/answer-library/lexical-similarity.js";
import { findNearMiss } from "../../src/answer-library/near-miss-guards.js";
import {
  calibrateThreshold,
  measureReuse,
  type ReuseProbeOutcome,
  splitByGroup,
} from "../../src/answer-library/reuse-evaluation.js";
import { silentLogger } from "../../src/logger.js";

describe("near-miss guards", () => {
  it.each([
    [
      "Do you encrypt data at rest?",
      "Do you encrypt data in transit?",
      "contrast",
      "state of data: at rest vs in transit",
    ],
    [
      "Is customer data encrypted when sent over the network?",
      "Do you encrypt customer data at rest?",
      "contrast",
      "state of data: in transit vs at rest",
    ],
    [
      "Do you encrypt customer data?",
      "Do you encrypt customer data at rest?",
      "contrast",
      "state of data: none vs at rest",
    ],
    [
      "Do you not encrypt data at rest?",
      "Do you encrypt data at rest?",
      "negation",
      "one question is negated, the other is not",
    ],
    ["Don't you log access?", "Do you log access?", "negation", "one question is negated, the other is not"],
    [
      "Does your company never use firewalls?",
      "Does your company use firewalls?",
      "negation",
      "one question is negated, the other is not",
    ],
    [
      "Which systems are excluded from the scans?",
      "Which systems are covered by the scans?",
      "negation",
      "one question is negated, the other is not",
    ],
    ["What is the deductible in 2023?", "What is the deductible in 2024?", "number", "2023 vs 2024"],
    ["Are logs kept for at least twelve months?", "Are logs kept for at least six months?", "number", "12 vs 6"],
    [
      "What does Northwind Standard cover for surgery?",
      "What does Northwind Health Plus cover for surgery?",
      "contrast",
      "plan tier: standard vs plus",
    ],
    [
      "What protection does Zava offer against balance billing?",
      "What protection does Contoso offer against balance billing?",
      "name",
      "zava, contoso named on one side only",
    ],
    [
      "What is prior authorization?",
      "Does the plan require prior authorization?",
      "form",
      "a open question vs a closed one",
    ],
    [
      "Do you require MFA for all customers?",
      "Do you require MFA for all employees?",
      "contrast",
      "people: customer vs employee",
    ],
  ])("stops %j against %j (%s)", (asked, approved, kind, detail) => {
    expect(findNearMiss(asked, approved)).toEqual({ kind, detail });
  });

  it.each([
    ["Is customer data encrypted when it is stored?", "Do you encrypt customer data at rest?"],
    ["Is MFA mandatory for every employee?", "Do you require multi-factor authentication for all employees?"],
    ["Do you keep customer data exclusively within the EU?", "Is customer data stored only in the European Union?"],
    ["How much is the Northwind Standard deductible?", "What is the deductible for Northwind Standard?"],
    [
      "Does your incoming mail infrastructure support TLS 1.2?",
      "Does your inbound email infrastructure support Transport Layer Security (TLS) 1.2?",
    ],
    ["Whether or not you log access, do you keep the logs?", "Do you keep the logs?"],
    ["Is MFA required? (Yes/No)", "Do you require MFA?"],
  ])("lets the paraphrase %j of %j through", (asked, approved) => {
    expect(findNearMiss(asked, approved)).toBeNull();
  });
});

function record(question: string, id = question): ApprovedAnswerForMatching {
  return {
    id,
    spaceId: "test:space",
    question,
    answer: `Answer to ${question}`,
    file: "review.xlsx",
    sheet: "Security",
    row: 7,
    addedBy: null,
    addedAt: new Date("2026-11-02T10:00:00Z"),
    embeddingModel: null,
    embedding: null,
  };
}

describe("choosing an approved answer", () => {
  const transit: ScoredCandidate = {
    record: record("Do you encrypt data in transit?"),
    similarity: 0.97,
    nearMiss: { kind: "contrast", detail: "state of data: at rest vs in transit" },
  };
  const rest: ScoredCandidate = { record: record("Is stored data encrypted?"), similarity: 0.95, nearMiss: null };

  it("takes the most similar candidate the guards let through, when it reaches the threshold", () => {
    expect(chooseApprovedAnswer([transit, rest], 0.945)?.record.question).toBe("Is stored data encrypted?");
    expect(chooseApprovedAnswer([transit, rest], 0.96)).toBeUndefined();
    expect(chooseApprovedAnswer([transit], 0.5)).toBeUndefined();
    expect(chooseApprovedAnswer([], 0)).toBeUndefined();
  });

  it("reports the origin without the fields the record lacks, and the similarity to three places", () => {
    expect(toApprovedAnswerMatch({ ...record("Q?"), sheet: null, row: null }, 0.95678)).toEqual({
      answer: "Answer to Q?",
      origin: { file: "review.xlsx", addedAt: "2026-11-02T10:00:00.000Z" },
      similarity: 0.957,
    });
    expect(toApprovedAnswerMatch({ ...record("Q?"), addedBy: "U42" }, 1).origin).toEqual({
      file: "review.xlsx",
      sheet: "Security",
      row: 7,
      addedBy: "U42",
      addedAt: "2026-11-02T10:00:00.000Z",
    });
  });
});

describe("lexical fallback", () => {
  it("matches the same question reworded slightly, never a paraphrase", () => {
    expect(
      lexicalSimilarity("Do you encrypt customer data at rest?", "Do you encrypt the customer's data at rest?"),
    ).toBe(1);
    expect(
      lexicalSimilarity("Do you encrypt customer data at rest?", "Is stored customer data encrypted?"),
    ).toBeLessThan(LEXICAL_MATCH_THRESHOLD);
    expect(lexicalSimilarity("", "Anything?")).toBe(0);
  });
});

function outcome(
  id: string,
  expected: "match" | "no_match",
  similarity: number | null,
  bestIsRight: boolean,
): ReuseProbeOutcome {
  return {
    id,
    group: id.split("#")[0] ?? id,
    kind: "test",
    expected,
    best: similarity === null ? null : { question: "Q", similarity },
    bestIsRight,
  };
}

describe("reuse metrics and calibration", () => {
  const outcomes = [
    outcome("a#1", "match", 0.97, true),
    outcome("a#2", "no_match", 0.93, false),
    outcome("b#1", "match", 0.92, true),
    outcome("b#2", "match", 0.95, false),
    outcome("c#1", "no_match", null, false),
  ];

  it("counts a reuse right only when it reuses the expected question", () => {
    const metrics = measureReuse(outcomes, 0.9);
    expect(metrics).toMatchObject({
      probes: 5,
      shouldMatch: 3,
      reused: 4,
      correctReuses: 2,
      precision: 0.5,
      recall: 0.667,
    });
    expect(metrics.wrongReuses.map((wrong) => wrong.id)).toEqual(["a#2", "b#2"]);
    expect(measureReuse(outcomes, 0.99)).toMatchObject({ reused: 0, precision: 1, recall: 0 });
  });

  it("calibrates to the lowest threshold that keeps precision, and splits by group", () => {
    expect(calibrateThreshold(outcomes, 0.95)).toBe(0.955);
    expect(calibrateThreshold([outcome("x#1", "no_match", 1, false)], 0.95)).toBe(1);
    const { calibration, heldOut } = splitByGroup(outcomes);
    expect(calibration.length + heldOut.length).toBe(5);
    const groupsOf = (items: ReuseProbeOutcome[]) => new Set(items.map((item) => item.group));
    for (const group of groupsOf(calibration)) expect(groupsOf(heldOut).has(group)).toBe(false);
  });
});

describe("the library's per-space cache", () => {
  it("reads a space's questions once while fresh, and again after a removal or when stale", async () => {
    let reads = 0;
    const store: ApprovedAnswerStore = {
      addFromFile: async () => ({ added: [], replaced: 0 }),
      list: async () => [],
      async listForMatching() {
        reads += 1;
        return [record("Do you encrypt customer data at rest?")];
      },
      saveEmbeddings: async () => {},
      remove: async () => true,
    };
    const library = new ApprovedAnswerLibrary({ store, embedder: null, logger: silentLogger, cacheMs: 60_000 });
    expect((await library.match("s", "Do you encrypt customer data at rest?"))?.similarity).toBe(1);
    expect(await library.match("s", "Do you encrypt customer data in transit?")).toBeUndefined();
    expect(reads).toBe(1);
    await library.remove("s", "id");
    await library.match("s", "Do you encrypt customer data at rest?");
    expect(reads).toBe(2);

    const uncached = new ApprovedAnswerLibrary({ store, embedder: null, logger: silentLogger, cacheMs: 0 });
    await uncached.match("s", "Q?");
    await uncached.match("s", "Q?");
    expect(reads).toBe(4);
  });
});
