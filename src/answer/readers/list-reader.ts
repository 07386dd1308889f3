/**
 * A list question ("What are the deployment models of cloud computing?") answered by the list the
 * documents give: the line that introduces it and names the question's subject, then its items
 * (find-list.ts). Scored as any prose answer, so a list that only shares words loses to a better window.
 */
import { numberedResults } from "../evidence/figure-lookup.js";
import { findList } from "../evidence/find-list.js";
import { newDirectAnswer, type Reader } from "./reader.js";

/** Results a list is looked for in: a list that answers is in one of the first few. */
const LIST_SOURCES = 10;

export const listReader: Reader = {
  name: "list",
  ceiling: 1,
  async read(input) {
    if (input.analysis.kind !== "list") return null;
    const list = findList(input.analysis, numberedResults(input.results.slice(0, LIST_SOURCES)));
    if (list === null) return null;
    const direct = newDirectAnswer(input);
    direct.addList(list.source, list.introduction, list.items, list.passage);
    const score = await input.prose.scoreFound(list.source, list.passage, "list");
    return { reader: "list", grounds: "text", score, direct, uncovered: null, missingNames: [] };
  },
};
