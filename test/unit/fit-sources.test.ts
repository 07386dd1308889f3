/**
 * The prompt files and fitting sources into a budget of tokens: the real prompts/ files load with
 * their versions, placeholders fill in one pass, and sources go in best first — the first within 40%
 * of the budget, each later one within 20%, whole when they fit, else cut to a window around their
 * best passage — keeping their own numbers, with the checked facts after them.
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
    expect(describePromptVersions(prompts)).toBe(
      "answer-system v3, answer-sources v1, answer-question v2, answer-facts v1",
    );
    expect(prompts.system.text.startsWith("You answer a colleague's question from the numbered sources")).toBe(true);
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
      "The office opens at nine. Parking is free for staff. Fitness expenses need a receipt from the gym. Lockers are on the second floor. The canteen closes at three.",
      [4, 5],
    ),
    source(3, "Benefits", "Dental care is covered in full for every employee and their family members.", null),
  ];

  it("puts the first source in whole within 40% of the budget, cuts the next to its best sentence and neighbours within 20%", async () => {
    const prompts = await loadAnswerPrompts();
    // Budget 100: source 1 may take 40 tokens, later ones 20. "[1] PerksPlus (page 2)" + 10 words = 14.
    // Source 2 whole is 33 words; its best sentence (8 words + 4 of its line) fits, and with the sentence
    // after it 17, with the one before as well 22 (over 20). Source 3 whole takes 19.
    const fitted = await fitSources({
      question,
      sources,
      prompts,
      countTokens: countWords,
      budgetTokens: 10_000,
      sourceTokens: 100,
    });
    expect(fitted.included).toEqual([1, 2, 3]);
    expect(fitted.trimmed).toEqual([2]);
    expect(fitted.shown).toEqual(
      new Map([
        [
          2,
          [
            { text: "Fitness expenses need a receipt from the gym.", start: 53, end: 98 },
            { text: "Lockers are on the second floor.", start: 99, end: 131 },
          ],
        ],
      ]),
    );
    const frameTokens =
      countWords(fillTemplate(prompts.system, {})) +
      countWords(fillTemplate(prompts.question, { sources: "", facts: "", question }));
    expect(fitted.promptTokens).toBe(frameTokens + 14 + 17 + 19);
    expect(fitted.messages[0]).toEqual({ role: "system", content: fillTemplate(prompts.system, {}) });
    expect(fitted.messages[1]?.content).toBe(
      fillTemplate(prompts.question, {
        question,
        facts: "",
        sources:
          "[1] PerksPlus (page 2)\nEmployees may expense up to $1000 for fitness each year.\n\n[2] Handbook (pages 4–5)\nFitness expenses need a receipt from the gym. Lockers are on the second floor.\n\n[3] Benefits (no page numbers)\nDental care is covered in full for every employee and their family members.",
      }),
    );
  });

  it("stops when the budget is spent, and lists the checked facts after the sources", async () => {
    const prompts = await loadAnswerPrompts();
    const fitted = await fitSources({
      question,
      sources,
      prompts,
      facts: ["Employees may expense up to $1000 for fitness each year [1]."],
      countTokens: countWords,
      budgetTokens: 10_000,
      sourceTokens: 40,
    });
    // Source 1 takes 14 of 40; source 2 may take 8 (20%), less than its best sentence alone (12): left out, and 3 too.
    expect(fitted.included).toEqual([1]);
    expect(fitted.messages[1]?.content).toContain(
      "Employees may expense up to $1000 for fitness each year.\n\nChecked facts:\n- Employees may expense up to $1000 for fitness each year [1].\n\nQuestion: How much can employees expense for fitness?",
    );
  });

  it("keeps every source whole when the budget allows, numbered as given", async () => {
    const prompts = await loadAnswerPrompts();
    const fitted = await fitSources({
      question,
      sources,
      prompts,
      countTokens: countWords,
      budgetTokens: 10_000,
      sourceTokens: 10_000,
    });
    expect(fitted.included).toEqual([1, 2, 3]);
    expect(fitted.trimmed).toEqual([]);
    expect(fitted.messages[1]?.content).toContain(
      "[3] Benefits (no page numbers)\nDental care is covered in full for every employee and their family members.",
    );
  });

  it("never takes more than the model's context leaves, whatever the source budget", async () => {
    const prompts = await loadAnswerPrompts();
    const frameTokens =
      countWords(fillTemplate(prompts.system, {})) +
      countWords(fillTemplate(prompts.question, { sources: "", facts: "", question }));
    const fitted = await fitSources({
      question,
      sources,
      prompts,
      countTokens: countWords,
      budgetTokens: frameTokens + 40,
      sourceTokens: 10_000,
    });
    expect(fitted.included).toEqual([1]);
    expect(fitted.promptTokens).toBe(frameTokens + 14);
  });
});
