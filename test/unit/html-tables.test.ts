/**
 * HTML tables (uploaded HTML, and DOCX through mammoth's HTML) laid out on a grid, so a cell after a
 * merged one stays under its own column name.
 */
import { describe, expect, it } from "vitest";
import { htmlToBlocks } from "../../ingestion/html-blocks.js";
import type { TableBlock } from "../../ingestion/parsed-document.js";

function firstTable(html: string): TableBlock | undefined {
  return htmlToBlocks(html).blocks.find((block): block is TableBlock => block.kind === "table");
}

describe("HTML tables on a grid", () => {
  it("leaves the columns a cell spans empty after it, so later cells keep their column", () => {
    const table = firstTable(
      "<table><tr><td>H0</td><td>H1</td><td>H2</td><td>H3</td></tr>" +
        '<tr><td>a</td><td colspan="2">merged</td><td>d</td></tr></table>',
    );
    expect(table?.header).toEqual(["H0", "H1", "H2", "H3"]);
    expect(table?.rows).toEqual([["a", "merged", "", "d"]]);
  });

  it("repeats a cell spanning rows in each row it covers", () => {
    const table = firstTable(
      "<table><tr><th>Area</th><th>Control</th><th>Owner</th></tr>" +
        '<tr><td rowspan="2">Access</td><td>AC-1</td><td>Ann</td></tr>' +
        "<tr><td>AC-2</td><td>Bob</td></tr>" +
        "<tr><td>Audit</td><td>AU-1</td><td>Cy</td></tr></table>",
    );
    expect(table?.rows).toEqual([
      ["Access", "AC-1", "Ann"],
      ["Access", "AC-2", "Bob"],
      ["Audit", "AU-1", "Cy"],
    ]);
  });

  it("clamps hostile spans instead of building huge rows", () => {
    const table = firstTable(
      '<table><tr><td colspan="1000000">x</td><td>y</td></tr><tr><td rowspan="-4">a</td><td>b</td></tr></table>',
    );
    expect(table?.header).toHaveLength(51);
    expect(table?.rows).toEqual([["a", "b"]]);
  });
});
