import { describe, expect, it } from "vitest";
import { createEstimatedTokenCounter } from "../../ingestion/estimated-token-counter.js";

describe("createEstimatedTokenCounter", () => {
  const counter = createEstimatedTokenCounter();

  it("counts the two special tokens for empty text, as the real tokenizer does", () => {
    expect(counter.count("")).toBe(2);
  });

  it("counts words, long words, digit runs and punctuation", () => {
    // The(1) company's(1+1+1) revenue(1) was(1) $(1) 1(1) ,(1) 234(1) million(1) .(1) + 2 special
    expect(counter.count("The company's revenue was $1,234 million.")).toBe(14);
    // "internationalization" is 20 letters: 3 pieces.
    expect(counter.count("internationalization")).toBe(5);
    expect(counter.count("2023 10-K")).toBe(2 + 2 + 1 + 1 + 1);
  });
});
