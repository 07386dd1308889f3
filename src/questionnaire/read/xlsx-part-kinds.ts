/**
 * Which parts of an XLSX package exceljs reads, and as what — its own names and unanchored patterns, in
 * the order its loader tries them (exceljs/lib/xlsx/xlsx.js), so the survey measures exactly the parts
 * exceljs will build from. A leading "/" is dropped from a name, as exceljs drops it.
 */

export type PartKind =
  | "worksheet"
  | "sharedStrings"
  | "styles"
  | "workbook"
  | "comments"
  /** Another part exceljs parses as XML: relationships, document properties, drawings, VML, tables. */
  | "parsed"
  /** Kept as bytes or text without parsing (themes, media), or not read at all. */
  | "unparsed";

const EXACT = new Map<string, PartKind>([
  ["_rels/.rels", "parsed"],
  ["xl/workbook.xml", "workbook"],
  ["xl/_rels/workbook.xml.rels", "parsed"],
  ["xl/sharedStrings.xml", "sharedStrings"],
  ["xl/styles.xml", "styles"],
  ["docProps/app.xml", "parsed"],
  ["docProps/core.xml", "parsed"],
]);

const PATTERNS: Array<[RegExp, PartKind]> = [
  [/xl\/worksheets\/sheet(\d+)[.]xml/, "worksheet"],
  [/xl\/worksheets\/_rels\/sheet(\d+)[.]xml.rels/, "parsed"],
  [/xl\/theme\/([a-zA-Z0-9]+)[.]xml/, "unparsed"],
  [/xl\/media\/([a-zA-Z0-9]+[.][a-zA-Z0-9]{3,4})$/, "unparsed"],
  [/xl\/drawings\/([a-zA-Z0-9]+)[.]xml/, "parsed"],
  [/xl\/(comments\d+)[.]xml/, "comments"],
  [/xl\/tables\/(table\d+)[.]xml/, "parsed"],
  [/xl\/drawings\/_rels\/([a-zA-Z0-9]+)[.]xml[.]rels/, "parsed"],
  [/xl\/drawings\/(vmlDrawing\d+)[.]vml/, "parsed"],
];

/** The name exceljs uses for a package entry. */
export function normalPartName(name: string): string {
  return name.startsWith("/") ? name.slice(1) : name;
}

/** What exceljs does with the part of this (normal) name. */
export function partKind(name: string): PartKind {
  const exact = EXACT.get(name);
  if (exact) return exact;
  for (const [pattern, kind] of PATTERNS) if (pattern.test(name)) return kind;
  return "unparsed";
}
