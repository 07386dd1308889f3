/**
 * A definition question answered by the sentence that defines the term ("is defined as", "means",
 * "refers to", the spelled-out form of an abbreviation: find-definition.ts), among the results or among a
 * search for the term alone ("How does Acme define X?" → "X"); scored as any prose answer, so a sentence
 * that only mentions the term loses to a window that explains it.
 */
import { numberedResults } from "../evidence/figure-lookup.js";
import { findDefinition } from "../evidence/find-definition.js";
import { newDirectAnswer, type Reader } from "./reader.js";

export const definitionReader: Reader = {
  name: "definition",
  ceiling: 1,
  async read(input) {
    const { analysis } = input;
    if (analysis.kind !== "definition") return null;
    const definition =
      findDefinition(analysis, numberedResults(input.results)) ??
      (analysis.measure === ""
        ? null
        : findDefinition(analysis, numberedResults(await input.search(analysis.measure, "keywords"))));
    if (definition === null) return null;
    const direct = newDirectAnswer(input);
    direct.addQuote(definition.source, definition.passage);
    const score = await input.prose.scoreFound(definition.source, definition.passage);
    return { reader: "definition", grounds: "text", score, direct, uncovered: null, missingNames: [] };
  },
};
