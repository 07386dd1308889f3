/**
 * Scores the answers of a bench/llm-answer-benchmark.ts run against the set's gold, partial runs
 * included (OUT.partial.jsonl, written answer by answer, carries no verdict): the handbook's turn check
 * or TAT-QA's first-sentence check, per answer, with how the model's draft fared.
 *
 *   npx tsx bench/score-model-answers.ts handbook|tatqa <run>.jsonl [--json]
 */
import { readFile } from "node:fs/promises";
import { parseConversationDataset } from "../src/evaluation/conversation-dataset.js";
import { firstSentenceHolds } from "../src/evaluation/first-sentence.js";
import { readTatqaDataset } from "../src/evaluation/tatqa-dataset.js";
import { checkTurn } from "../src/evaluation/turn-check.js";
import { sharedData } from "../test/support/shared-paths.js";

type Line = {
  question: string;
  answer: string;
  noContext: boolean;
  verification: { outcome: string } | null;
};

const [set, runFile] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
if ((set !== "handbook" && set !== "tatqa") || !runFile)
  throw new Error("usage: tsx bench/score-model-answers.ts handbook|tatqa <run>.jsonl [--json]");
const lines = (await readFile(runFile, "utf8"))
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as Line);

const judge = await judgeOf(set);
const scored = lines.map((line) => ({
  question: line.question,
  outcome: line.verification?.outcome ?? "reader",
  right: judge(line),
  answer: line.answer,
}));
if (process.argv.includes("--json")) process.stdout.write(`${JSON.stringify(scored)}\n`);
else
  for (const line of scored)
    process.stdout.write(`${line.right ? "RIGHT" : "WRONG"}\t${line.outcome}\t${line.question}\n`);

async function judgeOf(name: "handbook" | "tatqa"): Promise<(line: Line) => boolean> {
  if (name === "handbook") {
    const file = sharedData("handbook-dev", "conversations.jsonl");
    const turns = new Map(
      parseConversationDataset(await readFile(file, "utf8"), file).flatMap((conversation) =>
        conversation.turns.map((turn) => [turn.question, turn.expect] as const),
      ),
    );
    return (line) => {
      const expect = turns.get(line.question);
      if (!expect) throw new Error(`not a handbook-dev question: ${line.question}`);
      return checkTurn({ ...line, citations: [] }, expect).correct;
    };
  }
  const questions = new Map(
    readTatqaDataset(await readFile(sharedData("tatqa-dev", "tatqa_dataset_dev.json"), "utf8")).flatMap((excerpt) =>
      excerpt.questions.map((question) => [question.question, question] as const),
    ),
  );
  return (line) => {
    const question = questions.get(line.question);
    if (!question) throw new Error(`not a TAT-QA dev question: ${line.question}`);
    return firstSentenceHolds(line.answer, question).holds && !line.noContext;
  };
}
