/**
 * A line of PDF text that ends on a linking word ("… partially offset by the", "… balance sheets, and")
 * is a sentence wrapped onto the next line: neither a heading nor a statement's title.
 */
const LINKING_WORD_AT_END = /\s(?:a|an|and|are|as|at|be|by|for|from|in|is|of|on|or|that|the|to|with)$/i;

export function endsOnLinkingWord(line: string): boolean {
  return LINKING_WORD_AT_END.test(line);
}
