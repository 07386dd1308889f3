import { describe, expect, it } from "vitest";
import { correctQuerySpelling } from "../../src/retrieval/query-spelling.js";
import { createSpellingDictionary, editDistance } from "../../src/retrieval/spelling-dictionary.js";
import { countTerms } from "../../src/retrieval/text-analyzer.js";

const dictionary = createSpellingDictionary([
  "the",
  "what",
  "does",
  "health",
  "heath",
  "cover",
  "covered",
  "services",
  "ambulance",
  "hearing",
  "wealth",
  "explain",
  "explore",
  "coverage",
]);

/** Document frequencies as the catalog would give them for a space holding these texts. */
function spaceHolding(...texts: string[]) {
  const frequencies = new Map<number, number>();
  for (const text of texts)
    for (const id of countTerms(text).termIds) frequencies.set(id, (frequencies.get(id) ?? 0) + 1);
  const asked: number[][] = [];
  return {
    asked,
    documentFrequencies: async (termIds: number[]) => {
      asked.push(termIds);
      return new Map(termIds.map((id) => [id, frequencies.get(id) ?? 0]));
    },
  };
}

describe("edit distance (optimal string alignment)", () => {
  it.each([
    ["helth", "health", 1],
    ["servces", "services", 1],
    ["teh", "the", 1],
    ["ambuance", "ambulance", 1],
    ["explane", "explain", 2],
    ["kitten", "sitting", 3],
  ])("%s → %s is %i", (left, right, distance) => {
    expect(editDistance(left, right, 3)).toBe(distance);
  });

  it("stops at the limit", () => {
    expect(editDistance("kitten", "sitting", 1)).toBe(2);
  });
});

describe("spelling dictionary", () => {
  it("finds words one and two edits away, closest first, then in dictionary order", () => {
    expect(dictionary.candidates("helth", 1).map((candidate) => candidate.word)).toEqual(["health", "heath"]);
    expect(dictionary.candidates("heolth", 2).map((candidate) => [candidate.word, candidate.distance])).toEqual([
      ["health", 1],
      ["heath", 2],
      ["wealth", 2],
    ]);
  });
});

describe("correctQuerySpelling", () => {
  it("repairs words the documents and the dictionary lack into the closest word the documents use", async () => {
    const space = spaceHolding("Ambulance services are covered by Northwind Health.", "Hearing aids.");
    const corrected = await correctQuerySpelling("Wht does Northwind Helth cover ambuance servces?", {
      dictionary,
      documentFrequencies: space.documentFrequencies,
    });
    expect(corrected).toEqual({
      text: "Wht does Northwind Health cover ambulance services?",
      corrections: [
        { from: "Helth", to: "Health" },
        { from: "ambuance", to: "ambulance" },
        { from: "servces", to: "services" },
      ],
    });
    // First the unknown words' own terms, then the candidates of those the space lacks.
    expect(space.asked).toHaveLength(2);
    expect(space.asked[0]).toHaveLength(4); // Northwind, Helth, ambuance, servces
  });

  it("prefers the candidate the searched spaces use", async () => {
    // "heolth" is one edit from "health" and two from "heath" and "wealth"; only "wealth" is in the space.
    const space = spaceHolding("Wealth management.");
    const corrected = await correctQuerySpelling("heolth plans", {
      dictionary,
      documentFrequencies: space.documentFrequencies,
    });
    expect(corrected.text).toBe("wealth plans");
  });

  it("leaves a word alone when the documents use it, even if the dictionary lacks it", async () => {
    const space = spaceHolding("Northwind Helth is the plan's name.", "Health.");
    const corrected = await correctQuerySpelling("Does Helth cover it?", {
      dictionary,
      documentFrequencies: space.documentFrequencies,
    });
    expect(corrected).toEqual({ text: "Does Helth cover it?", corrections: [] });
    expect(space.asked).toHaveLength(1);
  });

  it("leaves names, acronyms, short words and dictionary words alone, without asking for statistics", async () => {
    const space = spaceHolding("Health services.");
    const query = "Does PerksPlus or TMJ coverage cover wht the explore?";
    const corrected = await correctQuerySpelling(query, { dictionary, documentFrequencies: space.documentFrequencies });
    expect(corrected).toEqual({ text: query, corrections: [] });
    expect(space.asked).toHaveLength(0);
  });

  it("keeps an unknown word when no close word occurs in the spaces (the question is about something absent)", async () => {
    const space = spaceHolding("Parental leave is twelve weeks.");
    const corrected = await correctQuerySpelling("What does AES-256 helth mean?", {
      dictionary,
      documentFrequencies: space.documentFrequencies,
    });
    expect(corrected).toEqual({ text: "What does AES-256 helth mean?", corrections: [] });
  });
});
