/**
 * The relationships a filled Word copy's source links need: one external hyperlink relationship per
 * distinct link, added to the main part's relationships part (created when the document had none, with
 * the package's content types then told about ".rels" if they were not already). Everything already in
 * those parts stays byte for byte; new entries go before the closing tag.
 */
import { SaxesParser } from "saxes";
import { escapeXmlAttribute } from "./docx-cell-markup.js";

const PACKAGE_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships";
const RELATIONSHIPS_CONTENT_TYPE = "application/vnd.openxmlformats-package.relationships+xml";
export const HYPERLINK_RELATIONSHIP_TYPE =
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink";

/** Where a root element's children end: before its closing tag, or its "/>" when it is empty. */
type RootEnd = { insertAt: number; selfClosingAt: number | null; name: string };

function readRoot(xml: string, onElement: (name: string, attributes: Record<string, string>) => void): RootEnd {
  const parser = new SaxesParser({ xmlns: false, position: true });
  let depth = 0;
  let end: RootEnd | null = null;
  parser.on("opentag", (tag) => {
    depth += 1;
    if (depth === 2) onElement(tag.name, tag.attributes);
  });
  parser.on("closetag", (tag) => {
    depth -= 1;
    if (depth !== 0) return;
    const position = parser.position;
    end = tag.isSelfClosing
      ? { insertAt: position, selfClosingAt: xml.lastIndexOf("/", position - 1), name: tag.name }
      : { insertAt: xml.lastIndexOf("<", position - 1), selfClosingAt: null, name: tag.name };
  });
  parser.write(xml).close();
  if (end === null) throw new Error("the part has no root element");
  return end;
}

/** Inserts `children` as the root's last children, opening an empty root ("<Relationships/>") as needed. */
function appendToRoot(xml: string, end: RootEnd, children: string): string {
  if (end.selfClosingAt === null) return `${xml.slice(0, end.insertAt)}${children}${xml.slice(end.insertAt)}`;
  return `${xml.slice(0, end.selfClosingAt)}>${children}</${end.name}>${xml.slice(end.insertAt)}`;
}

export type AddedRelationships = { xml: string; idByUrl: Map<string, string> };

/**
 * Adds an external hyperlink relationship for each distinct URL to `existing` (the relationships part's
 * text, or null when the package has none), with ids no existing relationship uses.
 */
export function addHyperlinkRelationships(existing: string | null, urls: string[]): AddedRelationships {
  const base =
    existing ??
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${PACKAGE_RELATIONSHIPS}"/>`;
  const usedIds = new Set<string>();
  const end = readRoot(base, (_name, attributes) => {
    if (attributes.Id !== undefined) usedIds.add(attributes.Id);
  });
  const idByUrl = new Map<string, string>();
  let counter = 0;
  const entries: string[] = [];
  for (const url of urls) {
    if (idByUrl.has(url)) continue;
    let id: string;
    do {
      counter += 1;
      id = `rIdFolio${counter}`;
    } while (usedIds.has(id));
    idByUrl.set(url, id);
    entries.push(
      `<Relationship Id="${id}" Type="${HYPERLINK_RELATIONSHIP_TYPE}" Target="${escapeXmlAttribute(url)}" TargetMode="External"/>`,
    );
  }
  if (entries.length === 0) return { xml: base, idByUrl };
  return { xml: appendToRoot(base, end, entries.join("")), idByUrl };
}

/** The content types with a Default for ".rels" added, or null when they already have one. */
export function withRelationshipsContentType(contentTypes: string): string | null {
  let declared = false;
  const end = readRoot(contentTypes, (name, attributes) => {
    if (/(^|:)Default$/.test(name) && attributes.Extension?.toLowerCase() === "rels") declared = true;
  });
  if (declared) return null;
  // A prefixed root ("<ct:Types>") binds its own prefix; its children need it too.
  const prefix = end.name.includes(":") ? `${end.name.slice(0, end.name.indexOf(":"))}:` : "";
  return appendToRoot(
    contentTypes,
    end,
    `<${prefix}Default Extension="rels" ContentType="${RELATIONSHIPS_CONTENT_TYPE}"/>`,
  );
}
