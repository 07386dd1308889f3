/**
 * Finds the import cycles among Folio's own modules (scripts/import-graph.ts): each cycle is a set of
 * modules that reach one another through imports, type-only imports included (STYLE.md: a type two
 * modules share lives in its own small module). `npx tsx scripts/find-import-cycles.ts` prints them.
 */
import { type ImportEdge, listModules, readImportEdges } from "./import-graph.js";

/** Strongly connected components of more than one module, or of one that imports itself (Tarjan). */
export function findImportCycles(modules: readonly string[], edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>(modules.map((module) => [module, []]));
  for (const edge of edges) next.get(edge.from)?.push(edge.to);
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (module: string): void => {
    index.set(module, counter);
    lowest.set(module, counter);
    counter += 1;
    stack.push(module);
    onStack.add(module);
    for (const target of next.get(module) ?? []) {
      if (!next.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        lowest.set(module, Math.min(lowest.get(module)!, lowest.get(target)!));
      } else if (onStack.has(target)) {
        lowest.set(module, Math.min(lowest.get(module)!, index.get(target)!));
      }
    }
    if (lowest.get(module) !== index.get(module)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    const selfImport = (next.get(module) ?? []).includes(module);
    if (component.length > 1 || selfImport) cycles.push(component.sort());
  };
  for (const module of modules) if (!index.has(module)) visit(module);
  return cycles;
}

function main(): void {
  const root = process.cwd();
  const cycles = findImportCycles(listModules(root), readImportEdges(root));
  console.log(`${cycles.length} import cycles`);
  for (const cycle of cycles) console.log(cycle.join(" <-> "));
}

if (process.argv[1]?.endsWith("find-import-cycles.ts")) main();
