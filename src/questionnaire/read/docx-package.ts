/**
 * The parts of a Word package a questionnaire needs: which part is the main document (named by the
 * package's `_rels/.rels`, usually word/document.xml) and where its relationships part lives. The
 * package is unpacked within the ingestion's zip-bomb limits (ingestion/unpack-zip.ts) before any
 * XML is read.
 */
import { SaxesParser } from "saxes";
import { DEFAULT_PARSE_LIMITS } from "../../../ingestion/limits.js";
import { type UnpackedZip, unpackZip } from "../../../ingestion/unpack-zip.js";
import { ParseError } from "../../errors.js";

const OFFICE_DOCUMENT_TYPES = [
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument",
  "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument",
];
const DEFAULT_MAIN_PART = "word/document.xml";

export type DocxPackage = {
  unpacked: UnpackedZip;
  /** The main document part's name inside the package, without a leading slash. */
  mainPart: string;
  /** The main document as text. */
  documentXml: string;
};

export function damagedDocx(fileName: string, cause?: unknown): ParseError {
  return new ParseError(
    "questionnaire_unreadable",
    `${fileName} is a damaged Word document and cannot be read — open it in Word, save it again and upload it.`,
    { file: fileName, cause },
  );
}

/** "word/document.xml" -> "word/_rels/document.xml.rels". */
export function relationshipsPartOf(part: string): string {
  const slash = part.lastIndexOf("/");
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

function mainPartFromPackageRelationships(rels: Uint8Array | undefined): string | null {
  if (!rels) return null;
  let target: string | null = null;
  const parser = new SaxesParser({ xmlns: false, position: false });
  parser.on("opentag", (node) => {
    if (target !== null || !/(^|:)Relationship$/.test(node.name)) return;
    const type = node.attributes.Type;
    const value = node.attributes.Target;
    if (typeof type === "string" && typeof value === "string" && OFFICE_DOCUMENT_TYPES.includes(type)) {
      target = value.replace(/^\/+/, "");
    }
  });
  parser.write(new TextDecoder().decode(rels)).close();
  return target;
}

/** Unpacks a DOCX and reads its main document part; a package without one is refused as damaged. */
export function openDocxPackage(bytes: Uint8Array, fileName: string): DocxPackage {
  const unpacked = unpackZip(bytes, fileName, DEFAULT_PARSE_LIMITS);
  let mainPart: string;
  try {
    mainPart = mainPartFromPackageRelationships(unpacked.files["_rels/.rels"]) ?? DEFAULT_MAIN_PART;
  } catch (error) {
    throw damagedDocx(fileName, error);
  }
  const document = unpacked.files[mainPart];
  if (!document) throw damagedDocx(fileName);
  return { unpacked, mainPart, documentXml: new TextDecoder().decode(document) };
}
