/** Loads a BEIR-format dataset directory: corpus.jsonl, queries.jsonl and qrels/<split>.tsv. */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { FolioError } from "../errors.js";
import type { Qrels } from "./ir-metrics.js";

export type BeirDocument = { id: string; title: string; text: string };
export type BeirDataset = { name: string; corpus: BeirDocument[]; queries: Map<string, string>; qrels: Qrels };

async function readDatasetFile(directory: string, relative: string): Promise<string> {
  try {
    return await readFile(path.join(directory, relative), "utf8");
  } catch (error) {
    throw new FolioError(
      "dataset_unreadable",
      `Cannot read ${relative} in ${directory} — is it a BEIR dataset directory?`,
      {
        details: { cause: String(error) },
      },
    );
  }
}

function parseJsonLines<T>(text: string): T[] {
  return text
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as T);
}

export async function loadBeirDataset(directory: string, split = "test"): Promise<BeirDataset> {
  const corpus = parseJsonLines<{ _id: string; title?: string; text?: string }>(
    await readDatasetFile(directory, "corpus.jsonl"),
  ).map((entry) => ({ id: String(entry._id), title: entry.title ?? "", text: entry.text ?? "" }));
  const queries = new Map(
    parseJsonLines<{ _id: string; text: string }>(await readDatasetFile(directory, "queries.jsonl")).map((entry) => [
      String(entry._id),
      entry.text,
    ]),
  );
  const qrels: Qrels = new Map();
  const lines = (await readDatasetFile(directory, path.join("qrels", `${split}.tsv`))).split("\n").slice(1);
  for (const line of lines) {
    const [queryId, docId, score] = line.trim().split("\t");
    if (!queryId || !docId || score === undefined) continue;
    const judgments = qrels.get(queryId) ?? new Map<string, number>();
    judgments.set(docId, Number(score));
    qrels.set(queryId, judgments);
  }
  return { name: path.basename(path.resolve(directory)), corpus, queries, qrels };
}
