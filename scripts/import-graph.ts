/**
 * The relative imports between Folio's own modules (src/, adapters/, ingestion/; tests, benchmarks and
 * scripts left out), read from the source text: what scripts/count-upward-imports.ts and the import-cycle
 * test walk. Type-only imports count too: they tie a lower module to a higher one's shape all the same.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export type ImportEdge = {
  /** Importing file, relative to the repository root, with forward slashes. */
  from: string;
  /** Imported file, the same way (`.js` in the specifier read as the `.ts` beside it). */
  to: string;
  typeOnly: boolean;
};

export const SOURCE_FOLDERS = ["src", "adapters", "ingestion"] as const;

const IMPORT_PATTERN =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

export function listModules(root: string): string[] {
  const files: string[] = [];
  const visit = (folder: string): void => {
    for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
      const relative = `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") visit(relative);
      } else if (/\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) {
        files.push(relative);
      }
    }
  };
  for (const folder of SOURCE_FOLDERS) visit(folder);
  return files.sort();
}

export function readImportEdges(root: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of listModules(root)) {
    const text = readFileSync(path.join(root, file), "utf8");
    for (const match of text.matchAll(IMPORT_PATTERN)) {
      const specifier = match[3] ?? match[4];
      if (!specifier) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, ".ts");
      edges.push({ from: file, to: target, typeOnly: match[2] !== undefined });
    }
  }
  return edges;
}
