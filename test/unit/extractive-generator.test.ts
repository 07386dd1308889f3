import { describe, expect, it } from "vitest";
import { createExtractiveGenerator } from "../../src/answer/generate/extractive-generator.js";
import type { NumberedSource } from "../../src/answer/generate/generator.js";
import type { Embedder } from "../../src/embedding/embedder.js";
import type { LogFields, Logger } from "../../src/logger.js";

function source(n: number, text: string, documentId = "doc-cloud"): NumberedSource {
  return {
    n,
    result: {
      chunkId: `chunk-${n}`,
      documentId,
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

async function answer(question: string, sources: NumberedSource[], embedder?: Embedder): Promise<string> {
  let text = "";
  for await (const piece of createExtractiveGenerator({ embedder }).generate(question, sources)) text += piece;
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

  it("names a statement's amounts by their years, not its row labels by the unit note", async () => {
    const statement = [
      "Consolidated Statement of Cash Flows",
      "(Millions) | 2018 | 2017",
      "Purchases of property, plant and equipment (PP&E) | (1,577) | (1,373)",
      "Proceeds from sale of PP&E and other assets | 262 | 49",
    ].join("\n");
    expect(
      await answer("How much were purchases of property, plant and equipment?", [
        tableSource(statement, 1, 2, ["(Millions)", "2018", "2017"]),
      ]),
    ).toBe("“Purchases of property, plant and equipment (PP&E); 2018: (1,577); 2017: (1,373)” [1]");
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

/**
 * An embedder with hand-set meanings: each text's vector is the unit vector of the concept its words
 * name (a paraphrase names the same concept with other words), blended by `weight`; texts it does not
 * know point nowhere near any question. It records what it was asked to embed.
 */
function fakeEmbedder(meanings: Array<{ text: string; concept: number; weight?: number }>) {
  const calls: { queries: string[]; passages: string[][] } = { queries: [], passages: [] };
  const dimensions = 8;
  const vectorOf = (text: string): number[] => {
    const meaning = meanings.find((candidate) => candidate.text === text);
    const vector = new Array<number>(dimensions).fill(0);
    if (meaning === undefined) {
      vector[dimensions - 1] = 1;
      return vector;
    }
    const weight = meaning.weight ?? 1;
    vector[meaning.concept] = weight;
    vector[dimensions - 1] = Math.sqrt(1 - weight * weight);
    return vector;
  };
  const embedder: Embedder = {
    modelId: "fake",
    dimensions,
    async embedQuery(text) {
      calls.queries.push(text);
      return vectorOf(text);
    },
    async embedPassages(texts) {
      calls.passages.push(texts);
      return texts.map(vectorOf);
    },
    async close() {},
  };
  return { embedder, calls };
}

describe("extractive generator with an embedder (sentences chosen by meaning)", () => {
  const question = "What does AES stand for?";
  const wordy = "AES is what the stand at the front desk is for, next to the badge printer.";
  const defining = "The Advanced Encryption Standard protects data at rest with 256-bit keys.";

  it("quotes the sentence that means the answer over one that shares more of the question's words", async () => {
    const { embedder, calls } = fakeEmbedder([
      { text: question, concept: 0 },
      { text: defining, concept: 0, weight: 0.9 },
      { text: wordy, concept: 0, weight: 0.3 },
    ]);
    const sources = [source(1, `${wordy} ${defining}`)];
    expect(await answer(question, sources)).toBe(`“${wordy}” [1]`);
    expect(await answer(question, sources, embedder)).toBe(`“${defining}” [1]`);
    // The question is embedded as a query (with the model's instruction), the sentences as passages.
    expect(calls.queries).toEqual([question]);
    expect(calls.passages).toEqual([[wordy, defining]]);
  });

  it("quotes the first three sources close enough to the best, in retrieval order, best-supported first", async () => {
    const first = "Employees accrue fifteen vacation days per year.";
    const second = "Vacation days roll over for one year at most.";
    const weak = "Unused vacation days are paid out when employees leave.";
    const fourth = "Part-time employees accrue vacation days pro rata.";
    const fifth = "Vacation days are counted in working days, not calendar days.";
    const vacationQuestion = "How many vacation days do employees get?";
    const { embedder } = fakeEmbedder([
      { text: vacationQuestion, concept: 1 },
      { text: first, concept: 1, weight: 0.8 },
      { text: second, concept: 1, weight: 0.85 },
      { text: weak, concept: 1, weight: 0.5 },
      { text: fourth, concept: 1, weight: 0.82 },
      { text: fifth, concept: 1, weight: 0.84 },
    ]);
    // The third source is 0.35 below the best: left out. The fifth is close to the best, but three
    // closer-ranked sources come first. The second is the best supported: quoted first.
    const text = await answer(
      vacationQuestion,
      [first, second, weak, fourth, fifth].map((sentence, index) => source(index + 1, sentence, `doc-${index + 1}`)),
      embedder,
    );
    expect(text).toBe(`“${second}” [2]\n“${fourth}” [4]\n“${first}” [1]`);
  });

  it("always quotes the best-ranked source, however far its best sentence is from the best in cosine", async () => {
    const row = "Accounts payable; 2018: 303,154; 2017: 255,028";
    const prose = "The company pays its accounts payable to vendors within thirty days in 2018.";
    const far = "Accounts payable days rose in the prior year.";
    const payablesQuestion = "What were accounts payable at the end of 2018?";
    const { embedder } = fakeEmbedder([
      { text: payablesQuestion, concept: 3 },
      { text: row, concept: 3, weight: 0.5 },
      { text: prose, concept: 3, weight: 0.9 },
      { text: far, concept: 3, weight: 0.5 },
    ]);
    const text = await answer(
      payablesQuestion,
      [source(1, row, "doc-1"), source(2, prose, "doc-2"), source(3, far, "doc-3")],
      embedder,
    );
    // The third source is as far from the best as the first, but only the first-ranked source is kept regardless.
    expect(text).toBe(`“${prose}” [2]\n“${row}” [1]`);
  });

  it("never quotes the same sentence twice when overlapping chunks both hold it", async () => {
    const shared = "Orthodontics requires prior approval from the plan.";
    const other = "Approval requests are answered within ten working days.";
    const approvalQuestion = "Does orthodontics need prior approval?";
    const { embedder } = fakeEmbedder([
      { text: approvalQuestion, concept: 2 },
      { text: shared, concept: 2, weight: 0.9 },
      { text: other, concept: 2, weight: 0.85 },
    ]);
    const text = await answer(
      approvalQuestion,
      [source(1, shared, "doc-1"), source(2, `${shared} ${other}`, "doc-1")],
      embedder,
    );
    // The second chunk's best sentence repeats the first chunk's quote; its next best is not considered
    // either: a source is quoted for its best sentence only.
    expect(text).toBe(`“${shared}” [1]`);
  });

  it("embeds at most five sentences of a source: its best by the question's words", async () => {
    const sentences = Array.from({ length: 12 }, (_, index) =>
      index % 3 === 0
        ? `Parking permit number ${index} is issued by the office.`
        : `Filler sentence number ${index} says nothing.`,
    );
    const { embedder, calls } = fakeEmbedder([]);
    await answer("Who issues the parking permit?", [source(1, sentences.join(" "))], embedder);
    expect(calls.passages).toHaveLength(1);
    const embedded = calls.passages[0] ?? [];
    expect(embedded).toHaveLength(5);
    // The four sentences naming the question's words are all among them.
    expect(
      sentences.filter((sentence) => sentence.startsWith("Parking")).every((sentence) => embedded.includes(sentence)),
    ).toBe(true);
  });

  it("says so when no source shares a word with the question, without embedding anything", async () => {
    const { embedder, calls } = fakeEmbedder([]);
    const text = await answer(
      "Who won the chess tournament?",
      [source(1, "Employees may expense fitness programs.")],
      embedder,
    );
    expect(text).toBe("The closest passages are listed below; none of them states the answer directly.");
    expect(calls.passages).toEqual([]);
  });

  it("quotes by the question's words, with a warning, when embedding fails", async () => {
    const warnings: LogFields[] = [];
    const logger: Logger = {
      debug() {},
      info() {},
      warn(fields) {
        warnings.push(fields);
      },
      error() {},
      child() {
        return logger;
      },
    };
    const failing: Embedder = {
      modelId: "fake",
      dimensions: 8,
      embedQuery: async () => {
        throw new Error("worker crashed");
      },
      embedPassages: async () => {
        throw new Error("worker crashed");
      },
      async close() {},
    };
    let text = "";
    for await (const piece of createExtractiveGenerator({ embedder: failing, logger }).generate(
      "How much can employees expense for fitness programs?",
      [source(1, "Employees may expense up to $1000 for fitness programs each year.")],
    ))
      text += piece;
    expect(text).toBe("“Employees may expense up to $1000 for fitness programs each year.” [1]");
    expect(warnings.map((fields) => (fields.err as Error).message)).toEqual(["worker crashed"]);
  });
});
