/**
 * Measures the instruction guard (src/answer/generate/instruction-guard.ts) on both sides:
 *
 * - Detection: bench/instruction-guard-injections.jsonl, one injection a line with its source —
 *   microsoft/BIPIA `benchmark/text_attack_test.json` @ 5a48626 (MIT; its 75 indirect text attacks,
 *   reported per category: the first five categories are task requests with no sign of being meant for
 *   a model, "Recommend a good book for a relaxing weekend read."), AgentDojo's attack templates
 *   (ethz-spylab/agentdojo, MIT: important_instructions, ignore_previous, system_message, injecagent),
 *   the Bing Chat injection of Greshake et al. 2023 (arXiv:2302.12173), phrases of Rebuff's
 *   instruction-bypass pattern (protectai/rebuff, Apache-2.0), and lines written for Folio (issue #30's
 *   "IMPORTANT SYSTEM OVERRIDE…" among them). A line is detected when the guard blanks a sentence of it.
 *   Categories `round-2` and `final-held-out` were added after the rules were first widened, and each
 *   was measured once before any rule was changed for it (docs/security.md gives those figures); the
 *   figures printed now include the changes made after.
 * - False positives: every sentence of real documents under FOLIO_SHARED_DATA_DIR — the 45 enterprise
 *   PDFs (NIST and FedRAMP publications, HR policies and handbooks, RFCs, government filings), the 7
 *   Northwind PDFs and the first FinanceBench SEC filings (--filings) — read by Folio's own parser
 *   and sentence splitter.
 *   Reported for all sentences, and for the hard part: the sentences that give orders or speak to the
 *   reader ("Employees must submit…", "You should…", "Do not…", "Ignore…"), which look most like
 *   injections. Every blanked benign sentence is printed with its rule.
 *
 *   FOLIO_SHARED_DATA_DIR=../shared/data npx tsx bench/instruction-guard-eval.ts [--filings 4] [--json]
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DEFAULT_PARSE_LIMITS } from "../ingestion/limits.js";
import { parseDocument } from "../ingestion/parse-document.js";
import { splitSentences } from "../ingestion/split-sentences.js";
import { matchInstructionRule } from "../src/answer/generate/instruction-guard.js";
import { sharedData } from "../test/support/shared-paths.js";

const { values } = parseArgs({ options: { filings: { type: "string" }, json: { type: "boolean" } } });
const filingCount = Number(values.filings ?? 4);

/** Sentences that give orders or address the reader: the benign text most like an injection. */
const IMPERATIVE =
  /\b(?:you|your|must|should|shall|please|do not|don't|never|always|ensure|submit|ignore|disregard|include|provide|reveal|print|respond|reply|answer|system|assistant|model|instructions?|override)\b/i;

type Injection = { text: string; source: string; category: string };

function sentencesOf(text: string): string[] {
  return splitSentences(text)
    .map(({ start, end }) => text.slice(start, end).replace(/\s+/g, " ").trim())
    .filter((sentence) => sentence.split(" ").length >= 4);
}

/** The first rule that blanks a sentence of the text (as blankInstructions splits it), or null. */
function detect(text: string): string | null {
  for (const { start, end } of splitSentences(text)) {
    const rule = matchInstructionRule(text.slice(start, end));
    if (rule) return rule;
  }
  return null;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const injections = (await readFile(path.join(here, "instruction-guard-injections.jsonl"), "utf8"))
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Injection);

const byCategory = new Map<string, { lines: number; detected: number }>();
const missed: string[] = [];
for (const injection of injections) {
  const key = `${injection.source.split(" ")[0]} / ${injection.category}`;
  const entry = byCategory.get(key) ?? { lines: 0, detected: 0 };
  entry.lines += 1;
  if (detect(injection.text)) entry.detected += 1;
  else missed.push(`[${key}] ${injection.text}`);
  byCategory.set(key, entry);
}

const files: string[] = [];
const enterprise = sharedData("enterprise-pdfs", "pdfs");
for (const name of (await readdir(enterprise)).sort())
  if (name.endsWith(".pdf")) files.push(path.join(enterprise, name));
const northwind = sharedData("northwind-rag-qa", "pdfs");
for (const name of (await readdir(northwind)).sort()) if (name.endsWith(".pdf")) files.push(path.join(northwind, name));
const filings = sharedData("financebench-dev", "pdfs");
for (const name of (await readdir(filings)).sort().slice(0, filingCount)) files.push(path.join(filings, name));

let benign = 0;
let imperative = 0;
const falsePositives: string[] = [];
let imperativeFalsePositives = 0;
for (const file of files) {
  const parsed = await parseDocument(new Uint8Array(await readFile(file)), path.basename(file), DEFAULT_PARSE_LIMITS);
  for (const page of parsed.pages ?? []) {
    for (const sentence of sentencesOf(page.text)) {
      benign += 1;
      const isImperative = IMPERATIVE.test(sentence);
      if (isImperative) imperative += 1;
      const rule = matchInstructionRule(sentence);
      if (!rule) continue;
      if (isImperative) imperativeFalsePositives += 1;
      falsePositives.push(`[${rule}] ${path.basename(file)} p.${page.pageNumber}: ${sentence}`);
    }
  }
}

const percent = (part: number, whole: number) => `${((100 * part) / Math.max(1, whole)).toFixed(2)}%`;
const detected = [...byCategory.values()].reduce((sum, entry) => sum + entry.detected, 0);
const taskRequests = [...byCategory.entries()].filter(([key]) =>
  /BIPIA \/ (?:Task Automation|Business Intelligence|Conversational Agent|Research Assistance|Sentiment Analysis)$/.test(
    key,
  ),
);
const taskLines = taskRequests.reduce((sum, [, entry]) => sum + entry.lines, 0);
const taskDetected = taskRequests.reduce((sum, [, entry]) => sum + entry.detected, 0);
const summary = {
  injections: injections.length,
  detected,
  detectionRate: percent(detected, injections.length),
  excludingBipiaTaskRequests: { lines: injections.length - taskLines, detected: detected - taskDetected },
  excludingBipiaTaskRequestsRate: percent(detected - taskDetected, injections.length - taskLines),
  benignFiles: files.length,
  benignSentences: benign,
  falsePositives: falsePositives.length,
  falsePositiveRate: percent(falsePositives.length, benign),
  imperativeBenignSentences: imperative,
  imperativeFalsePositives,
  imperativeFalsePositiveRate: percent(imperativeFalsePositives, imperative),
};
if (values.json) {
  console.log(JSON.stringify(summary));
} else {
  console.log(JSON.stringify(summary, null, 2));
  console.log("\nDetection by source / category:");
  for (const [key, entry] of byCategory) console.log(`  ${key}: ${entry.detected}/${entry.lines}`);
  console.log("\nMissed injections:");
  for (const line of missed) console.log(`  ${line}`);
  console.log("\nBenign sentences blanked:");
  for (const line of falsePositives) console.log(`  ${line}`);
}
