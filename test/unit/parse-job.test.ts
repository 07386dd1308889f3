import { describe, expect, it } from "vitest";
import { resolveParseLimits } from "../../ingestion/limits.js";
import { runParseJob } from "../../ingestion/parse-job.js";
import { countTerms } from "../../src/retrieval/text-analyzer.js";

const chunking = { maxTokens: 512, overlapTokens: 64, tokenizerDirectory: null };

function parseText(text: string, fileName: string) {
  return runParseJob({ bytes: new TextEncoder().encode(text), fileName, limits: resolveParseLimits(), chunking });
}

describe("runParseJob", () => {
  it("returns each chunk with the term counts of its text under the contextual header", async () => {
    const outcome = await parseText("Revenue rose 4% in 2023.", "Northwind_Results.txt");
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect(outcome.chunks.map((chunk) => chunk.text)).toEqual(["Revenue rose 4% in 2023."]);
    // The parser titles a plain-text file after its name; the header repeats nothing the title says.
    expect(outcome.document.title).toBe("Northwind_Results");
    expect(outcome.chunks[0]?.terms).toEqual(countTerms("Northwind_Results\nRevenue rose 4% in 2023."));
    expect(outcome.chunks[0]?.terms).not.toEqual(countTerms("Revenue rose 4% in 2023."));
  });

  it("refuses a file with nothing to search as a ParseError reply, not a throw", async () => {
    const outcome = await parseText("   \n\n  ", "empty.txt");
    expect(outcome).toMatchObject({ ok: false, error: { code: "no_text", parse: true } });
  });
});
