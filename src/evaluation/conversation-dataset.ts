/**
 * The conversation evaluation's dataset: JSONL, one conversation per line, each naming the documents it
 * is about (paths relative to the data folder) and its turns in the order they are asked. Parsing
 * validates every line and reports each problem with its line number, so a typo in a hand-written
 * expectation is found before an hour of answering, not after.
 */
import { FolioError } from "../errors.js";
import { type ExpectedNumber, SCALE_FACTORS, type Scale } from "./answer-numbers.js";

export const TURN_KINDS = [
  "figure",
  "definition",
  "list",
  "yesno",
  "comparison",
  "followup",
  "absent",
  "typo",
  "other",
] as const;
export type TurnKind = (typeof TURN_KINDS)[number];

export type TurnExpectation = {
  /** Strings the answer must contain (case-insensitive, whitespace-normalised). */
  contains?: string[];
  /** Groups of alternatives: from each group, at least one must appear. */
  anyOf?: string[][];
  numbers?: ExpectedNumber[];
  /** "file.pdf#N" (physical 1-based page): at least one citation must cover one of them. */
  pages?: string[];
  /** true: the answer must be "not in the documents"; false (the default): it must not be. */
  refusal?: boolean;
};

export type ConversationTurnCase = { question: string; kind: TurnKind; expect: TurnExpectation };

export type ConversationCase = { id: string; documents: string[]; turns: ConversationTurnCase[] };

export function parseConversationDataset(text: string, source: string): ConversationCase[] {
  const conversations: ConversationCase[] = [];
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim().length === 0) continue;
    const lineProblems: string[] = [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      // The parser's own message differs between Node versions; the line number is what finds the typo.
      problems.push(`line ${index + 1}: not JSON`);
      continue;
    }
    const conversation = readConversation(parsed, lineProblems);
    if (conversation && ids.has(conversation.id)) lineProblems.push(`id "${conversation.id}" is used twice`);
    problems.push(...lineProblems.map((problem) => `line ${index + 1}: ${problem}`));
    if (conversation && lineProblems.length === 0) {
      ids.add(conversation.id);
      conversations.push(conversation);
    }
  }
  if (problems.length > 0) {
    throw new FolioError("dataset_unusable", `${source} has problems: ${problems.join("; ")}`);
  }
  if (conversations.length === 0) throw new FolioError("dataset_unusable", `${source} holds no conversation.`);
  return conversations;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function readConversation(value: unknown, problems: string[]): ConversationCase | null {
  if (!isRecord(value)) {
    problems.push("not an object");
    return null;
  }
  const { id, documents, turns } = value;
  if (typeof id !== "string" || id.length === 0) problems.push('"id" must be a non-empty string');
  if (!isStringList(documents)) problems.push('"documents" must be a list of paths');
  if (!Array.isArray(turns) || turns.length === 0) problems.push('"turns" must be a non-empty list');
  if (typeof id !== "string" || !isStringList(documents) || !Array.isArray(turns)) return null;
  const readTurns = turns.map((turn, turnIndex) => readTurn(turn, `turn ${turnIndex + 1}`, problems));
  return { id, documents, turns: readTurns.filter((turn) => turn !== null) };
}

function readTurn(value: unknown, where: string, problems: string[]): ConversationTurnCase | null {
  if (!isRecord(value)) {
    problems.push(`${where}: not an object`);
    return null;
  }
  const { question, kind, expect } = value;
  if (typeof question !== "string" || question.trim().length === 0) problems.push(`${where}: "question" must be text`);
  if (typeof kind !== "string" || !(TURN_KINDS as readonly string[]).includes(kind))
    problems.push(`${where}: "kind" must be one of ${TURN_KINDS.join(", ")}`);
  const expectation = readExpectation(expect, where, problems);
  if (typeof question !== "string" || typeof kind !== "string" || expectation === null) return null;
  return { question, kind: kind as TurnKind, expect: expectation };
}

function readExpectation(value: unknown, where: string, problems: string[]): TurnExpectation | null {
  if (!isRecord(value)) {
    problems.push(`${where}: "expect" must be an object`);
    return null;
  }
  const { contains, anyOf, numbers, pages, refusal } = value;
  const before = problems.length;
  if (contains !== undefined && !isStringList(contains)) problems.push(`${where}: "contains" must be a list of text`);
  if (anyOf !== undefined && !(Array.isArray(anyOf) && anyOf.every(isStringList)))
    problems.push(`${where}: "anyOf" must be a list of lists of text`);
  if (pages !== undefined && !(isStringList(pages) && pages.every((page) => /#\d+$/.test(page))))
    problems.push(`${where}: "pages" must be a list of "file#N"`);
  if (refusal !== undefined && typeof refusal !== "boolean") problems.push(`${where}: "refusal" must be true or false`);
  const expectedNumbers = numbers === undefined ? undefined : readNumbers(numbers, where, problems);
  if (problems.length > before) return null;
  const anything = [contains, anyOf, numbers, pages, refusal].some((part) => part !== undefined);
  if (!anything) {
    problems.push(`${where}: "expect" checks nothing`);
    return null;
  }
  return {
    contains: contains as string[] | undefined,
    anyOf: anyOf as string[][] | undefined,
    numbers: expectedNumbers,
    pages: pages as string[] | undefined,
    refusal: refusal as boolean | undefined,
  };
}

function readNumbers(value: unknown, where: string, problems: string[]): ExpectedNumber[] | undefined {
  if (!Array.isArray(value)) {
    problems.push(`${where}: "numbers" must be a list`);
    return undefined;
  }
  const numbers: ExpectedNumber[] = [];
  for (const item of value) {
    if (!isRecord(item) || typeof item.value !== "number" || !Number.isFinite(item.value)) {
      problems.push(`${where}: each number needs a numeric "value"`);
      continue;
    }
    if (item.scale !== undefined && !(typeof item.scale === "string" && item.scale in SCALE_FACTORS)) {
      problems.push(`${where}: "scale" must be one of ${Object.keys(SCALE_FACTORS).join(", ")}`);
      continue;
    }
    if (item.tolerance !== undefined && !(typeof item.tolerance === "number" && item.tolerance >= 0)) {
      problems.push(`${where}: "tolerance" must be a number of at least 0`);
      continue;
    }
    numbers.push({
      value: item.value,
      scale: item.scale as Scale | undefined,
      tolerance: item.tolerance as number | undefined,
    });
  }
  return numbers;
}
