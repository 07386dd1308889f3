/**
 * Rewrites the variable tables of docs/configuration.md from src/config/config-variables.ts:
 * `npx tsx scripts/write-configuration-table.ts` after changing a declaration (a test fails until then).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { withCurrentTables } from "../src/config/configuration-table.js";

const file = "docs/configuration.md";
const before = readFileSync(file, "utf8");
const after = withCurrentTables(before);
writeFileSync(file, after);
console.log(before === after ? `${file} was current` : `${file} rewritten`);
