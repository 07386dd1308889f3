/**
 * What the claim-level check of src/answer/generate/verify-answer.ts (claim-check.ts: numbers, dates, links,
 * names and clauses held to the supporting source) costs correct answers and what it adds against
 * wrong ones. Each sentence of a Northwind reference answer is a claim citing one source: its gold
 * page (the supported case) and a random other page of the same document (the unsupported case, same
 * vocabulary). verifyAnswer runs with the real bge-small-en-v1.5 as in production; a claim "passes by
 * similarity" when its cosine reaches the threshold (the check before #30) and "passes" when
 * verifyAnswer keeps it. Prints both rates and the parts that failed most.
 *
 *   FOLIO_MODELS_DIR=../shared/models FOLIO_SHARED_DATA_DIR=../shared/data \
 *     npx tsx bench/claim-check-calibration.ts [--questions 120]
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_PARSE_LIMITS } from "../ingestion/limits.js";
import { parseDocument } from "../ingestion/parse-document.js";
import {
  claimText,
  DEFAULT_SUPPORT_THRESHOLD,
  splitAnswer,
  verifyAnswer,
} from "../src/answer/generate/verify-answer.js";
import type { PageText } from "../src/domain/types.js";
import { createTransformersEmbedder } from "../src/embedding/transformers-embedder.js";
import { goldPagesOf } from "../src/evaluation/answer-evaluation.js";
import { createInferenceClient } from "../src/inference/inference-client.js";
import { silentLogger } from "../src/logger.js";
import { pageChunk } from "../test/support/page-chunk.js";
import { createSeededRandom } from "../test/support/seeded-random.js";
import { sharedData, sharedModelsDir } from "../test/support/shared-paths.js";

const CITATION = /\s*\[[^[\]]+\.pdf#page=\d+\]/gi;
const { values } = parseArgs({ options: { questions: { type: "string" } } });
const questionLimit = Number(values.questions ?? 120);

const inference = createInferenceClient({ threads: 1, logger: silentLogger });
const embedder = await createTransformersEmbedder({
  inference,
  modelsDir: sharedModelsDir,
  modelId: "bge-small-en-v1.5",
});
const documentsDir = sharedData("northwind-rag-qa", "pdfs");
const pagesByFile = new Map<string, PageText[]>();
for (const file of [
  "Benefit_Options.pdf",
  "Northwind_Health_Plus_Benefits_Details.pdf",
  "Northwind_Standard_Benefits_Details.pdf",
  "PerksPlus.pdf",
  "employee_handbook.pdf",
  "role_library.pdf",
]) {
  const parsed = await parseDocument(
    new Uint8Array(await readFile(path.join(documentsDir, file))),
    file,
    DEFAULT_PARSE_LIMITS,
  );
  pagesByFile.set(
    file,
    (parsed.pages ?? []).filter((page) => page.text.trim().length > 200),
  );
}
const random = createSeededRandom(7);
const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;

type Tally = { claims: number; bySimilarity: number; kept: number; failures: Map<string, number> };
const tally = (): Tally => ({ claims: 0, bySimilarity: 0, kept: 0, failures: new Map() });
const gold = tally();
const samePage = tally();
const examples: string[] = [];

async function verifyClaims(
  claims: string[],
  file: string,
  page: PageText,
  into: Tally,
  keepExamples: boolean,
): Promise<void> {
  // The source as Folio would show it: the file's name, and a title from it (these PDFs have no title of their own).
  const stem = file.replace(/\.pdf$/, "");
  const source = { n: 1, result: pageChunk(stem, stem.replaceAll("_", " "), [page]) };
  const answer = claims.map((claim) => `${claim.replace(/[.!?]?$/, "")} [1].`).join(" ");
  const verification = await verifyAnswer({ answer, sources: [source], embedder });
  for (const sentence of verification.sentences) {
    into.claims += 1;
    if ((sentence.support ?? 0) >= DEFAULT_SUPPORT_THRESHOLD) into.bySimilarity += 1;
    if (sentence.supported) into.kept += 1;
    for (const part of sentence.unverifiedClaims ?? []) {
      const kind = part.slice(0, part.indexOf(" "));
      into.failures.set(kind, (into.failures.get(kind) ?? 0) + 1);
      if (keepExamples && examples.length < 25) examples.push(`${part}  ←  ${sentence.text}`);
    }
  }
}

const lines = (await readFile(sharedData("northwind-rag-qa", "ground_truth.jsonl"), "utf8"))
  .split("\n")
  .filter(Boolean);
let used = 0;
for (const line of lines) {
  if (used >= questionLimit) break;
  const entry = JSON.parse(line) as { truth?: string };
  const goldPage = goldPagesOf(entry.truth ?? "")[0];
  const pages = goldPage ? pagesByFile.get(goldPage.file) : undefined;
  const page = pages?.find((candidate) => candidate.pageNumber === goldPage?.page);
  if (!goldPage || !pages || !page) continue;
  used += 1;
  const claims = splitAnswer((entry.truth ?? "").replace(CITATION, ""))
    .map((piece) => claimText(piece.text))
    .filter((claim) => claim.split(" ").length >= 4);
  if (claims.length === 0) continue;
  await verifyClaims(claims, goldPage.file, page, gold, true);
  const others = pages.filter((candidate) => Math.abs(candidate.pageNumber - goldPage.page) > 1);
  if (others.length > 0) await verifyClaims(claims, goldPage.file, pick(others), samePage, false);
}

const share = (part: number, whole: number) => `${part}/${whole} (${((100 * part) / Math.max(1, whole)).toFixed(1)}%)`;
console.log(`${used} questions`);
for (const [name, counts] of [
  ["gold page", gold],
  ["same-document other page", samePage],
] as const) {
  console.log(
    `${name}: claims ${counts.claims}; pass by similarity ${share(counts.bySimilarity, counts.claims)}; kept after the claim check ${share(counts.kept, counts.claims)}; failed parts ${JSON.stringify(Object.fromEntries(counts.failures))}`,
  );
}
console.log("gold-page claims that pass by similarity but fail a part:");
for (const example of examples) console.log(`  ${example}`);
await inference.close();
