/**
 * Words broken across PDF lines: which breaks are mended, and whether the hyphen stays (numbers,
 * identifiers, capitalised and known compounds) or goes (a syllable break the document's words
 * reveal), including breaks whose soft hyphen pdf.js dropped.
 */
import { describe, expect, it } from "vitest";
import { buildVocabulary, createLineMender, mendLineBreak } from "../../ingestion/hyphenation.js";
import { layoutPageText, type PdfLine } from "../../ingestion/pdf-lines.js";

/** Lines whose inner words make the vocabulary (a line's first and last words do not count). */
const vocabulary = buildVocabulary([
  "a user chosen secret",
  "the information system",
  "a multi-factor device",
  "the threshold analysis step",
  "our formation flying",
  "an in-network provider",
]);

describe("buildVocabulary", () => {
  it("counts inner words and the parts and pairs of hyphenated words, never a line's first or last word", () => {
    const counted = buildVocabulary(["infor mation systems are", "secure multi-factor-ready devices here"]);
    expect(Object.fromEntries(counted.words)).toEqual({
      mation: 1,
      systems: 1,
      multi: 1,
      factor: 1,
      ready: 1,
      devices: 1,
    });
    expect(Object.fromEntries(counted.compounds)).toEqual({ "multi-factor": 1, "factor-ready": 1 });
    expect(Object.fromEntries(counted.pairs)).toEqual({ "mation systems": 1, "multi-factor-ready devices": 1 });
  });
});

describe("mendLineBreak", () => {
  it.each([
    ["numbers keep their hyphen", "Special Publication (SP) 800-", "63-2 permitted", "join"],
    ["a control identifier keeps its hyphen", "see control RA-", "3 for details", "join"],
    ["a capitalised compound keeps its hyphen", "unencrypted Wi-", "Fi networks", "join"],
    ["a compound of two known words keeps its hyphen", "requiring user-", "chosen secrets", "join"],
    ["a compound the document writes with a hyphen keeps it", "any multi-", "factor device", "join"],
    ["an identifier running on keeps its hyphen", "prop privacy-", "threshold-analysis", "join"],
    ["a word the document spells whole loses the hyphen", "federal infor-", "mation systems", "drop-hyphen"],
    ["a one-letter prefix keeps its hyphen", "sends an e-", "mail today", "join"],
    ["a soft break between two known words stays", "NIST’s In", "formation Technology", null],
    ["a soft break whose first half is no word is mended", "the infor", "mation system", "join"],
    ["two words stay two words", "our", "formation flying", null],
    ["a sentence end stays", "approval is needed.", "Information follows", null],
    ["a dash after a space is no break", "the plan -", "network rules", null],
    ["a line starting with a bullet stays", "the list:", "• information", null],
  ] as const)("%s", (_name, left, right, expected) => {
    expect(mendLineBreak(left, right, vocabulary)).toBe(expected);
  });

  it("mends a soft break with a known first half when the second is no word", () => {
    const soft = buildVocabulary(["the information system", "in the box"]);
    expect(mendLineBreak("component of NIST’s In", "formation Technology", soft)).toBe("join");
  });

  it("lets the document's habit decide a hyphen its words say nothing about", () => {
    const typeset = { unknownHyphen: "drop-hyphen", softHyphens: false } as const;
    expect(mendLineBreak("a rea-", "sonable plan", vocabulary, typeset)).toBe("drop-hyphen");
    expect(mendLineBreak("a rea-", "sonable plan", vocabulary, { ...typeset, unknownHyphen: "join" })).toBe("join");
  });
});

describe("createLineMender", () => {
  it("drops unknown hyphens in a typeset document, whose known breaks are syllables", () => {
    const typeset = createLineMender([
      ["we use passages in", "retrieval of pas-", "sages and ques-", "tions over passages and questions", "a rea-"],
      ["sonable choice for most questions and passages here", "plain text"],
    ]);
    expect(typeset("a rea-", "sonable choice")).toBe("drop-hyphen");
  });

  it("joins two words into the more common word in a document whose soft hyphens pdf.js dropped", () => {
    const inner = "the information system in our information flow of services in information formation here";
    const broken = Array.from({ length: 10 }, () => ["security servic", "es for all"]).flat();
    const halves = ["a component of NIST’s In", "formation Technology"];
    const soft = createLineMender([[inner, ...broken, ...halves]]);
    expect(soft(...(halves as [string, string]))).toBe("join");
    // Without that many broken words, two words stay two words.
    const plain = createLineMender([[inner, ...halves]]);
    expect(plain(...(halves as [string, string]))).toBeNull();
  });

  it("keeps unknown hyphens in a word-processed document, whose known breaks are compounds", () => {
    const written = createLineMender([
      [
        "visit an in-network provider or an out-of-network one",
        "only in-",
        "network care and out-of-",
        "network rules",
      ],
      ["implants and bone-", "anchored aids"],
    ]);
    expect(written("implants and bone-", "anchored aids")).toBe("join");
  });
});

describe("layoutPageText with joins", () => {
  const line = (text: string): PdfLine => ({ text, fragments: [], y: 0, height: 0 });

  it("runs a line into the next one, dropping the hyphen where told, and keeps every line's offsets", () => {
    const lines = [line("the infor-"), line("mation system and SP 800-"), line("63-2 rules"), line(""), line("Next")];
    const layout = layoutPageText(
      lines,
      new Map([
        [0, "drop-hyphen"],
        [1, "join"],
      ]),
    );
    expect(layout.text).toBe("the information system and SP 800-63-2 rules\n\nNext");
    expect(layout.lineSpans.map((span) => (span ? layout.text.slice(span.start, span.end) : null))).toEqual([
      "the infor",
      "mation system and SP 800-",
      "63-2 rules",
      null,
      "Next",
    ]);
  });

  it("keeps a line break where a blank line follows, whatever the join says", () => {
    const layout = layoutPageText([line("ends-"), line(""), line("next")], new Map([[0, "drop-hyphen"]]));
    expect(layout.text).toBe("ends-\n\nnext");
  });
});
