/**
 * Lists the longest functions in the source tree (tests left out), so the ~120-line guide of STYLE.md
 * can be checked by anyone: `npx tsx scripts/function-lengths.ts [--most N] [--exclude DIR]...`.
 * A function's length is its lines from the line of its name (or `=>`) to its closing brace; functions
 * nested in it count in its length too, since a reader has to hold them all.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export type FunctionLength = { file: string; name: string; line: number; lines: number };

const SOURCE_ROOTS = ["src", "adapters", "ingestion", "bin"];

export function listSourceFiles(root: string, folders: readonly string[] = SOURCE_ROOTS): string[] {
  const files: string[] = [];
  const walk = (folder: string): void => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") walk(path);
      } else if (/\.(ts|mts)$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) {
        files.push(path);
      }
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return files.sort();
}

function functionName(node: ts.Node, source: ts.SourceFile): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) {
    return node.name.getText(source);
  }
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  return "(anonymous)";
}

export function measureFunctions(path: string, root: string): FunctionLength[] {
  const text = readFileSync(path, "utf8");
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node)
    ) {
      const body = node.body;
      if (body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(body.getEnd()).line;
        found.push({
          file: relative(root, path),
          name: functionName(node, source),
          line: start + 1,
          lines: end - start + 1,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function main(): void {
  const args = process.argv.slice(2);
  let most = 10;
  const excluded: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    if (args[index] === "--most") most = Number(args[++index]);
    else if (args[index] === "--exclude") excluded.push(args[++index] ?? "");
  }
  const root = process.cwd();
  const lengths = listSourceFiles(root)
    .filter((file) => !excluded.some((folder) => relative(root, file).startsWith(folder)))
    .flatMap((file) => measureFunctions(file, root))
    .sort((a, b) => b.lines - a.lines)
    .slice(0, most);
  for (const entry of lengths)
    console.log(`${String(entry.lines).padStart(4)}  ${entry.name}  ${entry.file}:${entry.line}`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ""))) main();
