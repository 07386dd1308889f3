/**
 * A minimal Server-Sent Events reader (the subset OpenAI-compatible servers send): bytes in, the `data`
 * of each event out. Events end at a blank line; several data lines join with "\n"; comment lines
 * (":" keep-alives) and other fields are skipped; CRLF, CR and LF line ends are all accepted.
 */
export async function* readServerSentEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = "";
  let dataLines: string[] = [];

  function* takeLines(final: boolean): Generator<string> {
    const lineEnd = /\r\n|\r|\n/g;
    let start = 0;
    for (let match = lineEnd.exec(pending); match; match = lineEnd.exec(pending)) {
      // A lone "\r" at the end of the buffer may be the first half of "\r\n"; wait for the next bytes.
      if (!final && match[0] === "\r" && match.index === pending.length - 1) break;
      yield pending.slice(start, match.index);
      start = match.index + match[0].length;
    }
    pending = pending.slice(start);
  }

  function* handleLine(line: string): Generator<string> {
    if (line === "") {
      if (dataLines.length > 0) yield dataLines.join("\n");
      dataLines = [];
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== "data") return;
    const value = colon < 0 ? "" : line.slice(colon + 1);
    dataLines.push(value.startsWith(" ") ? value.slice(1) : value);
  }

  for await (const bytes of body) {
    pending += decoder.decode(bytes, { stream: true });
    for (const line of takeLines(false)) yield* handleLine(line);
  }
  pending += decoder.decode();
  for (const line of takeLines(true)) yield* handleLine(line);
  // Complete data lines without the closing blank line: some servers end "data: [DONE]\n" so. Kept,
  // unlike the spec; an unterminated last line (a cut connection) is still dropped.
  if (dataLines.length > 0) yield dataLines.join("\n");
}
