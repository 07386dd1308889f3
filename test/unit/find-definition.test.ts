import { describe, expect, it } from "vitest";
import { findDefinition } from "../../src/answer/evidence/find-definition.js";
import type { NumberedSource } from "../../src/answer/generate/generator.js";
import { analyzeQuestion } from "../../src/answer/question/question-analysis.js";
import { pdfPassage } from "../support/answer-fixtures.js";

function textSource(n: number, text: string): NumberedSource {
  const result = pdfPassage({
    chunkId: `nist-sp-800-145-${n}`,
    documentId: "nist-sp-800-145",
    spaceId: "space-definitions",
    file: "nist-sp-800-145.pdf",
    title: "The NIST Definition of Cloud Computing",
    pageStart: 2,
    pageEnd: 2,
    text,
  });
  return { n, result };
}

const CLOUD_COMPUTING =
  "Cloud computing is a model for enabling ubiquitous, convenient, on-demand network access to a shared pool of configurable computing resources.";

describe("findDefinition", () => {
  it("quotes the sentence with 'is defined as' whole, with its offsets", () => {
    const text = `Private clouds are common. A hybrid cloud is defined as a composition of two or more distinct cloud infrastructures that remain unique entities.`;
    const source = textSource(1, text);
    const found = findDefinition(analyzeQuestion("What is a hybrid cloud?"), [source]);
    const sentence =
      "A hybrid cloud is defined as a composition of two or more distinct cloud infrastructures that remain unique entities.";
    expect(found?.source).toBe(source);
    expect(found?.passage).toEqual({ text: sentence, start: 27, end: 27 + sentence.length });
    expect(text.slice(found?.passage.start, found?.passage.end)).toBe(sentence);
  });

  it("takes 'X means …' as a definition of a capitalized term", () => {
    const text =
      "The Highest EBITDAR Contribution means the EBITDAR contributed by the single property with the largest share of total EBITDAR in the period. Other terms follow.";
    const found = findDefinition(analyzeQuestion("What is the Highest EBITDAR Contribution?"), [textSource(1, text)]);
    expect(found?.passage.text).toBe(
      "The Highest EBITDAR Contribution means the EBITDAR contributed by the single property with the largest share of total EBITDAR in the period.",
    );
  });

  it("does not take the noun 'a means' for a defining phrase", () => {
    const text =
      "This document serves as a means for comparison of cloud computing services and deployment strategies.";
    expect(findDefinition(analyzeQuestion("What is cloud computing?"), [textSource(1, text)])).toBeNull();
  });

  it("prefers the stronger defining phrase to a mere 'is a'", () => {
    const text = `${CLOUD_COMPUTING} In short, cloud computing refers to renting computing resources over the network from a provider.`;
    const found = findDefinition(analyzeQuestion("What is cloud computing?"), [textSource(1, text)]);
    expect(found?.passage.text).toBe(
      "In short, cloud computing refers to renting computing resources over the network from a provider.",
    );
  });

  it("finds the spelled-out form of an abbreviation, however short the sentence", () => {
    const text =
      "Infrastructure as a Service (IaaS). The capability provided to the consumer is to provision processing, storage and networks.";
    const found = findDefinition(analyzeQuestion("What does IaaS stand for?"), [textSource(1, text)]);
    expect(found?.passage).toEqual({ text: "Infrastructure as a Service (IaaS).", start: 0, end: 35 });
  });

  it("rejects a heading that names a definition without giving one", () => {
    const text =
      "The NIST Definition of Cloud Computing\n\nThe means of delivery differ for every cloud computing service.";
    expect(
      findDefinition(analyzeQuestion("What is the definition of cloud computing?"), [textSource(1, text)]),
    ).toBeNull();
  });

  it("takes the term as the subject of 'is' for its definition, over a sentence that only mentions it", () => {
    const text = [
      "Free Cash Flow",
      "Free cash flow is cash flow from operations reduced by purchases of property and equipment, net of incentives.",
      "The following is a reconciliation of free cash flow to the most comparable GAAP cash flow measure for 2017.",
    ].join("\n");
    const found = findDefinition(analyzeQuestion("How does Amazon define free cash flow?"), [textSource(1, text)]);
    expect(found?.passage.text).toContain("Free cash flow is cash flow from operations reduced by purchases");
  });

  it("needs every word of the term in the sentence", () => {
    expect(findDefinition(analyzeQuestion("What is a hybrid cloud?"), [textSource(1, CLOUD_COMPUTING)])).toBeNull();
  });

  it("returns null for a question without a term", () => {
    expect(findDefinition(analyzeQuestion("And the year before?"), [textSource(1, CLOUD_COMPUTING)])).toBeNull();
  });

  it("prefers the term as the sentence's subject to the term mentioned in passing", () => {
    const passing =
      "Agencies evaluating vendors should know that cloud computing is a model that changes procurement rules.";
    const sources = [textSource(1, passing), textSource(2, CLOUD_COMPUTING)];
    const found = findDefinition(analyzeQuestion("What is cloud computing?"), sources);
    expect(found?.source.n).toBe(2);
    expect(found?.passage.text).toBe(CLOUD_COMPUTING);
  });

  it("takes a handbook definition with 'refers to'", () => {
    const text =
      "Paid time off (PTO) refers to the hours an employee may take away from work with full pay for vacation, illness or personal matters.";
    const found = findDefinition(analyzeQuestion("What is paid time off?"), [textSource(1, text)]);
    expect(found?.passage.text).toBe(text);
  });
});
