/**
 * The prompt files and fitting sources into the model's context: the real prompts/ files load with
 * their versions, placeholders fill in one pass, and sources go in best first — whole while they
 * fit, then cut to the sentences nearest the question, then left out — keeping their own numbers.
 */
import { describe, expect, it } from "vitest";
import { fitSources } from "../../src/answer/generate/fit-sources.js";
import type { NumberedSource } from "../../src/answer/generate/generator.js";
import {
  describePromptVersions,
  fillTemplate,
  loadAnswerPrompts,
  parsePromptTemplate,
} from "../../src/answer/generate/prompt-templates.js";
import type { SearchResult } from "../../src/domain/types.js";

function source(n: number, title: string, text: string, pages: [number, number] | null): NumberedSource {
  const result: SearchResult = {
    chunkId: `c${n}`,
    documentId: `doc-${n}`,
    spaceId: "console:test",
    file: `${title}.pdf`,
    title,
    mediaType: "application/pdf",
    pageStart: pages?.[0] ?? null,
    pageEnd: pages?.[1] ?? null,
    score: 1,
    text,
    provenance: {},
    kind: "text",
  };
  return { n, result };
}

/** One token per whitespace-separated word: easy to count by hand. */
const countWords = (text: string) => text.split(/\s+/).filter((word) => word !== "").length;

describe("prompt templates", () => {
  it("loads the prompt files with their versions, the version line left out of the prompt", async () => {
    const prompts = await loadAnswerPrompts();
    expect(describePromptVersions(prompts)).toBe("answer-system v2, answer-sources v1, answer-question v1");
    expect(prompts.system.text.startsWith("You answer questions for a team using only the numbered sources")).toBe(
      true,
    );
    expect(prompts.system.text).not.toContain("<!--");
    expect(prompts.rewriteFollowUp.version).toBe("v2");
  });

  it("fills placeholders in one pass and refuses a file without its version line or a value it needs", () => {
    const template = parsePromptTemplate("answer-question", "<!-- prompt: answer-question v2 -->\nQ: {{question}}");
    expect(template).toEqual({ name: "answer-question", version: "v2", text: "Q: {{question}}" });
    expect(fillTemplate(template, { question: "what is {{question}}?" })).toBe("Q: what is {{question}}?");
    expect(() => fillTemplate(template, {})).toThrow(
      "prompts/answer-question.md uses {{question}}, which is not filled.",
    );
    expect(() => parsePromptTemplate("answer-system", "You answer…")).toThrow(
      'prompts/answer-system.md must start with "<!-- prompt: answer-system v1 -->" (its name and version).',
    );
  });
});

describe("fitSources", () => {
  const question = "How much can employees expense for fitness?";
  const sources = [
    source(1, "PerksPlus", "Employees may expense up to $1000 for fitness each year.", [2, 2]),
    source(
      2,
      "Handbook",
      "The office opens at nine. Fitness expenses need a receipt from the gym. Parking is free for staff.",
      [4, 5],
    ),
    source(3, "Benefits", "Dental care is covered in full for every employee and their family members.", null),
  ];

  it("puts whole sources in while they fit, cuts the next to its sentences nearest the question, and leaves the rest out", async () => {
    const prompts = await loadAnswerPrompts();
    const frameTokens =
      countWords(fillTemplate(prompts.system, {})) +
      countWords(fillTemplate(prompts.question, { sources: "", question }));
    // "[1] PerksPlus (page 2)" + 10 words = 14 tokens; source 2 whole is 22, cut to its fitness sentence 12
    // (with "The office opens at nine." it would be 17, over the 16 left).
    const fitted = await fitSources({
      question,
      sources,
      prompts,
      countTokens: countWords,
      budgetTokens: frameTokens + 30,
    });
    expect(fitted.included).toEqual([1, 2]);
    expect(fitted.trimmed).toEqual([2]);
    expect(fitted.promptTokens).toBe(frameTokens + 26);
    expect(fitted.messages[0]).toEqual({ role: "system", content: fillTemplate(prompts.system, {}) });
    expect(fitted.messages[1]?.content).toBe(
      fillTemplate(prompts.question, {
        question,
        sources:
          "[1] PerksPlus (page 2)\nEmployees may expense up to $1000 for fitness each year.\n\n[2] Handbook (pages 4–5)\nFitness expenses need a receipt from the gym.",
      }),
    );
  });

  it("keeps every source whole when the budget allows, numbered as given", async () => {
    const prompts = await loadAnswerPrompts();
    const fitted = await fitSources({ question, sources, prompts, countTokens: countWords, budgetTokens: 10_000 });
    expect(fitted.included).toEqual([1, 2, 3]);
    expect(fitted.trimmed).toEqual([]);
    expect(fitted.messages[1]?.content).toContain(
      "[3] Benefits (no page numbers)\nDental care is covered in full for every employee and their family members.",
    );
  });
});
