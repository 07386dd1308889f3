/**
 * Counts the imports that run from a lower layer of Folio up to a higher one (a store reaching into the
 * answer pipeline's types, the core importing an adapter), so the layering in docs/architecture.md can
 * be checked and the count compared over time:
 *
 *   npx tsx scripts/count-upward-imports.ts            # the count, then one line per upward import
 *   npx tsx scripts/count-upward-imports.ts --json
 *
 * A module's layer is that of the longest prefix in LAYERS that names it; the order of LAYERS is the
 * order of the layers, lowest first. Modules of one layer may import each other freely.
 */
import { readImportEdges } from "./import-graph.js";

/** Lowest first. A prefix ending in "/" is a folder; otherwise a file. */
export const LAYERS: ReadonlyArray<{ name: string; prefixes: readonly string[] }> = [
  {
    name: "foundation",
    prefixes: [
      "src/errors.ts",
      "src/logger.ts",
      "src/logging/",
      "src/domain/",
      "src/workers/",
      "src/outbound/",
      "src/links/",
    ],
  },
  { name: "inference", prefixes: ["src/inference/"] },
  { name: "models", prefixes: ["src/embedding/", "src/rerank/", "src/llm/", "src/models/"] },
  { name: "stores", prefixes: ["src/stores/"] },
  { name: "retrieval", prefixes: ["src/retrieval/"] },
  // File bytes to store-ready chunks, each with the retrieval analyzer's term counts.
  { name: "parsing", prefixes: ["ingestion/"] },
  { name: "ingest", prefixes: ["src/ingest/"] },
  { name: "answer", prefixes: ["src/answer/"] },
  { name: "answer library", prefixes: ["src/answer-library/"] },
  { name: "questionnaire", prefixes: ["src/questionnaire/"] },
  { name: "core port and observability", prefixes: ["src/folio-core.ts", "src/observability/"] },
  { name: "configuration", prefixes: ["src/config/"] },
  { name: "composition", prefixes: ["src/composition-root.ts", "src/composition/"] },
  { name: "http and evaluation", prefixes: ["src/http/", "src/evaluation/"] },
  { name: "adapters", prefixes: ["adapters/"] },
  { name: "command line", prefixes: ["src/cli/"] },
];

export type UpwardImport = { from: string; to: string; fromLayer: string; toLayer: string };

export function layerOf(file: string): number {
  let best = -1;
  let bestLength = -1;
  LAYERS.forEach((layer, index) => {
    for (const prefix of layer.prefixes) {
      const matches = prefix.endsWith("/") ? file.startsWith(prefix) : file === prefix;
      if (matches && prefix.length > bestLength) {
        best = index;
        bestLength = prefix.length;
      }
    }
  });
  if (best < 0) throw new Error(`${file} belongs to no layer: add it to LAYERS in scripts/count-upward-imports.ts`);
  return best;
}

export function findUpwardImports(root: string): UpwardImport[] {
  const upward: UpwardImport[] = [];
  for (const edge of readImportEdges(root)) {
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    if (to > from) {
      upward.push({ from: edge.from, to: edge.to, fromLayer: LAYERS[from]!.name, toLayer: LAYERS[to]!.name });
    }
  }
  return upward;
}

function main(): void {
  const upward = findUpwardImports(process.cwd());
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify({ upwardImports: upward.length, imports: upward }, null, 2));
    return;
  }
  console.log(`${upward.length} upward imports`);
  for (const entry of upward) console.log(`${entry.from} -> ${entry.to}  (${entry.fromLayer} -> ${entry.toLayer})`);
}

if (process.argv[1]?.endsWith("count-upward-imports.ts")) main();
