/**
 * Citations from [n] markers: unknown markers go, each citation quotes the sentence it is cited for
 * and names the page(s) holding that sentence, narrowed inside multi-page chunks by provenance
 * offsets (the TF-IDF page finder only when offsets are missing), and no sentence is quoted twice
 * (overlapping chunks of one document give one citation). The last test runs the real PDF
 * parser and chunker on a Northwind PDF and checks every multi-page chunk's narrowed page.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { chunkDocument } from "../../ingestion/chunker.js";
import { DEFAULT_PARSE_LIMITS } from "../../ingestion/limits.js";
import { parsePdf } from "../../ingestion/parse-pdf.js";
import { splitSentences } from "../../ingestion/split-sentences.js";
import { loadTokenCounter } from "../../ingestion/token-counter.js";
import type { Citation } from "../../src/answer/answer-events.js";
import {
  buildCitation,
  buildCitations,
  numberCitations,
  pageAtOffset,
  resolveMarkers,
  uniqueCitations,
} from "../../src/answer/citations/citations.js";
import { shortenQuote } from "../../src/answer/evidence/sentence-scoring.js";
import { createExtractiveGenerator } from "../../src/answer/generate/extractive-generator.js";
import type { NumberedSource } from "../../src/answer/generate/generator.js";
import type { PageText, Provenance, SearchResult } from "../../src/domain/types.js";
import { sharedData, sharedModel } from "../support/shared-paths.js";

const PAGES: PageText[] = [
  { pageNumber: 1, text: "Cover page. Contoso Benefits Guide." },
  {
    pageNumber: 2,
    text: "Dental cleanings are covered twice a year. Orthodontics requires prior approval from the plan.",
  },
  {
    pageNumber: 3,
    text: "Vision exams are covered once every twelve months. Contact lenses have an allowance of 150 dollars.",
  },
  { pageNumber: 4, text: "" },
  { pageNumber: 5, text: "Hearing aids are covered every three years. Claims go to the benefits office." },
];

/** A chunk exactly as the chunker builds one: page slices joined with "\n", offsets into the end pages. */
function chunkOf(
  pages: PageText[],
  provenance: Required<Pick<Provenance, "pageStart" | "pageEnd" | "charStart" | "charEnd">>,
): SearchResult {
  const { pageStart, pageEnd, charStart, charEnd } = provenance;
  const parts: string[] = [];
  for (let page = pageStart; page <= pageEnd; page += 1) {
    const text = pages[page - 1]?.text ?? "";
    parts.push(text.slice(page === pageStart ? charStart : 0, page === pageEnd ? charEnd : text.length));
  }
  return resultWith(parts.join("\n"), pageStart, pageEnd, provenance);
}

function resultWith(
  text: string,
  pageStart: number | null,
  pageEnd: number | null,
  provenance: Provenance,
  documentId = "doc-1",
): SearchResult {
  return {
    chunkId: `chunk-${documentId}-${pageStart}-${text.length}`,
    documentId,
    spaceId: "console:test",
    file: "benefits.pdf",
    title: "Benefits Guide",
    mediaType: "application/pdf",
    pageStart,
    pageEnd,
    score: 1,
    text,
    provenance,
    kind: "text",
  };
}

/** Fake page store and link signer that record what they were asked. */
function recorders(pages: PageText[] = PAGES) {
  const pageRequests: string[] = [];
  const links: Array<{ documentId: string; page: number | null; section?: readonly string[] | null }> = [];
  return {
    pageRequests,
    links,
    pageTexts: async (documentId: string) => {
      pageRequests.push(documentId);
      return pages;
    },
    linkForCitation: (request: { documentId: string; page: number | null; section?: readonly string[] | null }) => {
      links.push(request);
      return `https://folio.test/files/${request.documentId}${request.page === null ? "" : `#page=${request.page}`}`;
    },
  };
}

const wholeChunk = chunkOf(PAGES, { pageStart: 1, pageEnd: 5, charStart: 0, charEnd: PAGES[4]?.text.length ?? 0 });

describe("resolveMarkers", () => {
  it("keeps markers of known sources in first-cited order, once each", () => {
    expect(resolveMarkers("Alpha [2]. Beta [1]. Gamma [2][1].", new Set([1, 2]))).toEqual({
      answer: "Alpha [2]. Beta [1]. Gamma [2][1].",
      cited: [2, 1],
    });
  });

  it("removes markers that point to no source, with the space before them", () => {
    expect(resolveMarkers("Alpha [7]. Beta [0] and [1]. Gamma[12].", new Set([1, 2]))).toEqual({
      answer: "Alpha. Beta and [1]. Gamma.",
      cited: [1],
    });
  });

  it("does not read [11] as [1]", () => {
    expect(resolveMarkers("Eleven [11].", new Set([1]))).toEqual({ answer: "Eleven.", cited: [] });
  });

  it("leaves an answer without markers unchanged", () => {
    expect(resolveMarkers("No markers here.", new Set([1]))).toEqual({ answer: "No markers here.", cited: [] });
  });
});

describe("pageAtOffset", () => {
  const chunk = chunkOf(PAGES, { pageStart: 2, pageEnd: 3, charStart: 10, charEnd: 30 });
  const secondPageLength = (PAGES[1]?.text.length ?? 0) - 10;

  it("maps chunk offsets to the page they fall on, across the joining newline", () => {
    expect(pageAtOffset(chunk, PAGES, 0)).toBe(2);
    expect(pageAtOffset(chunk, PAGES, secondPageLength - 1)).toBe(2);
    // The "\n" joining the pages, then the first character of page 3.
    expect(chunk.text[secondPageLength]).toBe("\n");
    expect(pageAtOffset(chunk, PAGES, secondPageLength + 1)).toBe(3);
    expect(pageAtOffset(chunk, PAGES, chunk.text.length - 1)).toBe(3);
  });

  it("steps over an empty page", () => {
    const acrossEmpty = chunkOf(PAGES, { pageStart: 3, pageEnd: 5, charStart: 0, charEnd: 20 });
    const hearing = acrossEmpty.text.indexOf("Hearing");
    expect(pageAtOffset(acrossEmpty, PAGES, hearing)).toBe(5);
    expect(pageAtOffset(acrossEmpty, PAGES, hearing - 1)).toBe(5);
    expect(pageAtOffset(acrossEmpty, PAGES, hearing - 3)).toBe(3);
  });

  it("is null without offsets or when a page is missing", () => {
    expect(pageAtOffset(resultWith("text", 2, 3, { pageStart: 2, pageEnd: 3 }), PAGES, 0)).toBeNull();
    expect(pageAtOffset(chunk, PAGES.slice(0, 2), secondPageLength + 1)).toBeNull();
  });
});

describe("buildCitations", () => {
  it("narrows a multi-page chunk to the page holding the quoted sentence, and quotes that sentence", async () => {
    const recorder = recorders();
    const sources: NumberedSource[] = [{ n: 1, result: wholeChunk }];
    const { answer, citations } = await buildCitations(
      "Contact lenses come with an allowance of 150 dollars [1].",
      sources,
      recorder.pageTexts,
      recorder.linkForCitation,
    );
    expect(answer).toBe("Contact lenses come with an allowance of 150 dollars [1].");
    expect(citations).toEqual([
      {
        n: 1,
        documentId: "doc-1",
        title: "Benefits Guide",
        file: "benefits.pdf",
        pageStart: 3,
        pageEnd: 3,
        quote: "Contact lenses have an allowance of 150 dollars.",
        url: "https://folio.test/files/doc-1#page=3",
      },
    ]);
    expect(recorder.links).toEqual([{ documentId: "doc-1", page: 3 }]);
  });

  it("cites each source for its own claims and drops markers of unknown sources", async () => {
    const recorder = recorders();
    const other = resultWith("Hearing aids are covered every three years.", 5, 5, {
      pageStart: 5,
      pageEnd: 5,
      charStart: 0,
      charEnd: 43,
    });
    const { answer, citations } = await buildCitations(
      "Orthodontics needs prior approval [1]. Hearing aids every three years [2]. Nonsense [9].",
      [
        { n: 1, result: wholeChunk },
        { n: 2, result: { ...other, documentId: "doc-2" } },
      ],
      recorder.pageTexts,
      recorder.linkForCitation,
    );
    expect(answer).toBe("Orthodontics needs prior approval [1]. Hearing aids every three years [2]. Nonsense.");
    expect(citations.map(({ n, pageStart, pageEnd, quote }) => ({ n, pageStart, pageEnd, quote }))).toEqual([
      { n: 1, pageStart: 2, pageEnd: 2, quote: "Orthodontics requires prior approval from the plan." },
      { n: 2, pageStart: 5, pageEnd: 5, quote: "Hearing aids are covered every three years." },
    ]);
    // A single-page chunk needs no page texts.
    expect(recorder.pageRequests).toEqual(["doc-1"]);
  });

  it("cites both pages for a sentence that runs across a page break, linking where it starts", async () => {
    const pages: PageText[] = [
      { pageNumber: 1, text: "This page is the introduction. The annual deductible for the standard plan is" },
      { pageNumber: 2, text: "two thousand dollars per person. Unrelated closing words." },
    ];
    const chunk = chunkOf(pages, { pageStart: 1, pageEnd: 2, charStart: 0, charEnd: pages[1]?.text.length ?? 0 });
    const recorder = recorders(pages);
    const citation = await buildCitation(
      { n: 1, result: chunk },
      "What is the annual deductible of the standard plan?",
      recorder.pageTexts,
      recorder.linkForCitation,
    );
    expect(citation).toMatchObject({
      pageStart: 1,
      pageEnd: 2,
      quote: "The annual deductible for the standard plan is two thousand dollars per person.",
      url: "https://folio.test/files/doc-1#page=1",
    });
  });

  it("falls back to the TF-IDF page finder within the chunk's pages when offsets are missing", async () => {
    const text = `${PAGES[1]?.text}\n${PAGES[2]?.text}`;
    const recorder = recorders();
    const citation = await buildCitation(
      { n: 1, result: resultWith(text, 2, 3, { pageStart: 2, pageEnd: 3 }) },
      "How often are vision exams covered?",
      recorder.pageTexts,
      recorder.linkForCitation,
    );
    expect(citation).toMatchObject({
      pageStart: 3,
      pageEnd: 3,
      quote: "Vision exams are covered once every twelve months.",
    });
  });

  it("keeps pages null for files without pages, and links without a page", async () => {
    const recorder = recorders();
    const citation = await buildCitation(
      { n: 4, result: resultWith("Remote work needs a manager's approval. Ask HR.", null, null, {}) },
      "remote work approval",
      recorder.pageTexts,
      recorder.linkForCitation,
    );
    expect(citation).toMatchObject({
      n: 4,
      pageStart: null,
      pageEnd: null,
      quote: "Remote work needs a manager's approval.",
      url: "https://folio.test/files/doc-1",
    });
    expect(recorder.pageRequests).toEqual([]);
  });

  it("names the section of a passage without pages, and links to it", async () => {
    const recorder = recorders();
    const text = "Full-time employees earn 4 hours of annual leave each pay period.";
    const headingPath = ["Leave types", "Annual leave"];
    const citation = await buildCitation(
      { n: 2, result: resultWith(text, null, null, { headingPath }) },
      "annual leave per pay period",
      recorder.pageTexts,
      recorder.linkForCitation,
    );
    expect(citation).toMatchObject({ n: 2, pageStart: null, pageEnd: null, section: headingPath, quote: text });
    expect(recorder.links).toEqual([{ documentId: "doc-1", page: null, section: headingPath }]);
    // A PDF passage is cited by its page even when it sits under a heading.
    const onPage = await buildCitation(
      { n: 3, result: resultWith(text, 2, 2, { pageStart: 2, pageEnd: 2, headingPath }) },
      "annual leave",
      recorder.pageTexts,
      recorder.linkForCitation,
    );
    expect(onPage.section).toBeUndefined();
    expect(recorder.links.at(-1)).toEqual({ documentId: "doc-1", page: 2 });
  });

  it("shortens a long quote at a word", async () => {
    const long = `${"Coverage applies to many listed services and providers ".repeat(8).trim()}.`;
    const recorder = recorders();
    const citation = await buildCitation(
      { n: 1, result: resultWith(long, 1, 1, { pageStart: 1, pageEnd: 1, charStart: 0, charEnd: long.length }) },
      "coverage",
      recorder.pageTexts,
      recorder.linkForCitation,
    );
    expect(citation.quote.endsWith("…")).toBe(true);
    expect(citation.quote.length).toBeLessThanOrEqual(201);
    expect(long.startsWith(citation.quote.slice(0, -1))).toBe(true);
  });

  it("does not turn a document's own bracketed references into citations (extractive answers)", async () => {
    const recorder = recorders();
    const nist = "Projects such as Docker [2] and rkt [3] added functionality to containers.";
    const sources: NumberedSource[] = [
      { n: 1, result: resultWith(nist, 7, 7, { pageStart: 7, pageEnd: 7, charStart: 0, charEnd: nist.length }) },
      { n: 2, result: resultWith("Unrelated text about gardens.", 9, 9, {}, "doc-2") },
      { n: 3, result: resultWith("More unrelated text about boats.", 9, 9, {}, "doc-3") },
    ];
    let generated = "";
    for await (const text of createExtractiveGenerator().generate(
      "Which projects added container functionality?",
      sources,
    ))
      generated += text;
    expect(generated).toBe("“Projects such as Docker (2) and rkt (3) added functionality to containers.” [1]");
    const { citations } = await buildCitations(generated, sources, recorder.pageTexts, recorder.linkForCitation);
    expect(citations.map((citation) => citation.n)).toEqual([1]);
  });
});

describe("no sentence quoted twice", () => {
  const pages: PageText[] = [
    {
      pageNumber: 1,
      text: "Dental cleanings are covered twice a year. Orthodontics requires prior approval from the plan.",
    },
    { pageNumber: 2, text: "Vision exams are covered once every twelve months. Contact lenses have an allowance." },
  ];
  // Two chunks as the chunker overlaps them: the second starts with the first one's last sentence.
  const first = chunkOf(pages, { pageStart: 1, pageEnd: 1, charStart: 0, charEnd: pages[0]?.text.length ?? 0 });
  const overlapStart = pages[0]?.text.indexOf("Orthodontics") ?? 0;
  const second = chunkOf(pages, {
    pageStart: 1,
    pageEnd: 2,
    charStart: overlapStart,
    charEnd: pages[1]?.text.length ?? 0,
  });
  const sources: NumberedSource[] = [
    { n: 1, result: first },
    { n: 2, result: { ...second, chunkId: "chunk-overlap" } },
  ];

  it("quotes a sentence two overlapping chunks both hold once, from the first of them", async () => {
    let generated = "";
    for await (const text of createExtractiveGenerator().generate("Does orthodontics need prior approval?", sources))
      generated += text;
    expect(generated).toBe("“Orthodontics requires prior approval from the plan.” [1]");
  });

  it("merges the citations of two overlapping chunks that quote one sentence, in the answer too", async () => {
    // An answer (an LLM's, say) that quotes the sentence from both chunks…
    const generated =
      "“Orthodontics requires prior approval from the plan.” [1]\n“Orthodontics requires prior approval from the plan.” [2]";
    const recorder = recorders(pages);
    const { answer, citations } = await buildCitations(
      generated,
      sources,
      recorder.pageTexts,
      recorder.linkForCitation,
    );
    // …and the reply holds it once, with one citation on the page that has it.
    expect(answer).toBe("“Orthodontics requires prior approval from the plan.” [1]");
    expect(citations).toEqual([
      {
        n: 1,
        documentId: "doc-1",
        title: "Benefits Guide",
        file: "benefits.pdf",
        pageStart: 1,
        pageEnd: 1,
        quote: "Orthodontics requires prior approval from the plan.",
        url: "https://folio.test/files/doc-1#page=1",
      },
    ]);
  });

  it("renumbers a merged marker inside an answer's own sentences and drops a repeated marker", async () => {
    const recorder = recorders(pages);
    const { answer, citations } = await buildCitations(
      "Orthodontics needs prior approval [1]. It must come from the plan [2]. Approval first [2][1].",
      sources,
      recorder.pageTexts,
      recorder.linkForCitation,
    );
    expect(answer).toBe("Orthodontics needs prior approval [1]. It must come from the plan [1]. Approval first [1].");
    expect(citations.map(({ n, quote }) => ({ n, quote }))).toEqual([
      { n: 1, quote: "Orthodontics requires prior approval from the plan." },
    ]);
  });

  const citation = (n: number, quote: string, documentId = "doc-1", page = 3) => ({
    n,
    documentId,
    title: "Guide",
    file: "guide.pdf",
    pageStart: page,
    pageEnd: page,
    quote,
    url: `https://folio.test/files/${documentId}#page=${page}`,
  });

  it("keeps the fuller quote, with its pages, when a chunk starting mid-sentence quotes only the tail", () => {
    const tail = citation(1, "prior approval from the plan before treatment starts.", "doc-1", 4);
    const whole = citation(
      2,
      "Orthodontics requires prior approval from the plan before treatment starts.",
      "doc-1",
      3,
    );
    expect(uniqueCitations([tail, whole])).toEqual({
      citations: [{ ...whole, n: 1 }],
      merged: new Map([[2, 1]]),
    });
  });

  it("keeps different sentences of one page, the same sentence in two documents, and short coincidences", () => {
    const citations = [
      citation(1, "Vision exams are covered once every twelve months."),
      citation(2, "Contact lenses have an allowance of 150 dollars."),
      citation(3, "Vision exams are covered once every twelve months.", "doc-2"),
      citation(4, "Covered."),
      citation(5, "Hearing aids are covered every three years."),
    ];
    expect(uniqueCitations(citations)).toEqual({ citations, merged: new Map() });
    // A shortened quote ("…") is the same sentence as the whole one.
    const shortened = citation(6, "Vision exams are covered once every…");
    expect(uniqueCitations([citations[0] as Citation, shortened]).citations).toEqual([citations[0]]);
  });
});

describe("numbering citations in order of first appearance", () => {
  const singlePage = (n: number, text: string, documentId: string): NumberedSource => ({
    n,
    result: resultWith(text, n, n, { pageStart: n, pageEnd: n, charStart: 0, charEnd: text.length }, documentId),
  });
  const sources = [
    singlePage(1, "Dental cleanings are covered twice a year.", "doc-dental"),
    singlePage(2, "Vision exams are covered once every twelve months.", "doc-vision"),
    singlePage(3, "Hearing aids are covered every three years.", "doc-hearing"),
    singlePage(4, "Dental cleanings are covered twice a year.", "doc-dental"),
  ];

  it("numbers the answer's markers 1, 2, 3 as a reader meets them, in the citations too", async () => {
    const recorder = recorders();
    const { answer, citations } = await buildCitations(
      "“Hearing aids are covered every three years.” [3]\n“Dental cleanings are covered twice a year.” [1]\n“Vision exams are covered once every twelve months.” [2]",
      sources,
      recorder.pageTexts,
      recorder.linkForCitation,
    );
    expect(answer).toBe(
      "“Hearing aids are covered every three years.” [1]\n“Dental cleanings are covered twice a year.” [2]\n“Vision exams are covered once every twelve months.” [3]",
    );
    expect(citations.map(({ n, documentId, pageStart, url }) => ({ n, documentId, pageStart, url }))).toEqual([
      { n: 1, documentId: "doc-hearing", pageStart: 3, url: "https://folio.test/files/doc-hearing#page=3" },
      { n: 2, documentId: "doc-dental", pageStart: 1, url: "https://folio.test/files/doc-dental#page=1" },
      { n: 3, documentId: "doc-vision", pageStart: 2, url: "https://folio.test/files/doc-vision#page=2" },
    ]);
  });

  it("leaves no gap where a repeated sentence was merged, and keeps a marker cited twice consistent", async () => {
    const recorder = recorders();
    const { answer, citations } = await buildCitations(
      "Cleanings twice a year [4]. Same as [1]. Hearing aids every three years [3], cleanings again [4].",
      sources,
      recorder.pageTexts,
      recorder.linkForCitation,
    );
    expect(answer).toBe(
      "Cleanings twice a year [1]. Same as [1]. Hearing aids every three years [2], cleanings again [1].",
    );
    expect(citations.map(({ n, documentId, quote }) => ({ n, documentId, quote }))).toEqual([
      { n: 1, documentId: "doc-dental", quote: "Dental cleanings are covered twice a year." },
      { n: 2, documentId: "doc-hearing", quote: "Hearing aids are covered every three years." },
    ]);
  });

  it("numbers citations the answer never cites (closest sources) in list order, without gaps", () => {
    const citation = (n: number) => ({
      n,
      documentId: `doc-${n}`,
      title: "Guide",
      file: "guide.pdf",
      pageStart: n,
      pageEnd: n,
      quote: `Quote ${n}`,
      url: `https://folio.test/files/doc-${n}#page=${n}`,
    });
    expect(numberCitations("", [citation(1), citation(3)])).toEqual({
      answer: "",
      citations: [citation(1), { ...citation(3), n: 2 }],
    });
    expect(numberCitations("See [3] then [1].", [citation(1), citation(3)])).toEqual({
      answer: "See [1] then [2].",
      citations: [
        { ...citation(3), n: 1 },
        { ...citation(1), n: 2 },
      ],
    });
  });
});

const NORTHWIND_PDF = sharedData("northwind-rag-qa", "pdfs", "employee_handbook.pdf");
const TOKENIZER = sharedModel("bge-small-en-v1.5");
const hasRealInputs = existsSync(NORTHWIND_PDF) && existsSync(`${TOKENIZER}/tokenizer.json`);

describe.skipIf(!hasRealInputs)("buildCitation on real multi-page chunks (employee_handbook.pdf)", () => {
  it("narrows every multi-page chunk to a page that holds the quoted sentence", async () => {
    const document = await parsePdf(new Uint8Array(await readFile(NORTHWIND_PDF)), "employee_handbook.pdf", {
      ...DEFAULT_PARSE_LIMITS,
    });
    const pages = document.pages ?? [];
    const chunks = chunkDocument(document, {
      maxTokens: 512,
      overlapTokens: 20,
      tokenCounter: await loadTokenCounter(TOKENIZER),
    });
    const multiPage = chunks.filter(
      (chunk) => chunk.kind === "text" && chunk.provenance.pageStart !== chunk.provenance.pageEnd,
    );
    expect(multiPage.length).toBeGreaterThanOrEqual(3);
    const recorder = recorders(pages);
    const squeeze = (text: string) => text.replace(/\s+/g, "");
    let exact = 0;
    for (const chunk of multiPage) {
      const { pageStart = 0, pageEnd = 0, charEnd = 0 } = chunk.provenance;
      const result = resultWith(chunk.text, pageStart, pageEnd, chunk.provenance);
      // A claim lying wholly on the chunk's last page (its text is the chunk's last charEnd characters;
      // the first sentence there may have begun on the page before, so it is skipped).
      const lastPageOffset = chunk.text.length - charEnd;
      const claim = splitSentences(chunk.text)
        .filter((range) => range.start > lastPageOffset)
        .slice(1)
        .map((range) => chunk.text.slice(range.start, range.end))
        .find((sentence) => sentence.split(/\s+/).length >= 6);
      if (!claim) continue;
      const citation = await buildCitation({ n: 1, result }, claim, recorder.pageTexts, recorder.linkForCitation);
      // Whatever sentence wins, the cited pages must hold it.
      const citedText = pages
        .filter((page) => page.pageNumber >= (citation.pageStart ?? 0) && page.pageNumber <= (citation.pageEnd ?? 0))
        .map((page) => page.text)
        .join("\n");
      expect(squeeze(citedText)).toContain(squeeze(citation.quote.replace(/…$/, "")));
      if (citation.quote === shortenQuote(claim)) {
        expect([citation.pageStart, citation.pageEnd]).toEqual([pageEnd, pageEnd]);
        exact += 1;
      }
    }
    expect(exact).toBeGreaterThanOrEqual(3);
  });
});
