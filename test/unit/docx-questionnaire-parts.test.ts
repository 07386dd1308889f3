/**
 * The pure parts of the DOCX filled copy: mapping a main document's tables (what counts as a
 * questionnaire table, grid columns, spans, text), planning column widths, and adding hyperlink
 * relationships and the ".rels" content type.
 */
import { describe, expect, it } from "vitest";
import { tableGridWidth } from "../../src/questionnaire/read/docx-tables.js";
import { mapDocxTables } from "../../src/questionnaire/read/map-docx-tables.js";
import { escapeXmlText } from "../../src/questionnaire/write/docx-cell-markup.js";
import { planColumnWidths } from "../../src/questionnaire/write/docx-column-widths.js";
import {
  addHyperlinkRelationships,
  withRelationshipsContentType,
} from "../../src/questionnaire/write/docx-hyperlink-relationships.js";

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const MC = 'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"';
const cell = (text: string, properties = "") =>
  `<w:tc>${properties ? `<w:tcPr>${properties}</w:tcPr>` : ""}<w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:tc>`;

describe("mapping a Word document's tables", () => {
  it("maps outermost tables only, with grid columns, spans, skipped grid columns and tidy text", () => {
    const nested = `<w:tbl><w:tr>${cell("inner")}</w:tr></w:tbl>`;
    const textBox = `<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><w:txbxContent><w:tbl><w:tr>${cell("in a text box")}</w:tr></w:tbl></w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><w:tbl><w:tr>${cell("fallback copy")}</w:tr></w:tbl></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`;
    const xml = `<w:document ${W} ${MC}><w:body>${textBox}<w:tbl><w:tblPr><w:tblW w:w="6000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="1000"/><w:gridCol w:w="2000"/><w:gridCol w:w="3000"/></w:tblGrid><w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>${cell("Question")}${cell("Answer")}</w:tr><w:tr>${cell("Heading", '<w:gridSpan w:val="3"/>')}</w:tr><w:tr><w:trPr><w:gridAfter w:val="1"/></w:trPr>${cell("1")}<w:tc><w:p><w:r><w:t>Line one</w:t><w:tab/><w:t>tabbed</w:t><w:br/><w:t>line   two</w:t></w:r></w:p><w:p><w:r><w:delText>deleted</w:delText><w:instrText>HYPERLINK x</w:instrText></w:r></w:p>${nested}</w:tc></w:tr><w:tr/></w:tbl><w:sectPr><w:pgSz w:w="12240"/><w:pgMar w:left="1000" w:right="1240"/></w:sectPr></w:body></w:document>`;
    const map = mapDocxTables(xml);
    expect(map.tables).toHaveLength(1);
    const [table] = map.tables;
    expect(table?.gridColumns.map((column) => column.width)).toEqual([1000, 2000, 3000]);
    expect(table?.width).toMatchObject({ value: 6000, type: "dxa" });
    expect(table?.textWidth).toBe(10_000);
    expect(table && tableGridWidth(table)).toBe(3);
    expect(
      table?.rows.map((row) => ({
        row: row.rowNumber,
        before: row.gridBefore,
        after: row.gridAfter,
        cells: row.cells.map((entry) => [entry.gridStart, entry.gridSpan, entry.text]),
      })),
    ).toEqual([
      {
        row: 1,
        before: 1,
        after: 0,
        cells: [
          [1, 1, "Question"],
          [2, 1, "Answer"],
        ],
      },
      { row: 2, before: 0, after: 0, cells: [[0, 3, "Heading"]] },
      {
        row: 3,
        before: 0,
        after: 1,
        cells: [
          [0, 1, "1"],
          [1, 1, "Line one tabbed\nline two\ninner"],
        ],
      },
      { row: 4, before: 0, after: 0, cells: [] },
    ]);
    expect(map.rootNamespaces.w).toBe("http://schemas.openxmlformats.org/wordprocessingml/2006/main");
    // Positions point at the elements themselves.
    const row = table?.rows[3]?.element;
    expect(row && xml.slice(row.start, row.end)).toBe("<w:tr/>");
    expect(row?.closeTagStart).toBeNull();
  });

  it("refuses XML that is not well formed", () => {
    expect(() => mapDocxTables(`<w:document ${W}><w:body><w:tbl></w:body></w:document>`)).toThrow();
  });
});

describe("planning column widths", () => {
  it("keeps narrow original columns and gives the added columns the rest of the text width", () => {
    expect(planColumnWidths([1000, 2000], 9000)).toEqual({
      original: [1000, 2000],
      added: [1764, 1100, 1568, 1568],
      total: 9000,
    });
  });

  it("narrows wide original columns to 45 % of the table, in proportion, and keeps an over-wide table's width", () => {
    const plan = planColumnWidths([3000, 9000], 9000);
    expect(plan.original).toEqual([1350, 4050]);
    expect(plan.total).toBe(12_000);
  });

  it("narrows no column below half an inch, nor below a table nested in it", () => {
    expect(planColumnWidths([600, 1000, 8000], 9000).original).toEqual([600, 720, 3600]);
    const nested = planColumnWidths([1000, 8000], 9000, [0, 6000]);
    expect(nested.original).toEqual([720, 6000]);
    // The added columns keep their least room, so the table grows past the text width.
    expect(nested.added.reduce((sum, width) => sum + width, 0)).toBe(4400);
  });

  it("shares the text width among columns that give no width", () => {
    expect(planColumnWidths([null, null], 8000).original).toEqual([1800, 1800]);
  });
});

describe("hyperlink relationships", () => {
  it("adds one external relationship per distinct link, with fresh ids, after the existing ones", () => {
    const existing =
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdFolio1" Type="t" Target="styles.xml"/></Relationships>';
    const added = addHyperlinkRelationships(existing, [
      "https://a.test/x?a=1&b=2",
      "https://b.test/",
      "https://a.test/x?a=1&b=2",
    ]);
    expect([...added.idByUrl]).toEqual([
      ["https://a.test/x?a=1&b=2", "rIdFolio2"],
      ["https://b.test/", "rIdFolio3"],
    ]);
    expect(added.xml).toBe(
      existing.replace(
        "</Relationships>",
        '<Relationship Id="rIdFolio2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://a.test/x?a=1&amp;b=2" TargetMode="External"/><Relationship Id="rIdFolio3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://b.test/" TargetMode="External"/></Relationships>',
      ),
    );
  });

  it("creates the part when there is none, and declares .rels in the content types only when missing", () => {
    const created = addHyperlinkRelationships(null, ["https://a.test/"]);
    expect(created.xml).toMatch(/<Relationships xmlns="[^"]+"><Relationship Id="rIdFolio1" [^>]+\/><\/Relationships>$/);
    const types =
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>';
    expect(withRelationshipsContentType(types)).toBe(
      types.replace(
        "</Types>",
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/></Types>',
      ),
    );
    expect(withRelationshipsContentType(withRelationshipsContentType(types) ?? "")).toBeNull();
  });
});

describe("escaping text for Word", () => {
  it("escapes markup and drops characters XML cannot carry", () => {
    expect(escapeXmlText("a < b & c > d\u0000\u000b\ud800 ok 😀")).toBe("a &lt; b &amp; c &gt; d ok 😀");
  });
});
