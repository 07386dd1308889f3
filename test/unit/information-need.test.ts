/**
 * The information need of a question: instructions, persona text and unit directions go; the
 * question, definitions, names and the statements a question points at stay.
 */
import { describe, expect, it } from "vitest";
import { informationNeed } from "../../src/retrieval/information-need.js";

describe("informationNeed", () => {
  it("leaves a plain question as asked", () => {
    expect(informationNeed("What does the plan cover for physical therapy?")).toBe(
      "What does the plan cover for physical therapy?",
    );
  });

  it("drops persona and instruction sentences and reads the question after an instruction's colon", () => {
    expect(
      informationNeed(
        "Assume that you are a public equities analyst. Answer the following question by primarily using information that is shown in the balance sheet: what is the year end FY2018 net PPNE for 3M? Answer in USD billions.",
      ),
    ).toBe("what is the year end fiscal 2018 net PPNE for 3M? (balance sheet)");
  });

  it("drops unit parentheticals and rounding directions, keeping the statement an instruction names", () => {
    expect(
      informationNeed(
        "What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a response to the question by relying on the details shown in the cash flow statement.",
      ),
    ).toBe("What is the fiscal 2018 capital expenditure amount for 3M? (cash flow statement)");
  });

  it("drops a leading guidance clause but keeps the names and short subjects it carries", () => {
    expect(informationNeed("Looking at VaR, did the risk decrease compared to the prior year?")).toBe(
      "did the risk decrease compared to the prior year? (VaR)",
    );
    expect(
      informationNeed(
        "Considering the information provided in the Northwind Health Plus Benefits Details, how can a policyholder manage costs?",
      ),
    ).toBe("how can a policyholder manage costs? (Northwind Health Plus Benefits Details)");
  });

  it("keeps definitions the question relies on, and drops conditional instructions", () => {
    expect(
      informationNeed(
        "Does Corning have positive working capital based on FY2022 data? If working capital is not a useful or relevant metric for this company, then please state that and explain why.",
      ),
    ).toBe("Does Corning have positive working capital based on fiscal 2022 data?");
    expect(
      informationNeed(
        "What is Block's FY2016 working capital ratio? Define working capital ratio as total current assets divided by total current liabilities. Round your answer to two decimal places.",
      ),
    ).toBe(
      "What is Block's fiscal 2016 working capital ratio? Define working capital ratio as total current assets divided by total current liabilities.",
    );
  });

  it("keeps the whole question when every sentence reads as an instruction", () => {
    expect(informationNeed("Explain the vacation policy.")).toBe("Explain the vacation policy.");
  });

  it("keeps a question that opens with a word an instruction could open with", () => {
    expect(informationNeed("State disability insurance: who qualifies?")).toBe(
      "State disability insurance: who qualifies?",
    );
    expect(informationNeed("Use of company cars: what is allowed on weekends?")).toBe(
      "Use of company cars: what is allowed on weekends?",
    );
  });
});
