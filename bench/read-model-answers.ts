/**
 * Prints the model's answers of a bench/llm-answer-benchmark.ts run for reading by hand: per question,
 * the question, whether the evaluation counted the answer right, the model's draft, each sentence with
 * the check's verdict (shown, or the parts that failed), and the answer shown. With a second run of the
 * same set without the model, the reader's answer is printed beside it.
 *
 *   npx tsx bench/read-model-answers.ts /tmp/hb-model.jsonl [/tmp/hb-reader.jsonl] [--asked|--worse|--better]
 *   (--asked: only questions the model was asked; --worse / --better: only those the evaluation counts
 *   wrong with the model and right without it, or the other way round)
 */
import { readFile } from "node:fs/promises";

type Line = {
  question: string;
  answer: string;
  noContext: boolean;
  right?: boolean;
  draft: string | null;
  verification: { outcome: string; promptTokens?: number; totalMs?: number } | null;
  sentences: Array<{ sentence: string; kept: string | null; unverified: string[]; support: number | null }>;
};

const args = process.argv.slice(2);
const onlyAsked = args.includes("--asked");
const onlyWorse = args.includes("--worse");
const onlyBetter = args.includes("--better");
const [modelRun, readerRun] = args.filter((arg) => !arg.startsWith("--"));
if (!modelRun)
  throw new Error("usage: tsx bench/read-model-answers.ts <model run.jsonl> [<reader run.jsonl>] [--asked]");

const read = async (file: string): Promise<Line[]> =>
  (await readFile(file, "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Line);

const model = await read(modelRun);
const reader = readerRun ? await read(readerRun) : [];
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
model.forEach((line, index) => {
  if (onlyAsked && line.draft === null) return;
  const other = reader[index]?.question === line.question ? reader[index] : undefined;
  if (onlyWorse && !(other?.right === true && line.right === false)) return;
  if (onlyBetter && !(other?.right === false && line.right === true)) return;
  const verdict = line.right === undefined ? "" : line.right ? "RIGHT" : "WRONG";
  process.stdout.write(
    `\n#${index + 1} ${verdict} ${line.verification?.outcome ?? "reader only"} — ${line.question}\n`,
  );
  if (line.draft !== null) process.stdout.write(`  draft: ${oneLine(line.draft)}\n`);
  for (const sentence of line.sentences)
    process.stdout.write(
      `    ${sentence.kept === null ? "✗" : "✓"} ${oneLine(sentence.sentence)}${sentence.unverified.length > 0 ? `   [${sentence.unverified.join("; ")}]` : ""}${sentence.support === null ? "" : ` (${sentence.support.toFixed(2)})`}\n`,
    );
  process.stdout.write(`  shown: ${oneLine(line.answer).slice(0, 400)}\n`);
  if (other)
    process.stdout.write(
      `  reader (${other.right === undefined ? "" : other.right ? "RIGHT" : "WRONG"}): ${oneLine(other.answer).slice(0, 300)}\n`,
    );
});
