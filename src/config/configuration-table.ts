/**
 * The tables of docs/configuration.md, written from the variables' declarations (config-variables.ts):
 * one table per section, a row per variable with its default, what it accepts and what it is for.
 * scripts/write-configuration-table.ts puts them between the markers; a test checks they are current.
 */
import type { ConfigVariable } from "./config-variable.js";
import { CONFIG_SECTIONS } from "./config-variables.js";

export const TABLE_START =
  "<!-- configuration-table: written from src/config/config-variables.ts by `npx tsx scripts/write-configuration-table.ts`; edit the declarations, not this table -->";
export const TABLE_END = "<!-- /configuration-table -->";

export function renderConfigurationTables(): string {
  const sections = CONFIG_SECTIONS.map(({ title, variables }) => {
    const rows = Object.entries(variables as Record<string, ConfigVariable<unknown>>).map(([name, variable]) => [
      `\`${name}\``,
      variable.shownDefault,
      variable.accepts,
      describe(variable),
    ]);
    return [`### ${title}`, "", table(["variable", "default", "accepts", "meaning"], rows)].join("\n");
  });
  return [TABLE_START, "", sections.join("\n\n"), "", TABLE_END].join("\n");
}

function describe(variable: ConfigVariable<unknown>): string {
  return variable.onlyWith ? `${variable.help} (read only when \`${variable.onlyWith}\` is set)` : variable.help;
}

/** A Markdown table with its columns padded to one width, as the formatter (Biome) writes it. */
function table(header: string[], rows: string[][]): string {
  const cells = [header, ...rows].map((row) => row.map((cell) => cell.replaceAll("|", "\\|")));
  const widths = header.map((_, column) => Math.max(3, ...cells.map((row) => width(row[column] ?? ""))));
  const line = (row: string[]) => `| ${row.map((cell, column) => pad(cell, widths[column] ?? 0)).join(" | ")} |`;
  const [head, ...body] = cells;
  return [line(head ?? []), line(widths.map((size) => "-".repeat(size))), ...body.map(line)].join("\n");
}

function width(text: string): number {
  return [...text].length;
}

function pad(text: string, size: number): string {
  return text + " ".repeat(Math.max(0, size - width(text)));
}

/** The document with its tables replaced by the current ones; throws when the markers are missing. */
export function withCurrentTables(document: string): string {
  const start = document.indexOf(TABLE_START);
  const end = document.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error("docs/configuration.md has no configuration-table markers");
  return document.slice(0, start) + renderConfigurationTables() + document.slice(end + TABLE_END.length);
}
