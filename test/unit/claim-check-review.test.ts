/**
 * The misses an independent review of the claim check found (issue #40), each as a crafted answer from
 * a stub model whose every sentence an embedder finds as close to the source as can be — so only the
 * claim check stands between the answer and the asker. The wrong answer is never shown (the reader's
 * answer stands); the right one, written the same way, is shown as checked. The same cases are held to
 * checkClaims directly, with the part each wrong claim fails on.
 */
import { describe, expect, it } from "vitest";
import type { Answer } from "../../src/answer/answer-events.js";
import { createAnswerService } from "../../src/answer/answer-question.js";
import { checkClaims } from "../../src/answer/generate/claim-check.js";
import { createExtractiveGenerator } from "../../src/answer/generate/extractive-generator.js";
import type { AnswerGenerator } from "../../src/answer/generate/generator.js";
import { draftsFrom } from "../../src/answer/generate/llm-generator.js";
import type { SearchResult } from "../../src/domain/types.js";
import type { Embedder } from "../../src/embedding/embedder.js";
import { silentLogger } from "../../src/logger.js";

type ReviewCase = {
  name: string;
  source: string;
  question: string;
  wrong: string;
  /** What checkClaims reports of the wrong claim (markers stripped). */
  failsOn: string[];
  right: string;
};

const CASES: ReviewCase[] = [
  {
    name: "a number written in words",
    source: "The Falcon project budget is 3.9 million euros for the year.",
    question: "What is the Falcon project budget?",
    wrong: "The Falcon project budget is four point two million euros for the year [1].",
    failsOn: ['number "four point two million"'],
    right: "The Falcon project budget is three point nine million euros for the year [1].",
  },
  {
    name: "the wrong scale",
    source: "The Falcon project budget is 4.2 million euros for the year.",
    question: "What is the Falcon project budget?",
    wrong: "The Falcon project budget is 4.2 billion euros for the year [1].",
    failsOn: ['number "4.2 billion"'],
    right: "The Falcon project budget is 4,200,000 euros for the year [1].",
  },
  {
    name: "the wrong unit",
    source: "Employees must file a travel claim within 30 days of returning from the trip.",
    question: "When must a travel claim be filed?",
    wrong: "Employees must file a travel claim within 30 years of returning from the trip [1].",
    failsOn: ['number "30"'],
    right: "Employees must file a travel claim within thirty days of returning from the trip [1].",
  },
  {
    name: "a negation flipped",
    source: "The company did not retain the customer records after the audit.",
    question: "Did the company retain the customer records after the audit?",
    wrong: "The company did retain the customer records after the audit [1].",
    failsOn: ['negation "The company did retain the customer records the audit."'],
    right: "The company didn't retain the customer records after the audit [1].",
  },
  {
    name: "a year the source gives to something else",
    source: "The 2023 budget of the Falcon project is 4.2 million euros. The Falcon team moves to Oslo in 2024.",
    question: "What is the Falcon project budget?",
    wrong: "The Falcon project budget for 2024 is 4.2 million euros [1].",
    failsOn: ['number "4.2 million" (printed of something else)'],
    right: "The Falcon project budget for 2023 is 4.2 million euros [1].",
  },
  {
    name: "a name the source gives to something else",
    source: "Contoso signed a supply contract with Northwind in March. Fabrikam is based in Oslo.",
    question: "Who did Contoso sign a supply contract with?",
    wrong: "Contoso signed a supply contract with Fabrikam in March [1].",
    failsOn: ['name "Fabrikam" (not said of what the sentence says)'],
    right: "Contoso signed a supply contract with Northwind in March [1].",
  },
  {
    name: "a figure the source gives of another subject",
    source: "The Paris office has 40 employees and the Berlin office has 25 employees.",
    question: "How many employees does the Berlin office have?",
    wrong: "The Berlin office has 40 employees [1].",
    failsOn: ['number "40" (printed of something else)'],
    right: "The Berlin office has 25 employees [1].",
  },
  {
    name: "AES-128 for AES-256",
    source: "Backups are encrypted with AES-256 at rest and with TLS in transit.",
    question: "How are backups encrypted at rest?",
    wrong: "Backups are encrypted with AES-128 at rest [1].",
    failsOn: ['code "AES-128"'],
    right: "Backups are encrypted with AES 256 at rest [1].",
  },
  {
    name: "a defanged link",
    source: "Report phishing to the security team at security.contoso.example within one hour.",
    question: "Where do I report phishing?",
    wrong: "Report phishing to the security team at evil(.)com within one hour [1].",
    failsOn: ['link "evil(.)com"'],
    right: "Report phishing to the security team at security.contoso.example within one hour [1].",
  },
  {
    name: "another defanged form",
    source: "Report phishing to the security team at security.contoso.example within one hour.",
    question: "Where do I report phishing?",
    wrong: "Report phishing to the security team at hxxps://evil[.]com/report within one hour [1].",
    failsOn: ['link "hxxps://evil[.]com/report"'],
    right: "Report phishing to the security team at security[.]contoso[.]example within one hour [1].",
  },
];

function chunk(text: string): SearchResult {
  return {
    chunkId: "c1",
    documentId: "doc-1",
    spaceId: "console:test",
    file: "policy.pdf",
    title: "Policy",
    mediaType: "application/pdf",
    pageStart: 1,
    pageEnd: 1,
    score: 1,
    text,
    provenance: { pageStart: 1, pageEnd: 1, charStart: 0, charEnd: text.length },
    kind: "text",
  };
}

/** Every text at cosine 1 with every other: the similarity test passes whatever the model writes. */
const EVERYTHING_CLOSE: Embedder = {
  modelId: "everything-close",
  dimensions: 2,
  embedQuery: async () => [1, 0],
  embedPassages: async (texts) => texts.map(() => [1, 0]),
  close: async () => {},
};

const stubModel = (answer: string): AnswerGenerator => ({
  async *generate() {
    yield answer;
  },
});

/** The answer with a stub model that writes `answer`; with null, the reader's own answer (no model). */
async function ask(review: ReviewCase, answer: string | null): Promise<Answer> {
  const service = createAnswerService({
    retriever: { search: async () => [chunk(review.source)] },
    generator: createExtractiveGenerator(),
    llm: answer === null ? null : { writer: draftsFrom(stubModel(answer)), embedder: EVERYTHING_CLOSE },
    linkForCitation: () => "https://folio.test/files/doc-1",
    pageTexts: async () => [{ pageNumber: 1, text: review.source }],
    logger: silentLogger,
  });
  for await (const event of service.answerQuestion(review.question, {
    spaceIds: ["console:test"],
    history: [],
    requestId: "r",
  }))
    if (event.type === "done") return event.answer;
  throw new Error("no answer");
}

describe("the review's unsupported claims (a stub model, every sentence close to the source)", () => {
  it.each(CASES)("never shows $name, and shows the right claim written the same way", async (review) => {
    const wrong = await ask(review, review.wrong);
    expect(wrong.verification?.outcome).toBe("unsupported");
    expect(wrong.answer).not.toContain(review.wrong.replace(" [1].", ""));
    // The reader's answer stands, as it is without a model.
    expect(wrong.answer).toBe((await ask(review, null)).answer);
    const right = await ask(review, review.right);
    expect(right.verification?.outcome).toBe("verified");
    expect(right.answer.endsWith(review.right)).toBe(true);
  });

  it.each(CASES)("checkClaims names the part of $name that fails", (review) => {
    const claim = (sentence: string) => sentence.replace(/\s?\[\d\]/g, "");
    expect(checkClaims({ claim: claim(review.wrong), evidence: review.source, question: review.question })).toEqual({
      supported: false,
      unverified: review.failsOn,
      uncoveredClauses: [],
    });
    expect(checkClaims({ claim: claim(review.right), evidence: review.source, question: review.question })).toEqual({
      supported: true,
      unverified: [],
      uncoveredClauses: [],
    });
  });
});
