/** A text's lines with their offsets, so a line found by its content can be cited by position. */
export type TextLine = { text: string; start: number; end: number };

export function linesOf(text: string): TextLine[] {
  const lines: TextLine[] = [];
  let start = 0;
  for (const line of text.split("\n")) {
    lines.push({ text: line, start, end: start + line.length });
    start += line.length + 1;
  }
  return lines;
}
