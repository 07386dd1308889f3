import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES } from "../../src/config/config-variables.js";
import { renderConfigurationTables, TABLE_END, TABLE_START } from "../../src/config/configuration-table.js";

const documentation = readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8");

/** The rows of the generated tables as docs/configuration.md has them: name → [default, accepts]. */
function documentedRows(text: string): Map<string, [string, string]> {
  const block = text.slice(text.indexOf(TABLE_START), text.indexOf(TABLE_END));
  const rows = new Map<string, [string, string]>();
  for (const match of block.matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\| (.*?) *\| (.*?) *\| .*\|$/gm)) {
    expect(rows.has(match[1]!), `${match[1]} is listed twice`).toBe(false);
    rows.set(match[1]!, [match[2]!, match[3]!]);
  }
  return rows;
}

describe("docs/configuration.md", () => {
  it("holds the tables written from the declarations (run `npx tsx scripts/write-configuration-table.ts`)", () => {
    const start = documentation.indexOf(TABLE_START);
    const end = documentation.indexOf(TABLE_END);
    expect(start).toBeGreaterThan(0);
    expect(documentation.slice(start, end + TABLE_END.length)).toBe(renderConfigurationTables());
  });

  it("lists every declared variable once, with its default and range", () => {
    const rows = documentedRows(documentation);
    expect([...rows.keys()].sort()).toEqual(Object.keys(CONFIG_VARIABLES).sort());
    expect(rows.get("PORT")).toEqual(["`3000`", "a whole number from 0 to 65535"]);
    expect(rows.get("FOLIO_APPROVED_ANSWER_THRESHOLD")).toEqual(["`0.945`", "a number from 0.5 to 1"]);
    expect(rows.get("FOLIO_LOG_LEVEL")).toEqual(["`info`", "one of debug, info, warn, error, silent"]);
    expect(rows.get("FOLIO_OFFLINE")).toEqual(["`0`", "1 or 0 (true/false, yes/no)"]);
    expect(rows.get("QDRANT_COLLECTION")).toEqual([
      "`folio_chunks`",
      '1 to 255 letters, digits, "_" or "-" (a Qdrant collection name)',
    ]);
  });

  it("would notice a changed default", () => {
    const changed = documentation.replace(/(\| `PORT` +\| )`3000`/, "$1`8080`");
    expect(changed).not.toBe(documentation);
    expect(documentedRows(changed).get("PORT")?.[0]).toBe("`8080`");
    expect(changed.slice(changed.indexOf(TABLE_START), changed.indexOf(TABLE_END) + TABLE_END.length)).not.toBe(
      renderConfigurationTables(),
    );
  });
});
