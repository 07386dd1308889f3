/**
 * Which worksheet part of an XLSX package holds which sheet: the names in xl/workbook.xml joined to the
 * parts its relationships name. Refusals then speak of a sheet by the name a person sees in Excel.
 */
import { SaxesParser } from "saxes";

function localName(name: string): string {
  return name.slice(name.indexOf(":") + 1);
}

function readElements(
  xml: Uint8Array | undefined,
  element: string,
  onElement: (attributes: Record<string, string>) => void,
) {
  if (!xml) return;
  const parser = new SaxesParser({ xmlns: false, position: false });
  parser.on("opentag", (node) => {
    if (localName(node.name) === element) onElement(node.attributes as Record<string, string>);
  });
  parser.write(new TextDecoder().decode(xml)).close();
}

/** Part name ("xl/worksheets/sheet1.xml") -> sheet name; parts the workbook does not name are absent. */
export function worksheetNames(files: Record<string, Uint8Array>): Map<string, string> {
  const targets = new Map<string, string>();
  readElements(files["xl/_rels/workbook.xml.rels"], "Relationship", (attributes) => {
    const id = attributes.Id;
    const target = attributes.Target;
    if (!id || !target) return;
    targets.set(id, target.startsWith("/") ? target.slice(1) : `xl/${target}`);
  });
  const names = new Map<string, string>();
  readElements(files["xl/workbook.xml"], "sheet", (attributes) => {
    const id = Object.entries(attributes).find(([key]) => localName(key) === "id" && key.includes(":"))?.[1];
    const part = id ? targets.get(id) : undefined;
    if (part && attributes.name) names.set(part, attributes.name);
  });
  return names;
}
