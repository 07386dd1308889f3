/**
 * Diagnostics for `folio eval conversations` sets: ingests the documents once into a kept space of
 * FOLIO_DATA_DIR ("diagnose:<dataset>"), asks every conversation in order (with the thread's history, as
 * the evaluation does), and writes one JSON line per turn: the question, the query the rewrite searched
 * for, the first 20 results (file, heading, kind, text), the ranks of the results whose text meets the
 * turn's expectation (a share of its checks: strings, any-of groups, numbers), the answer and its check.
 * The documents stay, so a run after a change to answering takes seconds; after a change to ingestion
 * pass --reingest. Which half to run: --half odd|even (conversations 1, 3, 5, … are the odd half).
 * Usage: tsx bench/diagnose-conversations.ts <conversations.jsonl> <docs dir> <out.jsonl> [--reingest] [--half odd|even]
 */
import { randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Answer, ConversationTurn } from "../src/answer/answer-events.js";
import { ruleBasedFollowUpRewriter } from "../src/answer/question/rewrite-question.js";
import { createFolio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import { collectAnswer } from "../src/evaluation/ask-conversations.js";
import { parseConversationDataset } from "../src/evaluation/conversation-dataset.js";
import { ingestIntoEvaluationSpace } from "../src/evaluation/evaluation-space.js";
import { checkTurn, expectationShare } from "../src/evaluation/turn-check.js";
import { createLogger } from "../src/logger.js";

const [datasetPath, docsDir, outPath, ...flags] = process.argv.slice(2);
if (!datasetPath || !docsDir || !outPath)
  throw new Error(
    "usage: tsx bench/diagnose-conversations.ts <conversations.jsonl> <docs dir> <out.jsonl> [--reingest] [--half odd|even]",
  );
const half = flags.includes("--half") ? flags[flags.indexOf("--half") + 1] : undefined;
const config = loadConfig(process.env);
const folio = await createFolio({ ...config, llm: { kind: "none" } }, createLogger({ level: config.logLevel }), {
  embeddingCacheDir: path.join(config.dataDir, "embedding-cache"),
});
const conversations = parseConversationDataset(await readFile(datasetPath, "utf8"), datasetPath);
const spaceId = `diagnose:${path.basename(path.dirname(path.resolve(datasetPath)))}:${folio.retrievalMode}`;
let documents = await folio.catalog.listDocuments(spaceId);
if (flags.includes("--reingest") || documents.length === 0) {
  for (const document of documents) await folio.core.deleteDocument(document.id);
  const files = [...new Set(conversations.flatMap((conversation) => conversation.documents))];
  await ingestIntoEvaluationSpace(
    folio,
    spaceId,
    files.map((file) => path.resolve(docsDir, file)),
    (message) => process.stderr.write(`${message}\n`),
  );
  documents = await folio.catalog.listDocuments(spaceId);
}

const lines: string[] = [];
let correct = 0;
let asked = 0;
for (const [conversationIndex, conversation] of conversations.entries()) {
  if (half === "odd" && conversationIndex % 2 === 1) continue;
  if (half === "even" && conversationIndex % 2 === 0) continue;
  const history: ConversationTurn[] = [];
  for (const [index, turn] of conversation.turns.entries()) {
    const { query } = await ruleBasedFollowUpRewriter.rewrite({ question: turn.question, history });
    const results = await folio.retriever.search({ query, spaceIds: [spaceId], limit: 20 });
    const answer: Answer = await collectAnswer(folio.core, turn.question, {
      spaceIds: [spaceId],
      history: [...history],
      requestId: randomUUID(),
    });
    history.push({ role: "user", text: turn.question }, { role: "assistant", text: answer.answer });
    const check = checkTurn(answer, turn.expect);
    asked += 1;
    if (check.correct) correct += 1;
    const shares = results.map((result) => expectationShare(result.text, turn.expect));
    const best = Math.max(0, ...shares);
    lines.push(
      JSON.stringify({
        conversation: conversation.id,
        conversationIndex: conversationIndex + 1,
        turn: index + 1,
        kind: turn.kind,
        question: turn.question,
        query,
        expect: turn.expect,
        correct: check.correct,
        reasons: check.reasons,
        noContext: answer.noContext,
        answer: answer.answer,
        bestShare: best,
        bestRanks: best > 0 ? shares.flatMap((share, rank) => (share === best ? [rank + 1] : [])) : [],
        results: results.map((result, rank) => ({ ...result, rank: rank + 1, share: shares[rank] })),
      }),
    );
  }
}
await writeFile(outPath, `${lines.join("\n")}\n`);
process.stderr.write(`${correct}/${asked} correct; ${documents.length} documents; written to ${outPath}\n`);
await folio.close();
