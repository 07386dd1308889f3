/**
 * A questionnaire row is "answered" only when the pipeline's Answer passes the support test
 * (src/questionnaire/answer/answer-support.ts): a verified language-model answer, a direct answer worked out
 * from cited evidence, or one cited quote that holds most of the question's content words. Anything
 * else with sources needs review, with the closest source kept; nothing relevant is "not found".
 */
import { describe, expect, it } from "vitest";
import type { Answer, Citation } from "../../src/answer/answer-events.js";
import {
  judgeSupport,
  questionTerms,
  quoteStatesQuestion,
  SUPPORT_SCORE,
} from "../../src/questionnaire/answer/answer-support.js";
import { rowAnswerFrom } from "../../src/questionnaire/answer/row-answer.js";
import type { QuestionnaireQuestion } from "../../src/questionnaire/questionnaire.js";

function citation(n: number, quote: string, page = n): Citation {
  return {
    n,
    documentId: "0b3c2f9e-0000-4000-8000-000000000001",
    title: "Security Policy",
    file: "security-policy.pdf",
    pageStart: page,
    pageEnd: page,
    quote,
    url: `http://folio.test/files/0b3c2f9e-0000-4000-8000-000000000001#page=${page}`,
  };
}

function answer(quotes: string[], extra: Partial<Answer> = {}): Answer {
  return {
    requestId: "r1",
    answer: quotes.map((quote, index) => `${quote} [${index + 1}]`).join("\n"),
    noContext: false,
    citations: quotes.map((quote, index) => citation(index + 1, quote)),
    timingsMs: {},
    ...extra,
  };
}

function question(text: string, choices: string[] = []): QuestionnaireQuestion {
  return { position: 0, sheet: "Q", sheetIndex: 0, rowNumber: 2, column: 1, text, section: null, choices };
}

describe("the support test", () => {
  it("leaves the questionnaire's framing out of the question's content words", () => {
    expect(questionTerms("How long are backups kept?")).toEqual(["backup", "kept"]);
    expect(questionTerms("Describe how your company reviews administrator access.")).toEqual([
      "review",
      "administr",
      "access",
    ]);
  });

  it("holds a quote to most of the question's content words, in one passage", () => {
    const asked = "Do you encrypt customer data at rest?";
    expect(quoteStatesQuestion(asked, "Customer data at rest is encrypted with AES-256.")).toBe(true);
    // Two of four words (customer, data): a passage about something else that shares the subject.
    expect(quoteStatesQuestion(asked, "Customer data is collected every quarter.")).toBe(false);
    expect(quoteStatesQuestion("How long are backups kept?", "Backups are kept for 35 days.")).toBe(true);
    expect(quoteStatesQuestion("How long are backups kept?", "Backups are taken nightly.")).toBe(false);
  });

  it("asks a number of a question about a quantity, and a defining sentence of a question about a term", () => {
    const attempts = "How many consecutive failed authentication attempts are allowed on one account?";
    expect(quoteStatesQuestion(attempts, "Consecutive failed authentication attempts on an account are limited.")).toBe(
      false,
    );
    expect(
      quoteStatesQuestion(
        attempts,
        "Limit consecutive failed authentication attempts on one account to no more than 100.",
      ),
    ).toBe(true);
    expect(quoteStatesQuestion("How often is access reviewed?", "Access is reviewed annually.")).toBe(true);
    expect(quoteStatesQuestion("What is patch management?", "Compare enterprise patch management technologies.")).toBe(
      false,
    );
    expect(
      quoteStatesQuestion(
        "What is patch management?",
        "Patch management is the process for identifying, acquiring, installing, and verifying patches.",
      ),
    ).toBe(true);
    expect(
      quoteStatesQuestion(
        "What does Purge mean for media sanitization?",
        "Purge applies physical or logical techniques that render Target Data recovery infeasible.",
      ),
    ).toBe(true);
  });

  it("holds a definition question to a sentence that starts with the term and defines it", () => {
    expect(
      quoteStatesQuestion(
        "What is patch management?",
        "Enterprise patch management is dependent on having a current inventory of the software.",
      ),
    ).toBe(false);
    expect(
      quoteStatesQuestion(
        "What is Cryptographic Erase?",
        "Cryptographic Erase (CE) leverages the encryption of target data by sanitizing its key.",
      ),
    ).toBe(true);
    expect(
      quoteStatesQuestion(
        "What is Cryptographic Erase?",
        "When Cryptographic Erase is applied, verification must be performed first.",
      ),
    ).toBe(false);
    expect(
      quoteStatesQuestion(
        "What is a community cloud?",
        "Community cloud. The cloud infrastructure is provisioned for exclusive use by a specific community.",
      ),
    ).toBe(true);
  });

  it("needs a short question's words together, in its order", () => {
    expect(quoteStatesQuestion("What is risk a function of?", "Risk is a function of likelihood and impact.")).toBe(
      true,
    );
    expect(
      quoteStatesQuestion(
        "What is risk a function of?",
        "Categories within this Function include: Asset Management; Risk Assessment.",
      ),
    ).toBe(false);
  });

  it("needs every name the question gives, its predicate, and two content words at least", () => {
    // "Plus" is what the question asks about; the Standard plan's sentence does not state it.
    expect(
      quoteStatesQuestion(
        "Which services does Northwind Health Plus cover?",
        "Northwind Health covers these services in network.",
      ),
    ).toBe(false);
    expect(
      quoteStatesQuestion(
        "Which services does Northwind Health Plus cover?",
        "Northwind Health Plus covers medical, vision and dental services.",
      ),
    ).toBe(true);
    // "provide" is the predicate here, not an opening "Provide your …".
    expect(
      quoteStatesQuestion("What does the ETag header field provide?", "The ETag header field ABNF has been changed."),
    ).toBe(false);
    expect(questionTerms("Provide your password policy.")).toEqual(["password", "polici"]);
    expect(
      quoteStatesQuestion(
        "Do you use a web application firewall?",
        "Web application firewalls often do not protect containers.",
      ),
    ).toBe(false);
    expect(
      quoteStatesQuestion("How many offices does your company have?", "Send it to the Flight Standards Office 14."),
    ).toBe(false);
  });

  it("counts the cited document's name for a question that names the document", () => {
    const asked = "How many security-related areas do the FIPS 200 minimum security requirements cover?";
    const quote = "The minimum security requirements cover seventeen security-related areas.";
    expect(quoteStatesQuestion(asked, quote)).toBe(false);
    expect(quoteStatesQuestion(asked, quote, "FIPS 200 nist-fips200-minimum-security-requirements.pdf")).toBe(true);
    // Only the identifiers it names the document by: other words of the name do not stand in.
    expect(
      quoteStatesQuestion(
        "What should be completed after media is sanitized?",
        "Upon completion of sanitization decision making, the organization should record the decision.",
        "nist-sp800-88r1-media-sanitization.pdf",
      ),
    ).toBe(false);
  });

  it("marks an extractive answer answered when a cited quote states it, and quotes that passage", () => {
    const row = rowAnswerFrom(
      question("How long are backups kept?"),
      answer(["Backups run every night.", "Backups are kept for 35 days."]),
      undefined,
    );
    expect([row.status, row.note, row.quote]).toEqual(["answered", null, "Backups are kept for 35 days."]);
  });

  it("marks a quote that does not state the question 'needs review', keeping the closest source", () => {
    // The case: a question answered with a passage that shares a word or two with it.
    const row = rowAnswerFrom(
      question("Do you encrypt customer data at rest?"),
      answer(["Customer data is collected every quarter."]),
      undefined,
    );
    expect(row.status).toBe("needs_review");
    expect(row.note).toBe("no cited passage states what the question asks; the closest source is given");
    expect(row.sources.map((source) => source.pageStart)).toEqual([1]);
    expect(row.quote).toBe("Customer data is collected every quarter.");
  });

  it("takes a direct answer worked out from cited evidence as supported", () => {
    const direct = answer(["Net income; 2018: 1,933"], { value: { items: ["$1,933"], scale: "million" } });
    expect(judgeSupport("What was net income in fiscal 2018?", direct)).toEqual({
      supported: true,
      reason: "a direct answer worked out from the cited evidence",
    });
  });

  it("takes the reader's answer as supported when it is likely enough, whatever words the question uses", () => {
    // "retained" is not in the question; the reader found the sentence by what it says.
    const quote = "Audit logs are retained for one year in the central store.";
    const question = "How long do you keep audit records?";
    expect(quoteStatesQuestion(question, quote)).toBe(false);
    expect(judgeSupport(question, answer([quote], { reading: { reader: "window", score: SUPPORT_SCORE } }))).toEqual({
      supported: true,
      reason: "the answer's reader found a passage that states what the question asks",
    });
    expect(
      judgeSupport(question, answer([quote], { reading: { reader: "window", score: SUPPORT_SCORE - 0.01 } })).supported,
    ).toBe(false);
  });

  it("takes a language-model answer as supported only when it was verified", () => {
    const verification = { citedSentences: 1, supportedSentences: 1, unsupportedSentences: 0, latencyMs: 5 };
    const verified = answer(["Backups are kept for 35 days."], {
      verification: { ...verification, outcome: "verified" },
    });
    // Even a quote that would pass the extractive test does not rescue an unverified draft.
    const unverified = answer(["Backups are kept for 35 days."], {
      verification: { ...verification, outcome: "unsupported" },
    });
    expect(rowAnswerFrom(question("How long are backups kept?"), verified, undefined).status).toBe("answered");
    const row = rowAnswerFrom(question("How long are backups kept?"), unverified, undefined);
    expect([row.status, row.note]).toEqual([
      "needs_review",
      "the language model's draft could not be verified; the quotes stand",
    ]);
  });

  it("says 'not found in the documents' when the pipeline found nothing relevant", () => {
    const row = rowAnswerFrom(
      question("How many visitor parking spaces are there?"),
      answer(["Visitors sign in at the front desk."], { noContext: true }),
      undefined,
    );
    expect([row.status, row.sources, row.quote]).toEqual(["not_found", [], ""]);
  });

  it("answers a row with choices only with the choice one cited passage states", () => {
    const yesNo = ["Yes", "No"];
    const stated = rowAnswerFrom(
      question("Are backups encrypted at rest?", yesNo),
      answer(["All backups are encrypted at rest with AES-256."]),
      undefined,
    );
    expect([stated.status, stated.choice]).toEqual(["answered", "Yes"]);
    const unstated = rowAnswerFrom(
      question("Are backups encrypted at rest?", yesNo),
      answer(["Laptops are encrypted."]),
      undefined,
    );
    expect([unstated.status, unstated.choice]).toEqual(["needs_review", null]);
  });
});
