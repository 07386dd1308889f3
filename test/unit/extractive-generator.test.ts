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

describe("quoting tables", () => {
  function tableSource(text: string, rowStart: number, rowEnd: number, columns?: string[]): NumberedSource {
    const base = source(1, text);
    const provenance = { pageStart: 3, pageEnd: 3, rowStart, rowEnd, ...(columns ? { columns } : {}) };
    return { ...base, result: { ...base.result, kind: "table", provenance } };
  }

  const jal = [
    "2. JAL Group Total Domestic Pax Traffic",
    " | Pax | y.o.y(%)",
    "FY2013 | 31,218,734 | 104.0",
    "FY2014 | 31,557,697 | 100.0",
  ].join("\n");

  it("quotes the row that answers, each cell named by its column", async () => {
    expect(
      await answer("How many domestic passengers in FY2014?", [tableSource(jal, 1, 2, ["", "Pax", "y.o.y(%)"])]),
    ).toBe("“FY2014; Pax: 31,557,697; y.o.y(%): 100.0” [1]");
  });

  it("finds a table by its title when no row names the question's words", async () => {
    expect(
      await answer("What was JAL Group domestic traffic?", [tableSource(jal, 1, 2, ["", "Pax", "y.o.y(%)"])]),
    ).toBe("“FY2013; Pax: 31,218,734; y.o.y(%): 104.0” [1]");
  });

  it("never names cells after a title or a sheet line when the table has no header", async () => {
    const glossary = ["Glossary of Terms", "SLA | Service level agreement", "RPO | Recovery point objective"].join(
      "\n",
    );
    expect(await answer("What does RPO stand for?", [tableSource(glossary, 1, 2)])).toBe(
      "“RPO; Recovery point objective” [1]",
    );
    const sheet = ["Sheet: Contacts", "Helpdesk | ext. 4411", "Payroll | ext. 2290"].join("\n");
    expect(await answer("What is the payroll extension?", [tableSource(sheet, 1, 2)])).toBe("“Payroll; ext. 2290” [1]");
  });

  it("keeps a cell's own bar inside the cell, and shortens a wide row to the cells asked about", async () => {
    const builds = ["Name | Notes | Owner", "Build A¦B | ok | Ann"].join("\n");
    expect(await answer("Who owns build A?", [tableSource(builds, 1, 1, ["Name", "Notes", "Owner"])])).toBe(
      "“Name: Build A¦B; Notes: ok; Owner: Ann” [1]",
    );
    const columns = ["company", ...Array.from({ length: 12 }, (_, index) => `metric_${index}`), "net_profit"];
    const values = ["3M India", ...Array.from({ length: 12 }, (_, index) => `${1000 + index}.5`), "192.1"];
    const wide = [columns.join(" | "), values.join(" | ")].join("\n");
    expect(await answer("What was 3M India's net profit?", [tableSource(wide, 1, 1, columns)])).toBe(
      "“company: 3M India; net_profit: 192.1; …” [1]",
    );
  });
});
