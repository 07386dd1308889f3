import { describe, expect, it } from "vitest";
import { yesNoVerdict } from "../../src/answer/compose/yes-no-verdict.js";
import { uniqueTerms } from "../../src/answer/evidence/sentence-scoring.js";

const verdict = (question: string, sentence: string, asked: string) =>
  yesNoVerdict(question, sentence, uniqueTerms(asked));

describe("yesNoVerdict", () => {
  it("says yes when the sentence states what is asked", () => {
    expect(
      verdict(
        "Is Converse a reportable segment of Nike?",
        "Converse is also a reportable segment and operates in one industry.",
        "reportable segment",
      ),
    ).toBe("yes");
  });

  it("says no when the sentence negates it near the words asked about", () => {
    expect(
      verdict(
        "Are the Practice Tips in the trustee handbook mandatory?",
        "The Practice Tips are not considered mandatory.",
        "practice tips trustee handbook mandatory",
      ),
    ).toBe("no");
  });

  it("says no when the sentence moves the other way", () => {
    expect(
      verdict(
        "Did the company raise its dividend?",
        "The company reduced its quarterly dividend to $0.10.",
        "company dividend",
      ),
    ).toBe("no");
  });

  it("gives no verdict when the sentence only expects or plans", () => {
    expect(
      verdict(
        "Did MGM close the sale of The Mirage?",
        "MGM expects to close the sale of The Mirage in the fourth quarter.",
        "close sale mirage",
      ),
    ).toBeNull();
  });

  it("gives no verdict when the sentence tells how things were before", () => {
    expect(
      verdict(
        "Is the FedRAMP registry still an Excel spreadsheet?",
        "The FedRAMP OSCAL Registry was originally provided as a spreadsheet.",
        "fedramp registry excel spreadsheet",
      ),
    ).toBeNull();
    expect(
      verdict(
        "Is the registry a spreadsheet?",
        "The registry is no longer provided as a spreadsheet.",
        "registry spreadsheet",
      ),
    ).toBe("no");
  });
});
