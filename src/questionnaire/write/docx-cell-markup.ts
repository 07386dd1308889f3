/**
 * WordprocessingML for the cells a filled copy adds to a question table: a header cell, an answer's
 * text cells, a Sources cell whose every source is a hyperlink (its target in the relationships part,
 * named here by relationship id), and an empty cell. All text is escaped and stripped of characters
 * XML cannot hold (text from documents is data, never markup). Element names use the prefixes the
 * document itself binds to the WordprocessingML and relationships namespaces.
 */

export type DocxPrefixes = { word: string; relationships: string };

/** Borders, shading and vertical alignment (raw `w:tcPr` children) and run properties copied from a neighbour. */
export type CellLook = { cellProperties: string; runProperties: string | null };

export type DocxRun = { text: string; relationshipId?: string };

/** Whether XML 1.0 can carry a code point at all, even escaped (not controls, lone surrogates, U+FFFE/U+FFFF). */
function allowedInXml(codePoint: number): boolean {
  if (codePoint < 0x20) return codePoint === 0x09 || codePoint === 0x0a || codePoint === 0x0d;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return false;
  return codePoint !== 0xfffe && codePoint !== 0xffff;
}

function keepXmlCharacters(text: string): string {
  let kept = "";
  // Iterating a string yields whole code points; a lone surrogate comes alone and is dropped.
  for (const character of text) if (allowedInXml(character.codePointAt(0) ?? 0)) kept += character;
  return kept;
}

export function escapeXmlText(text: string): string {
  return keepXmlCharacters(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

/** Hyperlinks look like links whatever styles the document defines. */
const LINK_RUN_PROPERTIES = (w: (local: string) => string) =>
  `<${w("rPr")}><${w("color")} ${w("val")}="0563C1"/><${w("sz")} ${w("val")}="18"/><${w("u")} ${w("val")}="single"/></${w("rPr")}>`;

function namer(prefix: string): (local: string) => string {
  return (local) => (prefix === "" ? local : `${prefix}:${local}`);
}

function runXml(run: DocxRun, prefixes: DocxPrefixes, runProperties: string | null): string {
  const w = namer(prefixes.word);
  const text = `<${w("t")} xml:space="preserve">${escapeXmlText(run.text)}</${w("t")}>`;
  if (run.relationshipId === undefined) return `<${w("r")}>${runProperties ?? ""}${text}</${w("r")}>`;
  const id = `${namer(prefixes.relationships)("id")}="${escapeXmlAttribute(run.relationshipId)}"`;
  return `<${w("hyperlink")} ${id} ${w("history")}="1"><${w("r")}>${LINK_RUN_PROPERTIES(w)}${text}</${w("r")}></${w("hyperlink")}>`;
}

/**
 * One `w:tc`: its width (dxa), the copied look, and one paragraph per entry of `paragraphs` (a cell
 * needs at least one paragraph, so an empty cell gets an empty one).
 */
export function cellXml(input: {
  prefixes: DocxPrefixes;
  width: number;
  /** Grid columns the cell spans, when more than one. */
  gridSpan?: number;
  look: CellLook;
  paragraphs: DocxRun[][];
}): string {
  const w = namer(input.prefixes.word);
  const span =
    input.gridSpan !== undefined && input.gridSpan > 1 ? `<${w("gridSpan")} ${w("val")}="${input.gridSpan}"/>` : "";
  const properties = `<${w("tcPr")}><${w("tcW")} ${w("w")}="${input.width}" ${w("type")}="dxa"/>${span}${input.look.cellProperties}</${w("tcPr")}>`;
  const paragraphs = input.paragraphs.length > 0 ? input.paragraphs : [[]];
  const body = paragraphs
    .map(
      (runs) =>
        `<${w("p")}>${runs.map((run) => runXml(run, input.prefixes, input.look.runProperties)).join("")}</${w("p")}>`,
    )
    .join("");
  return `<${w("tc")}>${properties}${body}</${w("tc")}>`;
}

/** Text as paragraphs, one per line; empty lines kept as empty paragraphs between others. */
export function textParagraphs(text: string): DocxRun[][] {
  if (text === "") return [];
  return text.split(/\r\n|\r|\n/).map((line) => (line === "" ? [] : [{ text: line }]));
}
