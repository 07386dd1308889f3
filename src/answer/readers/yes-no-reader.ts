/**
 * A yes/no question answered by its deciding sentence — one that names what the question names and says
 * most of what it asks (find-deciding-sentence.ts) — or by the list item that does; "Yes," or "No," in
 * front when the sentence states it plainly (yes-no-verdict.ts), none when it hedges.
 */
import { verdictLead } from "../compose/yes-no-verdict.js";
import { numberedResults } from "../evidence/figure-lookup.js";
import { findDecidingSentence } from "../evidence/find-deciding-sentence.js";
import { findListItem } from "../evidence/find-list.js";
import { contentTerms, uniqueTerms } from "../evidence/sentence-scoring.js";
import { newDirectAnswer, type Reader } from "./reader.js";

/** Results a deciding sentence is looked for in. */
const DECIDING_SOURCES = 10;

export const yesNoReader: Reader = {
  name: "yes-no",
  ceiling: 1,
  async read(input) {
    const { analysis } = input;
    if (analysis.kind !== "yesno") return null;
    const names = uniqueTerms(analysis.entities.join(" "));
    const questionTerms = new Set([...contentTerms(input.need)].filter((term) => !names.has(term)));
    const sources = numberedResults(input.results.slice(0, DECIDING_SOURCES));
    const deciding = findDecidingSentence(analysis.entities, questionTerms, sources);
    const direct = newDirectAnswer(input);
    if (deciding !== null) {
      direct.addQuote(deciding.source, deciding.passage, verdictLead(input.need, deciding.passage.text, questionTerms));
      const score = await input.prose.scoreFound(deciding.source, deciding.passage);
      return { reader: "yes-no", grounds: "text", score, direct, uncovered: null, missingNames: [] };
    }
    const item = findListItem(questionTerms, sources);
    if (item === null) return null;
    const lead = verdictLead(input.need, `${item.introduction} ${item.items.join(" ")}`, questionTerms);
    direct.addList(item.source, item.introduction, item.items, item.passage, lead);
    // A list item matched by its words alone is no structural test: it is scored as any window is.
    const score = await input.prose.scoreWindow(item.source, item.passage, "item");
    return { reader: "yes-no", grounds: "text", score, direct, uncovered: null, missingNames: [] };
  },
};
