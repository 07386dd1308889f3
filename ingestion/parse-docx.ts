/**
 * DOCX parser: unpacks the package within the zip-bomb limits (unpack-zip.ts), converts it with mammoth to HTML (headings
 * keep their levels, lists and tables keep their structure), then reads blocks from that HTML.
 */
import mammoth from "mammoth";
import { ParseError } from "../src/errors.js";
import { htmlToBlocks } from "./html-blocks.js";
import type { ParseLimits } from "./limits.js";
import type { ParsedDocument } from "./parsed-document.js";
import { unpackZip } from "./unpack-zip.js";

export async function parseDocx(bytes: Uint8Array, fileName: string, limits: ParseLimits): Promise<ParsedDocument> {
  const unpacked = unpackZip(bytes, fileName, limits);
  let html: string;
  let messages: Array<{ type: string; message: string }>;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(unpacked.stored()) },
      { ignoreEmptyParagraphs: true },
    );
    html = result.value;
    messages = result.messages;
  } catch (error) {
    throw new ParseError(
      "docx_corrupt",
      "This Word document is damaged and cannot be read — open it in Word, save it again and re-upload.",
      {
        file: fileName,
        cause: error,
        details: { reason: error instanceof Error ? error.message : String(error) },
      },
    );
  }
  const { blocks, title } = htmlToBlocks(html);
  const warnings = messages
    .filter((message) => message.type === "error")
    .map((message) => message.message)
    .slice(0, 5);
  return {
    mediaType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    title: title ?? fileName.replace(/\.[^.]+$/, ""),
    pages: null,
    blocks,
    warnings,
  };
}
