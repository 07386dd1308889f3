import { describe, expect, it } from "vitest";
import { createExtractiveGenerator } from "../../src/answer/extractive-generator.js";
import type { NumberedSource } from "../../src/answer/generator.js";

function source(n: number, text: string): NumberedSource {
  return {
    n,
    result: {
      chunkId: `chunk-${n}`,
      documentId: "doc-cloud",
      spaceId: "console:test",
      file: "cloud.pdf",
      title: "Cloud definition",
      mediaType: "application/pdf",
      pageStart: n,
      pageEnd: n,
      score: 10 - n,
      text,
      provenance: {},
      kind: "text",
    },
  };
}

async function answer(question: string, sources: NumberedSource[]): Promise<string> {
  let text = "";
  for await (const piece of createExtractiveGenerator().generate(question, sources)) text += piece;
  return text;
}

describe("extractive generator", () => {
  it("quotes a run-in heading together with the sentence it introduces", async () => {
    const text = await answer("What is rapid elasticity?", [
      source(1, "Rapid elasticity. Capabilities can be elastically provisioned and released to scale with demand."),
    ]);
    expect(text).toBe(
      "“Rapid elasticity. Capabilities can be elastically provisioned and released to scale with demand.” [1]",
    );
  });

  it("prefers the sentence with the question's specific term over one with words every source shares", async () => {
    const text = await answer("What is rapid elasticity in cloud computing?", [
      source(1, "Cloud computing is a model for cloud computing services over the network."),
      source(2, "Providers offer rapid elasticity, so capacity follows demand."),
      source(3, "Cloud computing has five essential characteristics for consumers."),
    ]);
    expect(text.split("\n")[0]).toBe("“Providers offer rapid elasticity, so capacity follows demand.” [2]");
  });

  it("leaves out further quotes with less than half the best quote's support", async () => {
    const text = await answer("How much can employees expense for fitness programs?", [
      source(1, "Employees may expense up to $1000 for fitness programs each year."),
      source(2, "The fitness center opens at six in the morning."),
    ]);
    expect(text).toBe("“Employees may expense up to $1000 for fitness programs each year.” [1]");
  });

  it("says so when no source shares a term with the question", async () => {
    const text = await answer("Who won the chess tournament?", [source(1, "Employees may expense fitness programs.")]);
    expect(text).toMatch(/none of them states the answer/);
  });
});
