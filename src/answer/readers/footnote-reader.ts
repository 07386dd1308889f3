/**
 * "What is included in Service delivery costs?": the note a table row points to ("(1) Include cost of …"),
 * quoted (tables/row-footnote.ts), scored as any prose answer.
 */
import { numberedResults } from "../evidence/figure-lookup.js";
import { findRowFootnote } from "../evidence/tables/row-footnote.js";
import { asksWhy } from "../question/asked-answer.js";
import { newDirectAnswer, type Reader } from "./reader.js";

/** Results a row's footnote is looked for in. */
const FOOTNOTE_SOURCES = 10;

export const footnoteReader: Reader = {
  name: "footnote",
  ceiling: 1,
  async read(input) {
    const { kind } = input.analysis;
    if (kind === "figure" || kind === "list" || kind === "yesno" || asksWhy(input.need)) return null;
    const footnote = findRowFootnote(input.need, numberedResults(input.results.slice(0, FOOTNOTE_SOURCES)));
    if (footnote === null) return null;
    const direct = newDirectAnswer(input);
    direct.addQuote(footnote.source, footnote.passage);
    const score = await input.prose.scoreFound(footnote.source, footnote.passage);
    return { reader: "footnote", grounds: "text", score, direct, uncovered: null, missingNames: [] };
  },
};
