/**
 * Streams one XML part of a workbook through saxes, a few hundred KB at a time, for the survey: the
 * part is decoded as Latin-1, one character per byte, so every position saxes reports is a byte offset
 * into the part (a byte-order mark included) and nothing is built from the text but what a handler keeps.
 * Element names reach the handlers without their namespace prefix. A refusal a handler throws (a
 * FolioError) passes through; anything else saxes throws is the part not being well-formed XML.
 */
import { SaxesParser } from "saxes";
import { isFolioError } from "../../errors.js";

/** Byte offsets of an element in its part, from its `<` to just past its end. */
export type ElementSpan = { start: number; end: number };

export type XmlPartHandlers = {
  /** An element starts; `start` is the byte offset of its `<`. */
  onOpenStart?(name: string, start: number): void;
  /** Its opening tag is read; `end` is the byte offset just past it. */
  onOpen?(name: string, attributes: Record<string, string>, end: number): void;
  /** Text or CDATA, decoded as Latin-1 (its length is its length in bytes). */
  onText?(text: string): void;
  /** An element ends (a self-closing one too); `end` is the byte offset just past it. */
  onClose?(name: string, end: number): void;
};

const CHUNK_BYTES = 256 * 1024;

function localName(name: string): string {
  return name.slice(name.indexOf(":") + 1);
}

/** Whether the part starts with a UTF-8 byte-order mark (saxes's positions then start after it). */
function byteOrderMarkLength(xml: Uint8Array): number {
  return xml[0] === 0xef && xml[1] === 0xbb && xml[2] === 0xbf ? 3 : 0;
}

export function streamXmlPart(
  xml: Uint8Array,
  handlers: XmlPartHandlers,
  notWellFormed: (cause: unknown) => Error,
): void {
  const bom = byteOrderMarkLength(xml);
  const parser = new SaxesParser({ xmlns: false, position: true });
  const { onOpenStart, onOpen, onText, onClose } = handlers;
  if (onOpenStart) {
    parser.on("opentagstart", (node) =>
      onOpenStart(localName(node.name), bom + parser.position - node.name.length - 2),
    );
  }
  if (onOpen) {
    parser.on("opentag", (node) =>
      onOpen(localName(node.name), node.attributes as Record<string, string>, bom + parser.position),
    );
  }
  if (onText) {
    parser.on("text", onText);
    parser.on("cdata", onText);
  }
  if (onClose) parser.on("closetag", (node) => onClose(localName(node.name), bom + parser.position));
  const bytes = Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength);
  try {
    for (let offset = bom; offset < bytes.byteLength; offset += CHUNK_BYTES) {
      parser.write(bytes.toString("latin1", offset, Math.min(bytes.byteLength, offset + CHUNK_BYTES)));
    }
    parser.close();
  } catch (error) {
    if (isFolioError(error)) throw error;
    throw notWellFormed(error);
  }
}
